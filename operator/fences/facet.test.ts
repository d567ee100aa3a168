// The fences facet through the engine: a PerTenant class's namespace and what fences it in come
// before the workload, stay in every state, and a class whose fence cannot be built refuses the
// tenant; a Shared class has none.
import { describe, expect, it } from 'vitest';
import { API_VERSION, KIND, type Tenant } from '../../api/tenant.js';
import { resolvedClass, type TenantClassSpec } from '../../api/tenantclass.js';
import { perTenant, testConfig, validTenant } from '../../testing/policy.js';
import { desiredState } from '../facets/engine.js';

const PER_TENANT = testConfig({ tenantClass: perTenant() });

describe('desiredState under a PerTenant class', () => {
  const tenant = () => {
    const t = validTenant();
    t.metadata.uid = 'uid-acme';
    return t;
  };

  it('asks for the namespace and its objects before the children', () => {
    const wanted = desiredState(tenant(), PER_TENANT);
    expect(wanted.ok && wanted.namespace).toBe('acme');
    const kinds = wanted.ok ? wanted.children.map((c) => c.ref.kind) : [];
    expect(kinds).toEqual([
      'Namespace',
      'ServiceAccount',
      'NetworkPolicy',
      'Deployment',
      'ConfigMap',
      'ConfigMap',
    ]);
  });

  it('adds nothing in Shared mode', () => {
    const wanted = desiredState(tenant(), testConfig());
    expect(wanted.ok && wanted.namespace).toBeUndefined();
    expect(wanted.ok ? wanted.children.map((c) => c.ref.kind) : []).toEqual([
      'Deployment',
      'ConfigMap',
      'ConfigMap',
    ]);
  });

  it("refuses a PerTenant namespace that is not the tenant's to have", () => {
    const wanted = desiredState(tenant(), testConfig({ tenantClass: perTenant('kube-{name}') }));
    expect(wanted.ok ? 'accepted' : wanted.refusal.reason).toBe('NamespaceReserved');
  });

  it('keeps the namespace and its objects when archived, and only the children go', () => {
    const t = tenant();
    t.spec!.state = 'archived';
    const wanted = desiredState(t, PER_TENANT);
    expect(wanted.ok ? wanted.children.map((c) => c.ref.kind) : []).toEqual([
      'Namespace',
      'ServiceAccount',
      'NetworkPolicy',
    ]);
  });

  it('refuses an archived tenant whose namespace is not allowed, so nothing is pruned', () => {
    const t = tenant();
    t.metadata.name = 'default';
    t.spec!.state = 'archived';
    const wanted = desiredState(t, PER_TENANT);
    expect(wanted.ok ? 'accepted' : wanted.refusal.reason).toBe('NamespaceNotAllowed');
  });
});

describe('the fences facet: egress', () => {
  const tenant: Tenant = {
    apiVersion: API_VERSION,
    kind: KIND,
    metadata: { name: 'acme', uid: 'uid-acme', generation: 1 },
  };
  const STANDARD: TenantClassSpec = { podSecurity: 'restricted' };

  it('refuses a class whose egress entry is the metadata endpoint, naming the class and the entry', () => {
    const spec = { ...STANDARD, allowEgressTo: [{ ipBlock: { cidr: '169.254.169.254/32' } }] };
    const wanted = desiredState(tenant, testConfig({ tenantClass: resolvedClass('open', 2, spec) }));
    expect(wanted.ok).toBe(false);
    if (wanted.ok) return;
    expect(wanted.refusal.reason).toBe('EgressNotAllowed');
    expect(wanted.refusal.message).toContain('TenantClass open: allowEgressTo[0].ipBlock.cidr');
  });
});
