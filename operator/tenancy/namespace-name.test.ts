import { describe, expect, it } from 'vitest';
import { resolvedClass } from '../../api/tenantclass.js';
import { tenantNamespace } from './namespace-name.js';

const classWith = (nameTemplate: string) => resolvedClass('standard', 1, { namespace: { nameTemplate } });

describe('tenantNamespace', () => {
  it.each([
    ['{name}', 'acme', 'acme'],
    ['t-{name}', 'acme', 't-acme'],
    ['{name}-{name}', 'ab', 'ab-ab'],
  ])('fills %j for %s: %s', (template, tenant, namespace) => {
    expect(tenantNamespace(tenant, classWith(template), 'landlord-system')).toEqual({ ok: true, namespace });
  });

  it.each([
    ['default', '{name}', 'system namespace'],
    ['kube-system', '{name}', 'system namespace'],
    ['kube-public', '{name}', 'system namespace'],
    ['kube-node-lease', '{name}', 'system namespace'],
    ['kube-anything', '{name}', 'system namespace'],
    ['system', 'kube-{name}', 'system namespace'],
    ['landlord-system', '{name}', "landlord's own namespace"],
    ['acme', 'Tenants/{name}', 'not a namespace name'],
    ['a'.repeat(60), 'tenant-{name}', 'not a namespace name'],
  ])('refuses tenant %s under template %j: %s', (tenant, template, says) => {
    const result = tenantNamespace(tenant, classWith(template), 'landlord-system');
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.refusal.reason).toBe('NamespaceNotAllowed');
    expect(result.refusal.message).toContain(says);
    expect(result.refusal.message).toContain('of class standard');
  });
});
