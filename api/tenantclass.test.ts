import { describe, expect, it } from 'vitest';
import { builtInClass, fillName, isDefaultClass, resolvedClass } from './tenantclass.js';

describe('resolvedClass', () => {
  it('fills every default of an empty class: PerTenant, baseline, Isolated, no token', () => {
    const policy = resolvedClass('standard', 3);
    expect(policy).toMatchObject({
      name: 'standard',
      generation: 3,
      mode: 'PerTenant',
      namespace: { mode: 'PerTenant', nameTemplate: '{name}' },
      podSecurity: 'baseline',
      networkIsolation: 'Isolated',
      serviceAccount: { automountToken: false },
      limits: { maxReplicas: 50, maxConfigMaps: 50, allowedPriorityClasses: [] },
    });
  });

  it('merges each section field by field, so one field of a section can be set alone', () => {
    const policy = resolvedClass('x', 1, {
      limits: { maxReplicas: 3 },
      namespace: { nameTemplate: 't-{name}' },
    });
    expect(policy.limits.maxConfigMaps).toBe(50);
    expect(policy.limits.maxReplicas).toBe(3);
    expect(policy.namespace).toMatchObject({ mode: 'PerTenant', nameTemplate: 't-{name}' });
  });

  it('never shares objects with the spec it was given', () => {
    const spec = { nodePool: { nodeSelector: { pool: 'a' } } };
    const policy = resolvedClass('x', 1, spec);
    spec.nodePool.nodeSelector.pool = 'b';
    expect(policy.nodePool.nodeSelector).toEqual({ pool: 'a' });
  });

  it('makes the built-in class Shared at the level it is given', () => {
    expect(builtInClass('restricted')).toMatchObject({
      mode: 'Shared',
      podSecurity: 'restricted',
      generation: 0,
    });
  });
});

describe('fillName and isDefaultClass', () => {
  it('replaces every {name}', () => expect(fillName('{name}-x-{name}', 'a')).toBe('a-x-a'));
  it('takes only the value "true" as default', () => {
    const meta = (value: string) => ({
      metadata: { annotations: { 'landlord.dev/is-default-class': value } },
    });
    expect(isDefaultClass(meta('true'))).toBe(true);
    expect(isDefaultClass(meta('yes'))).toBe(false);
  });
});
