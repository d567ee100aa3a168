// The operator's part of a Tenant's status, computed from what the reconcile did and what the
// Deployment reports. Pure: the writer compares it with what the Tenant already says.
import type { V1Deployment, V1DeploymentCondition } from '@kubernetes/client-node';
import { findCondition, toCondition, type ConditionInput } from '../api/conditions.js';
import {
  CONDITION,
  DEFAULT_STATE,
  type ClassSource,
  type Condition,
  type Tenant,
  type TenantState,
  type TenantStatus,
} from '../api/tenant.js';
import type { QuotaWait } from './apply.js';
import { describeRef, type ChildRef } from './child-ref.js';
import { rolloutGap } from './rollout.js';
import { keepsChildren } from './lifecycle.js';
import { FACET_CONDITIONS, type FacetReports } from './facets/engine.js';
import type { ReconcileError } from './reconcile-error.js';
import { REFUSAL_REASON } from './policy/index.js';
import {
  availableOfAll,
  degradedOfAll,
  readyOfAll,
  rolloutGapOfAll,
  workloadsStatus,
  type Workload,
} from './workload/summary.js';
import { LIFECYCLE_MESSAGE, OPERATOR_REASON, QUOTA_MESSAGE } from './reasons.js';

/** The summary's conditions, then each facet's own (facets/list.ts). */
export const OPERATOR_CONDITIONS = [
  CONDITION.ready,
  CONDITION.applied,
  CONDITION.available,
  CONDITION.degraded,
  ...FACET_CONDITIONS,
];

/** The fields of status the operator owns (sync owns the Synced condition and status.sync). */
export type OperatorStatus = Omit<TenantStatus, 'sync'>;

export interface StatusInput {
  tenant: Tenant;
  error: ReconcileError | undefined;
  deployment: V1Deployment | undefined;
  /** "namespace/name" of the Deployment the spec names, or that the Tenant still owns. */
  deploymentName: string | undefined;
  configMaps: string[];
  now: Date;
  /** The state the spec asks for. */
  state: TenantState;
  /** A person paused the Tenant: nothing was applied or pruned. */
  paused: boolean;
  /** PerTenant: the tenant's own namespace, where every child was placed. */
  namespace?: string;
  /** The TenantClass the Tenant is under (status.class); undefined when none could be chosen yet. */
  className?: string;
  /** How it was chosen (status.classSource). */
  classSource?: ClassSource;
  /**
   * What the facets report (their own conditions, such as SecretsReady, and status fields, such as
   * url); absent: none. They do not make the summary's Ready: a facet that must hold a tenant back
   * refuses it instead.
   */
  facets?: FacetReports;
  /** The Deployment and ConfigMaps were not applied: the tenant's quota is not enforced yet. */
  quotaWait?: QuotaWait;
  /**
   * A tenant of several Deployments (spec.deployments): each one, summarised together
   * (workload/summary.ts); absent for a tenant of one, which `deployment` describes.
   */
  workloads?: readonly Workload[];
}

/** How status names the children it reports: "namespace/name", ConfigMaps sorted. */
export function childNames(refs: readonly ChildRef[]): Pick<StatusInput, 'deploymentName' | 'configMaps'> {
  const deployment = refs.find((r) => r.kind === 'Deployment');
  return {
    deploymentName: deployment === undefined ? undefined : `${deployment.namespace}/${deployment.name}`,
    configMaps: refs
      .filter((r) => r.kind === 'ConfigMap')
      .map((r) => `${r.namespace}/${r.name}`)
      .sort(),
  };
}

const deploymentCondition = (d: V1Deployment | undefined, type: string): V1DeploymentCondition | undefined =>
  d?.status?.conditions?.find((c) => c.type === type);

/**
 * Why nothing could be applied, as people should read it. A Tenant without a spec exists only to
 * carry sync's refusal of its row, so when sync says Synced=False that refusal is the root cause:
 * Applied, and through it Ready (the READY and OPERATOR_REASON columns), name sync's reason rather than the
 * missing spec it led to.
 */
function rootCause(tenant: Tenant, error: ReconcileError): { reason: string; message: string } {
  if (error.reason !== REFUSAL_REASON.specMissing) return { reason: error.reason, message: error.message };
  const synced = findCondition(tenant.status?.conditions, CONDITION.synced);
  if (synced?.status !== 'False') return { reason: error.reason, message: error.message };
  return {
    reason: synced.reason,
    message: `sync refused the tenant's row, so there is no spec to apply: ${synced.message}`,
  };
}

function applied(input: StatusInput): ConditionInput {
  // Unknown, not True or False: a paused operator does not look at whether the children match.
  if (input.paused) {
    return {
      type: CONDITION.applied,
      status: 'Unknown',
      reason: OPERATOR_REASON.paused,
      message: LIFECYCLE_MESSAGE.pausedApplied,
    };
  }
  if (input.error !== undefined) {
    return { type: CONDITION.applied, status: 'False', ...rootCause(input.tenant, input.error) };
  }
  if (input.quotaWait !== undefined) {
    const { ref, resources } = input.quotaWait;
    const message = QUOTA_MESSAGE.waiting(describeRef(ref), resources);
    return { type: CONDITION.applied, status: 'False', reason: OPERATOR_REASON.waitingForQuota, message };
  }
  const generation = input.tenant.metadata.generation;
  if (!keepsChildren(input.state)) {
    const message = LIFECYCLE_MESSAGE.noChildren(input.state, generation);
    return { type: CONDITION.applied, status: 'True', reason: OPERATOR_REASON.applied, message };
  }
  const count = input.configMaps.length;
  const where =
    input.namespace === undefined
      ? ''
      : `, placed in the tenant's own namespace ${input.namespace} whatever their manifests say`;
  const deployments =
    input.workloads === undefined
      ? `Deployment ${input.deploymentName}`
      : `Deployments ${input.workloads.map((w) => w.name).join(', ')}`;
  const message = `${deployments} and ${count} ConfigMap${count === 1 ? '' : 's'} match generation ${generation}${where}`;
  return { type: CONDITION.applied, status: 'True', reason: OPERATOR_REASON.applied, message };
}

/** A tenant of several Deployments, once any is there to report on; else undefined. */
function availableOfSeveral({ workloads, state }: StatusInput): ConditionInput | undefined {
  if (workloads === undefined || workloads.length === 0 || !keepsChildren(state)) return undefined;
  return availableOfAll(workloads);
}

function available(input: StatusInput): ConditionInput {
  const type = CONDITION.available;
  const { deployment } = input;
  if (deployment === undefined && !input.paused && !keepsChildren(input.state)) {
    const message = LIFECYCLE_MESSAGE.noDeployment(input.state);
    return { type, status: 'False', reason: OPERATOR_REASON.archived, message };
  }
  const ofAll = availableOfSeveral(input);
  if (ofAll !== undefined) return ofAll;
  if (deployment === undefined) {
    const what =
      input.deploymentName === undefined
        ? 'no Deployment has been applied'
        : `Deployment ${input.deploymentName} does not exist`;
    return { type, status: 'Unknown', reason: OPERATOR_REASON.deploymentNotFound, message: what };
  }
  const condition = deploymentCondition(deployment, 'Available');
  const message =
    condition === undefined
      ? 'the Deployment has not reported availability yet'
      : (condition.message ?? `the Deployment reports Available=${condition.status}`);
  return condition?.status === 'True'
    ? { type, status: 'True', reason: OPERATOR_REASON.deploymentAvailable, message }
    : { type, status: 'False', reason: OPERATOR_REASON.deploymentUnavailable, message };
}

function degraded(input: StatusInput): ConditionInput {
  const type = CONDITION.degraded;
  const ofAll = input.workloads === undefined ? undefined : degradedOfAll(input.workloads);
  if (ofAll !== undefined) return ofAll;
  const progressing = deploymentCondition(input.deployment, 'Progressing');
  if (progressing?.status === 'False' && progressing.reason === OPERATOR_REASON.progressDeadlineExceeded) {
    return {
      type,
      status: 'True',
      reason: OPERATOR_REASON.progressDeadlineExceeded,
      message: progressing.message ?? '',
    };
  }
  const failure = deploymentCondition(input.deployment, 'ReplicaFailure');
  if (failure?.status === 'True') {
    return { type, status: 'True', reason: OPERATOR_REASON.replicaFailure, message: failure.message ?? '' };
  }
  return {
    type,
    status: 'False',
    reason: OPERATOR_REASON.rolloutHealthy,
    message: 'no rollout problem reported',
  };
}

/** Ready=False while the row's state is not active: a suspended or archived tenant serves nothing. */
function stateReady(input: StatusInput): ConditionInput | undefined {
  const type = CONDITION.ready;
  switch (input.state) {
    case 'active':
      return undefined;
    case 'suspended':
      return {
        type,
        status: 'False',
        reason: OPERATOR_REASON.suspended,
        message: LIFECYCLE_MESSAGE.suspended(input.deploymentName),
      };
    case 'archived':
      return { type, status: 'False', reason: OPERATOR_REASON.archived, message: LIFECYCLE_MESSAGE.archived };
    case 'purged':
      return { type, status: 'False', reason: OPERATOR_REASON.archived, message: LIFECYCLE_MESSAGE.purged };
  }
}

/**
 * Paused is Ready=False, not Unknown: API conventions keep Unknown for a controller that cannot
 * tell (it lost contact, it has not looked yet), while here the operator knows why the tenant is
 * not kept ready: a person took it out of its hands. Alerts and `kubectl wait` on Ready must not
 * count a tenant nobody keeps as ready.
 */
const PAUSED: ConditionInput = {
  type: CONDITION.ready,
  status: 'False',
  reason: OPERATOR_REASON.paused,
  message: LIFECYCLE_MESSAGE.paused,
};

function ready(input: StatusInput, parts: ConditionInput[]): ConditionInput {
  const type = CONDITION.ready;
  if (input.paused) return PAUSED;
  const failing = parts.find((c) =>
    c.type === CONDITION.degraded ? c.status === 'True' : c.status !== 'True',
  );
  // A failed apply explains more than the state it was meant to reach.
  if (failing?.type === CONDITION.applied) {
    return { type, status: 'False', reason: failing.reason, message: failing.message };
  }
  const state = stateReady(input);
  if (state !== undefined) return state;
  if (failing?.type === CONDITION.degraded) {
    return { type, status: 'False', reason: failing.reason, message: failing.message };
  }
  const gap = rolloutGapOf(input);
  if (gap !== undefined)
    return { type, status: 'False', reason: OPERATOR_REASON.rolloutInProgress, message: gap };
  if (failing !== undefined)
    return { type, status: 'False', reason: failing.reason, message: failing.message };
  const message =
    input.workloads === undefined
      ? `Deployment ${input.deploymentName} has ${replicaSummary(input.deployment)} replicas ready`
      : readyOfAll(input.workloads);
  return { type, status: 'True', reason: OPERATOR_REASON.ready, message };
}

function rolloutGapOf(input: StatusInput): string | undefined {
  if (input.workloads !== undefined) return rolloutGapOfAll(input.workloads);
  return input.deployment === undefined ? undefined : rolloutGap(input.deployment);
}

function replicaSummary(d: V1Deployment | undefined): string {
  return `${d?.status?.readyReplicas ?? 0}/${d?.spec?.replicas ?? 1}`;
}

/**
 * The state the children are in after this reconcile: the one asked for once it was applied, else
 * (paused, refused, failed) the one reported before. Absent for active, as on a Tenant from before
 * states existed, so upgrading writes no status.
 */
function reachedState(input: StatusInput): TenantState | undefined {
  const settled = input.error === undefined && !input.paused;
  const state = settled ? input.state : (input.tenant.status?.state ?? DEFAULT_STATE);
  return state === DEFAULT_STATE ? undefined : state;
}

export function computeStatus(input: StatusInput): OperatorStatus {
  const parts = [applied(input), available(input), degraded(input)];
  const inputs = [ready(input, parts), ...parts, ...(input.facets?.conditions ?? [])];
  const previous: readonly Condition[] | undefined = input.tenant.status?.conditions;
  const generation = input.tenant.metadata.generation;
  return {
    observedGeneration: generation,
    conditions: inputs.map((c) => toCondition(c, previous, generation, input.now)),
    ...replicasOf(input),
    ...(input.deploymentName === undefined || input.workloads !== undefined
      ? {}
      : { deployment: input.deploymentName }),
    configMaps: input.configMaps,
    ...withState(reachedState(input)),
    ...(input.namespace === undefined ? {} : { namespace: input.namespace }),
    ...definedFields(input.facets?.status ?? {}),
    ...(input.className === undefined ? {} : { class: input.className }),
    ...(input.classSource === undefined ? {} : { classSource: input.classSource }),
  };
}

/** The Deployment's replica counts, as `kubectl get tenants` shows them; none before it exists. */
function replicasOf(
  input: StatusInput,
): Pick<OperatorStatus, 'replicas' | 'readyReplicas' | 'replicaSummary' | 'workloads'> {
  const { deployment, workloads } = input;
  if (workloads !== undefined) return workloads.length === 0 ? {} : workloadsStatus(workloads);
  if (deployment === undefined) return {};
  return {
    replicas: deployment.spec?.replicas ?? 1,
    readyReplicas: deployment.status?.readyReplicas ?? 0,
    replicaSummary: replicaSummary(deployment),
  };
}

const withState = (state: TenantState | undefined): Pick<OperatorStatus, 'state'> =>
  state === undefined ? {} : { state };

/** The fields a facet filled: one it left undefined is absent, as the status writer expects. */
function definedFields<T extends object>(fields: T): Partial<T> {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) as Partial<T>;
}
