// The fences facet: a PerTenant tenant's Namespace (announcing the hosts it holds and what its class
// grants a pod, for the admission policies) and what fences it in: ServiceAccount, ResourceQuota, LimitRange,
// NetworkPolicy, RoleBindings. Kept in every state; a Shared class has none.
import type { Facet } from '../facets/contract.js';
import { exposureFacet } from '../exposure/facet.js';
import { refusal, type Refusal } from '../policy/index.js';
import type { ClassPolicy } from '../../api/tenantclass.js';
import { egressProblem } from '../tenancy/egress.js';
import { classObjects, tenancyObjects } from '../tenancy/namespace-objects.js';
import { childRef } from '../child-ref.js';
import { readOfQuotaStatus } from '../tenancy/quota-status.js';

export const fencesFacet: Facet<undefined> = {
  name: 'fences',
  kinds: [
    { kind: 'Namespace', wave: 0, scope: 'cluster' },
    { kind: 'ServiceAccount', wave: 1, scope: 'cluster' },
    // Read whether its quota is enforced yet (the workload waits until it is); never its usage.
    { kind: 'ResourceQuota', wave: 1, scope: 'cluster', readsStatus: readOfQuotaStatus },
    { kind: 'LimitRange', wave: 1, scope: 'cluster' },
    { kind: 'NetworkPolicy', wave: 1, scope: 'cluster' },
    { kind: 'RoleBinding', wave: 1, scope: 'cluster' },
  ],
  decide({ policy, namespace }) {
    const problem = namespace === undefined ? undefined : egressRefusal(policy.tenantClass);
    return problem === undefined ? { ok: true, decision: undefined } : { ok: false, refusal: problem };
  },
  // The class's objects that name no tenant; the Namespace is the pool's own, the RoleBindings come with the claim.
  member: ({ policy }) => ({
    ok: true,
    objects: classObjects(policy.tenantClass, '').map(([kind, manifest]) => ({
      ref: childRef(kind, '', manifest.metadata!.name!),
      manifest,
    })),
  }),
  children({ tenant, policy, namespace }, _decision, decisions) {
    if (namespace === undefined) return { ok: true, children: [] };
    const hosts = decisions.of(exposureFacet)?.hosts ?? [];
    return { ok: true, children: tenancyObjects(tenant, policy.tenantClass, namespace, hosts) };
  },
};

/** An Isolated namespace whose class lists an egress entry that cannot be fenced: nothing is applied. */
function egressRefusal(tenantClass: ClassPolicy): Refusal | undefined {
  if (tenantClass.networkIsolation !== 'Isolated') return undefined;
  const problem = egressProblem(tenantClass);
  return problem === undefined
    ? undefined
    : refusal.egressNotAllowed(tenantClass.name, problem.path, problem.text);
}
