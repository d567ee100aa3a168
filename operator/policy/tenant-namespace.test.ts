// PerTenant: the tenant's namespace comes from its class's name template, the children go into it
// whatever the manifest says, the Shared-only checks step aside, and the pods run as the tenant's
// own ServiceAccount.
import { describe, expect, it } from 'vitest';
import { resolvedClass } from '../../api/tenantclass.js';
import { deploymentOf, perTenant, podSpecOf, testConfig, validTenant } from '../../testing/policy.js';
import { evaluateTenant, TENANT_SERVICE_ACCOUNT, tenantNamespace } from './index.js';

const PER_TENANT = testConfig({ tenantClass: perTenant() });

describe('tenantNamespace', () => {
  const classWith = (nameTemplate: string) =>
    testConfig({
      operatorNamespace: 'landlord-system',
      tenantClass: resolvedClass('standard', 1, { namespace: { nameTemplate } }),
    });

  it('is none in Shared mode: the children stay where they say', () => {
    expect(tenantNamespace('acme', testConfig())).toEqual({ ok: true, namespace: undefined });
  });

  it.each([
    ['{name}', 'acme', 'acme'],
    ['t-{name}', 'acme', 't-acme'],
  ])('fills %j for %s: %s', (template, tenant, namespace) => {
    expect(tenantNamespace(tenant, classWith(template))).toEqual({ ok: true, namespace });
  });

  it.each([
    ['default', '{name}', 'system namespace'],
    ['kube-system', '{name}', 'system namespace'],
    ['kube-public', '{name}', 'system namespace'],
    ['kube-node-lease', '{name}', 'system namespace'],
    ['system', 'kube-{name}', 'system namespace'],
    ['landlord-system', '{name}', "landlord's own namespace"],
    ['acme', 'Tenants/{name}', 'not a namespace name'],
    ['a'.repeat(60), 'tenant-{name}', 'not a namespace name'],
  ])('refuses tenant %s under template %j: %s', (tenant, template, says) => {
    const result = tenantNamespace(tenant, classWith(template));
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.refusal.reason).toBe('NamespaceNotAllowed');
    expect(result.refusal.message).toContain(says);
    expect(result.refusal.message).toContain('of class standard');
  });

  it.each([
    ['kube-anything', '{name}', 'NamespaceReserved', 'the reserved name "kube-*"'],
    ['foo-system', '{name}', 'NamespaceReserved', 'the reserved name "*-system"'],
    ['ingress-nginx', '{name}', 'NamespaceReserved', 'the reserved name "ingress-*"'],
  ])('refuses tenant %s under template %j with its own reason, %s', (tenant, template, reason, says) => {
    const result = tenantNamespace(tenant, classWith(template));
    expect(result.ok ? 'accepted' : result.refusal).toEqual({
      reason,
      message: expect.stringContaining(says) as string,
    });
  });
});

function accepted(tenant = validTenant()) {
  const result = evaluateTenant(tenant, PER_TENANT);
  if (!result.ok) throw new Error(`refused: ${result.refusal.message}`);
  return result.children;
}

describe('PerTenant placement', () => {
  it("puts every child in the tenant's namespace, whatever its manifest names", () => {
    const tenant = validTenant();
    deploymentOf(tenant).metadata!.namespace = 'default';
    const children = accepted(tenant);
    expect(children.deployment.metadata?.namespace).toBe('acme');
    expect(children.configMaps.map((c) => c.metadata?.namespace)).toEqual(['acme', 'acme']);
    // The Tenant it read is left as it was.
    expect(deploymentOf(tenant).metadata?.namespace).toBe('default');
  });

  it('leaves the Shared allow-list aside: a row naming kube-system still lands in its own namespace', () => {
    const tenant = validTenant();
    deploymentOf(tenant).metadata!.namespace = 'kube-system';
    expect(evaluateTenant(tenant, testConfig()).ok).toBe(false);
    expect(accepted(tenant).deployment.metadata?.namespace).toBe('acme');
  });

  it("runs the pods as the tenant's ServiceAccount, whatever the row names", () => {
    const tenant = validTenant();
    podSpecOf(tenant).serviceAccountName = 'landlord-operator';
    podSpecOf(tenant).serviceAccount = 'landlord-operator';
    const spec = accepted(tenant).deployment.spec?.template.spec;
    expect(spec?.serviceAccountName).toBe(TENANT_SERVICE_ACCOUNT);
    expect(spec).not.toHaveProperty('serviceAccount');
  });

  it('refuses a tenant whose namespace would be a system one', () => {
    const tenant = validTenant();
    tenant.metadata.name = 'kube-system';
    const result = evaluateTenant(tenant, PER_TENANT);
    expect(result.ok ? 'accepted' : result.refusal.reason).toBe('NamespaceNotAllowed');
  });

  it('refuses two ConfigMaps that the move gives the same namespace and name', () => {
    const tenant = validTenant();
    const [first] = tenant.spec!.configMaps!;
    tenant.spec!.configMaps!.push({ ...first!, metadata: { ...first!.metadata, namespace: 'team-b' } });
    const result = evaluateTenant(tenant, PER_TENANT);
    expect(result.ok ? 'accepted' : result.refusal.reason).toBe('DuplicateChild');
  });
});
