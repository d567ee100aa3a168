// The exposure facet: its decision in each state (no route where no workload is kept), its
// children only in a tenant namespace, and status.url from the decision.
import { describe, expect, it } from 'vitest';
import type { TenantState } from '../../api/tenant.js';
import type { ClassExpose } from '../../api/tenantclass.js';
import { perTenant, testConfig, validTenant } from '../../testing/policy.js';
import type { FacetInput } from '../facets/contract.js';
import { exposureFacet } from './facet.js';
import { NO_CLUSTER } from '../facets/view.js';

const INGRESS: ClassExpose = { port: 8080, host: '{name}.apps.example.com', ingressClassName: 'nginx' };

function input(state: TenantState, namespace: string | undefined = 'acme'): FacetInput {
  const tenantClass = { ...perTenant(), name: 'web', allowedDomains: ['apps.example.com'], expose: INGRESS };
  return {
    tenant: validTenant(),
    policy: testConfig({ tenantClass }),
    state,
    namespace,
    cluster: NO_CLUSTER,
  };
}

function decision(state: TenantState) {
  const decided = exposureFacet.decide(input(state));
  if (!decided.ok) throw new Error(decided.refusal.message);
  return decided.decision;
}

const noDecisions = { of: () => undefined };

describe('the exposure facet', () => {
  it.each(['active', 'suspended'] as const)(
    '%s: holds its host, a Service and an Ingress, and a url',
    (state) => {
      const exposed = decision(state);
      expect(exposed?.hosts).toEqual(['acme.apps.example.com']);
      const made = exposureFacet.children(input(state), exposed, noDecisions);
      expect(made.ok && made.children.map((c) => c.ref.kind)).toEqual(['Service', 'Ingress']);
      expect(exposureFacet.status!(exposed)).toEqual({ url: 'http://acme.apps.example.com' });
    },
  );

  it.each(['archived', 'purged'] as const)('%s: no route, no host held, no url', (state) => {
    expect(decision(state)).toBeUndefined();
    expect(exposureFacet.children(input(state), undefined, noDecisions)).toEqual({ ok: true, children: [] });
    expect(exposureFacet.status!(undefined)).toEqual({});
  });
});
