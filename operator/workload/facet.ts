// The workload facet: the row's Deployment and ConfigMaps, as the policy accepts and shapes them
// (placed in the tenant's namespace, the class's pod template fields set), scaled to 0 while
// suspended, none while archived or purged. Their pods carry the label the tenant's Service
// selects when the exposure facet exposes it. Available and Degraded are read from the Deployment
// by the status summary (status.ts), which every tenant reports.
import type { V1Deployment } from '@kubernetes/client-node';
import { readOfDeploymentStatus } from '../deployment-status.js';
import { desiredChildren } from '../desired.js';
import type { Facet } from '../facets/contract.js';
import { exposureFacet } from '../exposure/facet.js';
import { withExposedPods } from '../exposure/objects.js';
import { keepsChildren } from '../lifecycle.js';
import { poolDeployment } from './pool-deployment.js';
import { evaluateTenant, NO_NEIGHBOURS, type DesiredChildren } from '../policy/index.js';

export const workloadFacet: Facet<undefined> = {
  name: 'workload',
  kinds: [
    { kind: 'Deployment', wave: 2, scope: 'tenantNamespaces', readsStatus: readOfDeploymentStatus },
    { kind: 'ConfigMap', wave: 2, scope: 'tenantNamespaces' },
  ],
  decide: () => ({ ok: true, decision: undefined }),
  member: poolDeployment,
  /**
   * A state that keeps no workload needs no policy verdict: deleting what this Tenant controls is
   * always allowed, so a spec the policy refuses today cannot hold an archive back.
   */
  children({ tenant, policy, state, namespace, cluster }, _decision, decisions) {
    if (!keepsChildren(state)) return { ok: true, children: [] };
    const placement = { ok: true as const, namespace };
    const verdict = evaluateTenant(tenant, policy, cluster.neighbours ?? NO_NEIGHBOURS, placement);
    if (!verdict.ok) return verdict;
    const scaled = state === 'suspended' ? scaledToZero(verdict.children) : verdict.children;
    const exposed = decisions.of(exposureFacet) !== undefined;
    return { ok: true, children: desiredChildren(tenant, exposed ? exposedPods(scaled) : scaled) };
  },
};

/** The pods carry the label the tenant's Service selects on (exposure/objects.ts). */
function exposedPods(children: DesiredChildren): DesiredChildren {
  return { ...children, deployment: withExposedPods(children.deployment) };
}

/**
 * The row's children with the Deployment at 0 replicas and every other field as the row says: the
 * spec, ConfigMaps and rollout history stay, and applying the row's manifest again restores its
 * replicas (server-side apply drops the 0 when landlord no longer sends it).
 */
function scaledToZero(children: DesiredChildren): DesiredChildren {
  const { deployment } = children;
  const scaled: V1Deployment = { ...deployment, spec: { ...deployment.spec!, replicas: 0 } };
  return { ...children, deployment: scaled };
}
