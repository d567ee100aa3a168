import { describe, expect, it } from 'vitest';
import { API_VERSION, KIND, type Tenant } from '../../api/tenant.js';
import {
  BUILT_IN_CLASS_NAME,
  CLASS_API_VERSION,
  CLASS_KIND,
  DEFAULT_CLASS_ANNOTATION,
  builtInClass,
  type TenantClass,
  type TenantClassSpec,
} from '../../api/tenantclass.js';
import { CLASS_MESSAGE, keptClass, resolveClass } from './resolve-class.js';

const builtIn = builtInClass('baseline');

function tenantClass(
  name: string,
  options: { isDefault?: boolean; spec?: TenantClassSpec } = {},
): TenantClass {
  const annotations: Record<string, string> =
    options.isDefault === true ? { [DEFAULT_CLASS_ANNOTATION]: 'true' } : {};
  return {
    apiVersion: CLASS_API_VERSION,
    kind: CLASS_KIND,
    metadata: { name, generation: 4, annotations },
    spec: options.spec ?? { namespace: { mode: 'Shared' } },
  };
}

function tenant(specClass?: string, statusClass?: string): Tenant {
  return {
    apiVersion: API_VERSION,
    kind: KIND,
    metadata: { name: 'acme' },
    spec: specClass === undefined ? {} : { class: specClass },
    ...(statusClass === undefined ? {} : { status: { class: statusClass } }),
  };
}

const shared = tenantClass('shared', { spec: { namespace: { mode: 'Shared' }, limits: { maxReplicas: 2 } } });
const standard = tenantClass('standard', { isDefault: true });
const other = tenantClass('other', { isDefault: true });

describe('resolveClass', () => {
  it('gives the class the row names, with its defaults filled in and its generation', () => {
    const result = resolveClass(tenant('shared'), [standard, shared], builtIn);
    expect(result).toMatchObject({ ok: true, policy: { name: 'shared', generation: 4, mode: 'Shared' } });
    expect(result.ok && result.policy.limits).toMatchObject({ maxReplicas: 2, maxConfigMaps: 50 });
  });

  it('refuses a named class that does not exist with ClassNotFound, even when a default exists', () => {
    expect(resolveClass(tenant('gold'), [standard], builtIn)).toEqual({
      ok: false,
      refusal: { reason: 'ClassNotFound', message: CLASS_MESSAGE.named('gold') },
    });
  });

  it('gives a row without a class the one class annotated as the default', () => {
    expect(resolveClass(tenant(), [shared, standard], builtIn)).toMatchObject({
      ok: true,
      policy: { name: 'standard' },
    });
  });

  it('only the value "true" marks the default', () => {
    const maybe = tenantClass('maybe');
    maybe.metadata.annotations = { [DEFAULT_CLASS_ANNOTATION]: 'True' };
    expect(resolveClass(tenant(), [maybe], builtIn)).toEqual({ ok: true, policy: builtIn });
  });

  it('refuses two default classes with AmbiguousDefaultClass, naming both in order', () => {
    expect(resolveClass(tenant(), [standard, shared, other], builtIn)).toEqual({
      ok: false,
      refusal: {
        reason: 'AmbiguousDefaultClass',
        message: CLASS_MESSAGE.ambiguous(['other', 'standard']),
      },
    });
  });

  it('two defaults do not matter to a row that names its class', () => {
    expect(resolveClass(tenant('shared'), [standard, other, shared], builtIn)).toMatchObject({ ok: true });
  });

  it('gives the built-in class when no class is the default, or none exists', () => {
    expect(resolveClass(tenant(), [shared], builtIn)).toEqual({ ok: true, policy: builtIn });
    expect(resolveClass(tenant(), [], builtIn)).toEqual({ ok: true, policy: builtIn });
  });

  it('keeps a tenant under the default class it was given after the annotation moved', () => {
    const moved = tenantClass('standard');
    expect(resolveClass(tenant(undefined, 'standard'), [moved, other], builtIn)).toMatchObject({
      ok: true,
      policy: { name: 'standard' },
    });
  });

  it('refuses with ClassNotFound, and never picks another class, when the class it was given is gone', () => {
    for (const classes of [[], [other], [shared]]) {
      expect(resolveClass(tenant(undefined, 'standard'), classes, builtIn)).toEqual({
        ok: false,
        refusal: { reason: 'ClassNotFound', message: CLASS_MESSAGE.kept('standard') },
      });
    }
  });

  it('moves a tenant under the built-in class to a default class once one is marked', () => {
    expect(resolveClass(tenant(undefined, BUILT_IN_CLASS_NAME), [standard], builtIn)).toMatchObject({
      ok: true,
      policy: { name: 'standard' },
    });
  });

  it('follows the row when it names a class, whatever status says', () => {
    expect(resolveClass(tenant('shared', 'standard'), [shared], builtIn)).toMatchObject({
      ok: true,
      policy: { name: 'shared' },
    });
  });

  it('reads an empty class as none', () => {
    expect(resolveClass(tenant('', ''), [standard], builtIn)).toMatchObject({
      ok: true,
      policy: { name: 'standard' },
    });
  });
});

describe('keptClass', () => {
  it('is the recorded class of a tenant whose row names none, except the built-in one', () => {
    expect(keptClass(tenant(undefined, 'standard'))).toBe('standard');
    expect(keptClass(tenant(undefined, BUILT_IN_CLASS_NAME))).toBeUndefined();
    expect(keptClass(tenant('shared', 'standard'))).toBeUndefined();
    expect(keptClass(tenant())).toBeUndefined();
  });
});
