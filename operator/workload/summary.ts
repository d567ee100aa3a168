// The status summary of a tenant of several Deployments (spec.deployments): Available only when
// every one is, Degraded when any is, Ready once every rollout is complete, the replica counts
// summed, and status.workloads listing each. A tenant of one is summarised as it always was
// (operator/status.ts), so its status stays byte for byte what it was. Pure.
import type { V1Deployment, V1DeploymentCondition } from '@kubernetes/client-node';
import type { ConditionInput } from '../../api/conditions.js';
import { CONDITION, type TenantStatus, type WorkloadStatus } from '../../api/tenant.js';
import { OPERATOR_REASON } from '../reasons.js';
import { rolloutGap } from '../rollout.js';

/** One Deployment of the tenant: "namespace/name", and its freshest copy (absent: not there). */
export interface Workload {
  name: string;
  deployment: V1Deployment | undefined;
}

const conditionOf = (d: V1Deployment | undefined, type: string): V1DeploymentCondition | undefined =>
  d?.status?.conditions?.find((c) => c.type === type);

const desired = (d: V1Deployment | undefined): number => d?.spec?.replicas ?? 1;
const ready = (d: V1Deployment | undefined): number => d?.status?.readyReplicas ?? 0;

/** Available=True only when every Deployment reports it; else the first that does not, named. */
export function availableOfAll(workloads: readonly Workload[]): ConditionInput {
  const type = CONDITION.available;
  const missing = workloads.find((w) => w.deployment === undefined);
  if (missing !== undefined) {
    const message = `Deployment ${missing.name} does not exist`;
    return { type, status: 'Unknown', reason: OPERATOR_REASON.deploymentNotFound, message };
  }
  for (const { name, deployment } of workloads) {
    const condition = conditionOf(deployment, 'Available');
    if (condition?.status === 'True') continue;
    const said = condition?.message ?? 'has not reported availability yet';
    const message = `Deployment ${name}: ${said}`;
    return { type, status: 'False', reason: OPERATOR_REASON.deploymentUnavailable, message };
  }
  const message = `all ${workloads.length} Deployments have minimum availability`;
  return { type, status: 'True', reason: OPERATOR_REASON.deploymentAvailable, message };
}

/** Degraded=True when any Deployment's rollout is stuck or fails to make replicas. */
export function degradedOfAll(workloads: readonly Workload[]): ConditionInput | undefined {
  for (const { name, deployment } of workloads) {
    const progressing = conditionOf(deployment, 'Progressing');
    if (progressing?.status === 'False' && progressing.reason === OPERATOR_REASON.progressDeadlineExceeded) {
      const message = `Deployment ${name}: ${progressing.message ?? ''}`;
      return {
        type: CONDITION.degraded,
        status: 'True',
        reason: OPERATOR_REASON.progressDeadlineExceeded,
        message,
      };
    }
    const failure = conditionOf(deployment, 'ReplicaFailure');
    if (failure?.status === 'True') {
      const message = `Deployment ${name}: ${failure.message ?? ''}`;
      return { type: CONDITION.degraded, status: 'True', reason: OPERATOR_REASON.replicaFailure, message };
    }
  }
  return undefined;
}

/** What the first Deployment still rolling out lacks; undefined when every rollout is complete. */
export function rolloutGapOfAll(workloads: readonly Workload[]): string | undefined {
  for (const { name, deployment } of workloads) {
    const gap = deployment === undefined ? undefined : rolloutGap(deployment);
    if (gap !== undefined) return `Deployment ${name}: ${gap}`;
  }
  return undefined;
}

/** "ready/desired" over every Deployment. */
function replicaSummaryOfAll(workloads: readonly Workload[]): string {
  const sum = (count: (d: V1Deployment | undefined) => number): number =>
    workloads.reduce((total, w) => total + count(w.deployment), 0);
  return `${sum(ready)}/${sum(desired)}`;
}

/** The Ready message once every Deployment is available. */
export const readyOfAll = (workloads: readonly Workload[]): string =>
  `${workloads.length} Deployments have ${replicaSummaryOfAll(workloads)} replicas ready`;

/** The replica counts summed, for `kubectl get tenants`, and status.workloads listing each. */
export function workloadsStatus(
  workloads: readonly Workload[],
): Pick<TenantStatus, 'replicas' | 'readyReplicas' | 'replicaSummary' | 'workloads'> {
  const listed: WorkloadStatus[] = workloads.map(({ name, deployment }) => ({
    name,
    replicas: desired(deployment),
    readyReplicas: ready(deployment),
    available:
      deployment === undefined ? 'Unknown' : (conditionOf(deployment, 'Available')?.status ?? 'Unknown'),
  })) as WorkloadStatus[];
  return {
    replicas: listed.reduce((total, w) => total + w.replicas, 0),
    readyReplicas: listed.reduce((total, w) => total + w.readyReplicas, 0),
    replicaSummary: replicaSummaryOfAll(workloads),
    workloads: listed,
  };
}
