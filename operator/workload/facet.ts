// The workload facet: the row's Deployment (or Deployments) and ConfigMaps, as the policy accepts
// and shapes them (placed in the tenant's namespace, the class's pod template fields set), scaled
// to 0 while suspended, none while archived or purged. The pods of the one the tenant's Service
// reaches carry the label it selects when the exposure facet exposes it. Available and Degraded
// are read from the Deployment by the status summary (status.ts), which every tenant reports. Each
// Deployment carries the operator's own pod template additions of its template revision
// (template-revision.ts); one that would change only for a newer revision waits for a slot of the
// upgrade budget (rollout-budget.ts) and keeps its running pods meanwhile: TemplateUpgradePending
// says so.
import type { V1Deployment } from '@kubernetes/client-node';
import type { ConditionInput } from '../../api/conditions.js';
import { CONDITION, type Tenant } from '../../api/tenant.js';
import type { ClassExpose, ClassServices } from '../../api/tenantclass.js';
import { describeRef } from '../child-ref.js';
import { readOfDeploymentStatus } from '../deployment-status.js';
import { withOwnership, type DesiredChild } from '../desired.js';
import type { ClusterView, Facet } from '../facets/contract.js';
import { exposureFacet } from '../exposure/facet.js';
import { withExposedPods } from '../exposure/objects.js';
import { keepsChildren } from '../lifecycle.js';
import { poolDeployment } from './pool-deployment.js';
import { NO_NEIGHBOURS, REFUSAL_REASON, type PolicyConfig, type Refusal } from '../policy/index.js';
import { WORKLOAD_MESSAGE, WORKLOAD_REASON } from './reasons.js';
import {
  atRevision,
  revisionOf,
  TEMPLATE_REVISION,
  upgradeCause,
  type TemplateOwner,
} from './template-revision.js';
import { workloadServices } from './services.js';
import { evaluateWorkloads, type Workloads } from './workloads.js';

/**
 * What one reconcile learnt of the Deployment's template revision, filled in by `children` (a
 * fresh one each reconcile) and read by `condition`.
 */
interface WorkloadDecision {
  /** Set while the newer revision waits for a slot: the condition's message. */
  waiting?: string;
}

export const workloadFacet: Facet<WorkloadDecision> = {
  name: 'workload',
  conditionType: CONDITION.templateUpgradePending,
  kinds: [
    { kind: 'Deployment', wave: 2, scope: 'tenantNamespaces', readsStatus: readOfDeploymentStatus },
    { kind: 'ConfigMap', wave: 2, scope: 'tenantNamespaces' },
  ],
  decide: () => ({ ok: true, decision: {} }),
  member: poolDeployment,
  /**
   * A state that keeps no workload needs no policy verdict: deleting what this Tenant controls is
   * always allowed, so a spec the policy refuses today cannot hold an archive back.
   */
  children({ tenant, policy, state, namespace, cluster }, decision, decisions) {
    if (!keepsChildren(state)) return { ok: true, children: [] };
    const placement = { ok: true as const, namespace };
    const verdict = evaluateWorkloads(tenant, policy, cluster.neighbours ?? NO_NEIGHBOURS, placement);
    if (!verdict.ok) return verdict;
    const scaled = state === 'suspended' ? scaledToZero(verdict.workloads) : verdict.workloads;
    const exposed = exposedPods(scaled, decisions.of(exposureFacet)?.expose);
    if (!exposed.ok) return exposed;
    const revise = (child: DesiredChild): DesiredChild =>
      child.ref.kind === 'Deployment'
        ? revisedDeployment(child, { tenant, policy, cluster }, decision)
        : child;
    const children = ownedChildren(tenant, exposed.workloads, {
      namespace,
      services: policy.tenantClass.services,
    });
    return { ok: true, children: children.map(revise) };
  },
  condition(decision): ConditionInput | undefined {
    if (decision.waiting === undefined) return undefined;
    const reason = WORKLOAD_REASON.waitingForRolloutSlot;
    return { type: CONDITION.templateUpgradePending, status: 'True', reason, message: decision.waiting };
  },
};

/**
 * The Deployment at the newest template revision, unless only that revision would change it and
 * the upgrade budget has no slot for it: then at the revision it runs, so nothing is written.
 */
function revisedDeployment(
  child: DesiredChild,
  { tenant, policy, cluster }: { tenant: Tenant; policy: PolicyConfig; cluster: ClusterView },
  decision: WorkloadDecision,
): DesiredChild {
  const upgrades = cluster.templateUpgrades;
  const owner: TemplateOwner = { tenant: tenant.metadata.name!, tenantClass: policy.tenantClass };
  const target = upgrades?.revision ?? TEMPLATE_REVISION;
  if (upgrades === undefined) return atRevision(child, target, owner);
  const live = upgrades.live(child.ref);
  const cause = upgradeCause(live, child, target, owner);
  if (upgrades.admit(owner.tenant, child.ref, cause)) return atRevision(child, target, owner);
  decision.waiting = WORKLOAD_MESSAGE.waiting(describeRef(child.ref), target);
  return atRevision(child, revisionOf(live), owner);
}

/**
 * Each Deployment, then each ConfigMap, with the Tenant as their controller; for a tenant of
 * several in its own namespace, then each Deployment's Service (services.ts).
 */
function ownedChildren(
  tenant: Tenant,
  workloads: Workloads,
  place: { namespace: string | undefined; services: ClassServices },
): DesiredChild[] {
  const { deployments, configMaps } = workloads;
  const { namespace } = place;
  const several = tenant.spec?.deployments !== undefined && namespace !== undefined;
  const services = several ? workloadServices(deployments, namespace, place.services) : [];
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
