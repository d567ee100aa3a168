// A child named as an object a controller writes in every namespace is refused with ForbiddenName,
// in either tenancy mode, whichever child carries the name.
import { describe, expect, it } from 'vitest';
import type { Tenant } from '../../api/tenant.js';
import { configMapOf, deploymentOf, perTenant, testConfig, validTenant } from '../../testing/policy.js';
import { evaluateTenant } from './index.js';

interface Case {
  name: string;
  tweak: (tenant: Tenant) => void;
  says: string[];
}

const CASES: Case[] = [
  {
    name: "the API server's root CA ConfigMap",
    tweak: (t) => (configMapOf(t, 0).metadata!.name = 'kube-root-ca.crt'),
    says: ['/kube-root-ca.crt: ', 'spec.configMaps[0].metadata.name', 'root CA publisher'],
  },
  {
    name: "OpenShift's service CA ConfigMap, as the second ConfigMap",
    tweak: (t) => (configMapOf(t, 1).metadata!.name = 'openshift-service-ca.crt'),
    says: ['spec.configMaps[1].metadata.name', 'OpenShift'],
  },
  {
    name: "Istio's root certificate ConfigMap",
    tweak: (t) => (configMapOf(t, 0).metadata!.name = 'istio-ca-root-cert'),
    says: ['istiod', 'give it another name'],
  },
];

describe.each([
  ['Shared', testConfig()],
  ['PerTenant', testConfig({ tenantClass: perTenant() })],
])('ForbiddenName (%s)', (_mode, config) => {
  it.each(CASES)('$name', ({ tweak, says }) => {
    const tenant = validTenant();
    tweak(tenant);
    const result = evaluateTenant(tenant, config);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.refusal.reason).toBe('ForbiddenName');
    for (const text of says) expect(result.refusal.message).toContain(text);
  });

  it('accepts a Deployment that shares a name with a controller-owned ConfigMap', () => {
    const tenant = validTenant();
    const deployment = deploymentOf(tenant);
    deployment.metadata!.name = 'kube-root-ca.crt';
    expect(evaluateTenant(tenant, config).ok).toBe(true);
  });
});
