// The workload facet: the row's Deployment and ConfigMaps in each state, the policy's verdict only
// where they are kept, and the Service's label on the pods only when the exposure facet exposes.
import { describe, expect, it } from 'vitest';
import type { V1Deployment } from '@kubernetes/client-node';
import { containerContextOf, containerOf, testConfig, validTenant } from '../../testing/policy.js';
import type { Decisions, FacetInput } from '../facets/contract.js';
import { exposureFacet } from '../exposure/facet.js';
import { LABEL, type TenantState } from '../../api/tenant.js';
import { workloadFacet } from './facet.js';
import { NO_CLUSTER } from '../facets/view.js';

function input(state: TenantState, privileged = false): FacetInput {
  const tenant = validTenant();
  if (privileged) containerContextOf(containerOf(tenant)).privileged = true;
  return { tenant, policy: testConfig(), state, namespace: undefined, cluster: NO_CLUSTER };
}

const notExposed: Decisions = { of: () => undefined };
const exposed: Decisions = {
  of: <D>(facet: unknown) =>
    (facet === exposureFacet
      ? { expose: { port: 8080, host: '{name}.a.example' }, host: 'acme.a.example', hosts: [], url: '' }
      : undefined) as D | undefined,
};

function made(facetInput: FacetInput, decisions = notExposed) {
  const result = workloadFacet.children(facetInput, {}, decisions);
  if (!result.ok) throw new Error(result.refusal.message);
  return result.children;
}

const deployment = (children: ReturnType<typeof made>): V1Deployment => children[0]!.manifest;

describe('the workload facet', () => {
  it('active: the Deployment, then each ConfigMap, as the row gives them', () => {
    expect(made(input('active')).map((c) => c.ref.kind)).toEqual(['Deployment', 'ConfigMap', 'ConfigMap']);
  });

  it('suspended: the same children with the Deployment at 0 replicas', () => {
    expect(deployment(made(input('suspended'))).spec?.replicas).toBe(0);
    expect(deployment(made(input('active'))).spec?.replicas).not.toBe(0);
  });

  it.each(['archived', 'purged'] as const)('%s: none, even for a spec the policy refuses', (state) => {
    expect(made(input(state, true))).toEqual([]);
  });

  it('refuses a spec the policy refuses while its pods would run', () => {
    expect(workloadFacet.children(input('active', true), {}, notExposed)).toMatchObject({
      ok: false,
      refusal: { reason: 'PodSecurityViolation' },
    });
  });

  it('labels the pods for the Service only when the tenant is exposed', () => {
    const labels = (d: Decisions) =>
      deployment(made(input('active'), d)).spec?.template.metadata?.labels ?? {};
    expect(Object.keys(labels(notExposed))).not.toContain(LABEL.exposed);
    expect(Object.keys(labels(exposed))).toContain(LABEL.exposed);
  });
});
