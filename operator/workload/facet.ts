// The workload facet: the row's Deployment and ConfigMaps, as the policy accepts and shapes them
// (placed in the tenant's namespace, the class's pod template fields set), scaled to 0 while
// suspended, none while archived or purged. Their pods carry the label the tenant's Service
// selects when the exposure facet exposes it. Available and Degraded are read from the Deployment
// by the status summary (status.ts), which every tenant reports. The Deployment carries the
// operator's own pod template additions of its template revision (template-revision.ts); one that
// would change only for a newer revision waits for a slot of the upgrade budget
// (rollout-budget.ts) and keeps its running pods meanwhile: TemplateUpgradePending says so.
import type { V1Deployment } from '@kubernetes/client-node';
import type { ConditionInput } from '../../api/conditions.js';
import { CONDITION, type Tenant } from '../../api/tenant.js';
import { describeRef } from '../child-ref.js';
import { readOfDeploymentStatus } from '../deployment-status.js';
import { desiredChildren, type DesiredChild } from '../desired.js';
import type { ClusterView, Facet } from '../facets/contract.js';
import { exposureFacet } from '../exposure/facet.js';
import { withExposedPods } from '../exposure/objects.js';
import { keepsChildren } from '../lifecycle.js';
import { poolDeployment } from './pool-deployment.js';
import { evaluateTenant, NO_NEIGHBOURS, type DesiredChildren, type PolicyConfig } from '../policy/index.js';
import { WORKLOAD_MESSAGE, WORKLOAD_REASON } from '../reasons.js';
import {
  atRevision,
  revisionOf,
  TEMPLATE_REVISION,
  upgradeCause,
  type TemplateOwner,
} from './template-revision.js';

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
    const verdict = evaluateTenant(tenant, policy, cluster.neighbours ?? NO_NEIGHBOURS, placement);
    if (!verdict.ok) return verdict;
    const scaled = state === 'suspended' ? scaledToZero(verdict.children) : verdict.children;
    const exposed = decisions.of(exposureFacet) !== undefined;
    const [deployment, ...configMaps] = desiredChildren(tenant, exposed ? exposedPods(scaled) : scaled);
    const revised = revisedDeployment(deployment!, { tenant, policy, cluster }, decision);
    return { ok: true, children: [revised, ...configMaps] };
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
