// The operator's part of a Tenant's status, computed from what the reconcile did and what the
// Deployment reports. Pure: the writer compares it with what the Tenant already says.
import type { V1Deployment, V1DeploymentCondition } from '@kubernetes/client-node';
import { toCondition, type ConditionInput } from '../api/conditions.js';
import { CONDITION, type Condition, type Tenant, type TenantStatus } from '../api/tenant.js';
import type { ChildRef } from './child-ref.js';
import type { ReconcileError } from './reconcile-error.js';
import { REASON } from './reasons.js';

export const OPERATOR_CONDITIONS = [
  CONDITION.ready,
  CONDITION.applied,
  CONDITION.available,
  CONDITION.degraded,
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

function applied(input: StatusInput): ConditionInput {
  if (input.error !== undefined) {
    return {
      type: CONDITION.applied,
      status: 'False',
      reason: input.error.reason,
      message: input.error.message,
    };
  }
  const count = input.configMaps.length;
  const message = `Deployment ${input.deploymentName} and ${count} ConfigMap${count === 1 ? '' : 's'} match generation ${input.tenant.metadata.generation}`;
  return { type: CONDITION.applied, status: 'True', reason: REASON.applied, message };
}

function available(input: StatusInput): ConditionInput {
  const type = CONDITION.available;
  const { deployment } = input;
  if (deployment === undefined) {
    const what =
      input.deploymentName === undefined
        ? 'no Deployment has been applied'
        : `Deployment ${input.deploymentName} does not exist`;
    return { type, status: 'Unknown', reason: REASON.deploymentNotFound, message: what };
  }
  const condition = deploymentCondition(deployment, 'Available');
  const message = condition?.message ?? 'the Deployment has not reported availability yet';
  return condition?.status === 'True'
    ? { type, status: 'True', reason: REASON.deploymentAvailable, message }
    : { type, status: 'False', reason: REASON.deploymentUnavailable, message };
}

function degraded(input: StatusInput): ConditionInput {
  const type = CONDITION.degraded;
  const progressing = deploymentCondition(input.deployment, 'Progressing');
  if (progressing?.status === 'False' && progressing.reason === REASON.progressDeadlineExceeded) {
    return {
      type,
      status: 'True',
      reason: REASON.progressDeadlineExceeded,
      message: progressing.message ?? '',
    };
  }
  const failure = deploymentCondition(input.deployment, 'ReplicaFailure');
  if (failure?.status === 'True') {
    return { type, status: 'True', reason: REASON.replicaFailure, message: failure.message ?? '' };
  }
  return { type, status: 'False', reason: REASON.rolloutHealthy, message: 'no rollout problem reported' };
}

/** Rollout complete, as `kubectl rollout status` judges it; a description of what is missing otherwise. */
function counts(d: V1Deployment): {
  want: number;
  seen: boolean;
  updatedReplicas: number;
  replicas: number;
  availableReplicas: number;
} {
  const { observedGeneration = 0, updatedReplicas = 0, replicas = 0, availableReplicas = 0 } = d.status ?? {};
  const seen = observedGeneration >= (d.metadata?.generation ?? 0);
  return { want: d.spec?.replicas ?? 1, seen, updatedReplicas, replicas, availableReplicas };
}

function rolloutGap(d: V1Deployment): string | undefined {
  const { want, seen, updatedReplicas, replicas, availableReplicas } = counts(d);
  if (!seen) return 'the Deployment controller has not seen the new spec yet';
  if (updatedReplicas < want) return `${updatedReplicas} of ${want} replicas updated`;
  if (replicas > updatedReplicas) return `${replicas - updatedReplicas} old replicas pending termination`;
  if (availableReplicas < want) return `${availableReplicas} of ${want} updated replicas available`;
  return undefined;
}

function ready(input: StatusInput, parts: ConditionInput[]): ConditionInput {
  const type = CONDITION.ready;
  const failing = parts.find((c) =>
    c.type === CONDITION.degraded ? c.status === 'True' : c.status !== 'True',
  );
  if (failing?.type === CONDITION.applied || failing?.type === CONDITION.degraded) {
    return { type, status: 'False', reason: failing.reason, message: failing.message };
  }
  const gap = input.deployment === undefined ? undefined : rolloutGap(input.deployment);
  if (gap !== undefined) return { type, status: 'False', reason: REASON.rolloutInProgress, message: gap };
  if (failing !== undefined)
    return { type, status: 'False', reason: failing.reason, message: failing.message };
  const summary = replicaSummary(input.deployment);
  return {
    type,
    status: 'True',
    reason: REASON.ready,
    message: `Deployment ${input.deploymentName} has ${summary} replicas ready`,
  };
}

function replicaSummary(d: V1Deployment | undefined): string {
  return `${d?.status?.readyReplicas ?? 0}/${d?.spec?.replicas ?? 1}`;
}

export function computeStatus(input: StatusInput): OperatorStatus {
  const parts = [applied(input), available(input), degraded(input)];
  const inputs = [ready(input, parts), ...parts];
  const previous: readonly Condition[] | undefined = input.tenant.status?.conditions;
  const generation = input.tenant.metadata.generation;
  const { deployment } = input;
  return {
    observedGeneration: generation,
    conditions: inputs.map((c) => toCondition(c, previous, generation, input.now)),
    ...(deployment === undefined
      ? {}
      : {
          replicas: deployment.spec?.replicas ?? 1,
          readyReplicas: deployment.status?.readyReplicas ?? 0,
          replicaSummary: replicaSummary(deployment),
        }),
    ...(input.deploymentName === undefined ? {} : { deployment: input.deploymentName }),
    configMaps: input.configMaps,
  };
}
