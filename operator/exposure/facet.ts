// The exposure facet: a ClusterIP Service and one route (an Ingress, or an HTTPRoute where the
// cluster serves the Gateway API) for the hosts its class and row give a tenant, and status.url.
// A state that keeps no workload keeps no route, and then the tenant holds no host. HostsReady
// says which of its hosts it routes (condition.ts).
import { CONDITION } from '../../api/tenant.js';
import type { Facet } from '../facets/contract.js';
import { keepsChildren } from '../lifecycle.js';
import type { HostHolders } from './claims.js';
import { hostsCondition } from './condition.js';
import { exposureObjects, exposureOf, type Exposed } from './exposure.js';
import { HostIndex, ROUTE_WATCHES } from './host-index.js';

/** The hosts the tenant holds and where it is reached; undefined: not exposed in its state. */
export type ExposureDecision = Exposed | undefined;

export const exposureFacet: Facet<ExposureDecision, HostHolders> = {
  name: 'exposure',
  kinds: [
    { kind: 'Service', wave: 1, scope: 'cluster' },
    { kind: 'Ingress', wave: 1, scope: 'cluster' },
    { kind: 'HTTPRoute', wave: 1, scope: 'cluster', needs: 'gatewayApi' },
  ],
  // Every route, for the hosts the ones landlord did not make hold, and the Tenants' host claims.
  watches: { kinds: ROUTE_WATCHES, index: (context) => new HostIndex(context) },
  conditionType: CONDITION.hostsReady,
  decide({ tenant, policy, state, namespace, cluster }) {
    const context = { gatewayApi: policy.gatewayApi, holders: cluster.of(exposureFacet), namespace };
    const exposure = exposureOf(tenant, policy.tenantClass, context);
    if (!exposure.ok) return exposure;
    return { ok: true, decision: keepsChildren(state) ? exposure.exposed : undefined };
  },
  children({ tenant, policy, namespace }, exposed) {
    if (exposed === undefined || namespace === undefined) return { ok: true, children: [] };
    return {
      ok: true,
      children: exposureObjects(tenant, exposed, { namespace, services: policy.tenantClass.services }),
    };
  },
  status: (exposed) => (exposed === undefined ? {} : { url: exposed.url }),
  condition: (exposed) => (exposed === undefined ? undefined : hostsCondition(exposed)),
};
