// The workload facet: the row's Deployment (or Deployments) and ConfigMaps, as the policy accepts and shapes them
// (placed in the tenant's namespace, the class's pod template fields set), scaled to 0 while
// suspended, none while archived or purged. The pods of the one the tenant's Service reaches carry
// the label it selects when the exposure facet exposes it. Available and Degraded are read from the Deployment
// by the status summary (status.ts), which every tenant reports.
import type { V1Deployment } from '@kubernetes/client-node';
import type { Tenant } from '../../api/tenant.js';
import type { ClassExpose } from '../../api/tenantclass.js';
import { readOfDeploymentStatus } from '../deployment-status.js';
import { withOwnership, type DesiredChild } from '../desired.js';
import type { Facet } from '../facets/contract.js';
import { exposureFacet } from '../exposure/facet.js';
import { withExposedPods } from '../exposure/objects.js';
import { keepsChildren } from '../lifecycle.js';
import { poolDeployment } from './pool-deployment.js';
import { NO_NEIGHBOURS, REFUSAL_REASON, type Refusal } from '../policy/index.js';
import { workloadServices } from './services.js';
import { evaluateWorkloads, type Workloads } from './workloads.js';

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
    const verdict = evaluateWorkloads(tenant, policy, cluster.neighbours ?? NO_NEIGHBOURS, placement);
    if (!verdict.ok) return verdict;
    const scaled = state === 'suspended' ? scaledToZero(verdict.workloads) : verdict.workloads;
    const exposed = exposedPods(scaled, decisions.of(exposureFacet)?.expose);
    if (!exposed.ok) return exposed;
    return { ok: true, children: ownedChildren(tenant, exposed.workloads, namespace) };
  },
};

/**
 * Each Deployment, then each ConfigMap, with the Tenant as their controller; for a tenant of
 * several in its own namespace, then each Deployment's Service (services.ts).
 */
function ownedChildren(tenant: Tenant, workloads: Workloads, namespace: string | undefined): DesiredChild[] {
  const { deployments, configMaps } = workloads;
  const several = tenant.spec?.deployments !== undefined && namespace !== undefined;
  const services = several ? workloadServices(deployments, namespace) : [];
  return [
    ...deployments.map((d) => withOwnership(d, tenant, 'Deployment')),
    ...configMaps.map((cm) => withOwnership(cm, tenant, 'ConfigMap')),
    ...services.map((service) => withOwnership(service, tenant, 'Service')),
  ];
}

/**
 * The pods of the one Deployment the tenant's Service reaches carry the label it selects on
 * (exposure/objects.ts): the one the class's expose.deployment names, else the first. Not exposed:
 * the Deployments as they are.
 */
function exposedPods(
  workloads: Workloads,
  expose: ClassExpose | undefined,
): { ok: true; workloads: Workloads } | { ok: false; refusal: Refusal } {
  if (expose === undefined) return { ok: true, workloads };
  const { deployments } = workloads;
  const named = expose.deployment;
  const at = named === undefined ? 0 : deployments.findIndex((d) => d.metadata?.name === named);
  if (at === -1) {
    const names = deployments.map((d) => d.metadata?.name ?? '').join(', ');
    const message = `the class's expose.deployment names "${named}", which is none of the tenant's Deployments (${names}); name one of them in the class, or add it to the row`;
    return { ok: false, refusal: { reason: REFUSAL_REASON.exposeNotAllowed, message } };
  }
  const labelled = deployments.map((d, i) => (i === at ? withExposedPods(d) : d));
  return { ok: true, workloads: { ...workloads, deployments: labelled } };
}

/**
 * The row's children with every Deployment at 0 replicas and every other field as the row says:
 * the spec, ConfigMaps and rollout history stay, and applying the row's manifest again restores
 * its replicas (server-side apply drops the 0 when landlord no longer sends it).
 */
function scaledToZero(workloads: Workloads): Workloads {
  const deployments = workloads.deployments.map((deployment): V1Deployment => ({
    ...deployment,
    spec: { ...deployment.spec!, replicas: 0 },
  }));
  return { ...workloads, deployments };
}
