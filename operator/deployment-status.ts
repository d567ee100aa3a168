// What of a Deployment's status the operator reads (rollout.ts, status.ts, pool/members.ts), and so
// what its caches keep. The Deployment controller writes a status three times or more for each
// rollout, most of them only to move the Progressing condition's reason, message and times, which
// nothing here reads unless the rollout is stuck. Left out of the cache, such a write leaves the
// cached copy as it was but for its resourceVersion, and the informer wakes no reconcile for it
// (runtime/kube/informer.ts): without pods that was every status write after the first.
import type { V1DeploymentCondition, V1DeploymentStatus } from '@kubernetes/client-node';

/** The counts rollout.ts, status.ts and the warm pool read. */
const COUNTS = [
  'observedGeneration',
  'replicas',
  'updatedReplicas',
  'readyReplicas',
  'availableReplicas',
] as const;

/**
 * A condition as status.ts reads it: Available and ReplicaFailure always, Progressing only once it
 * is False (ProgressDeadlineExceeded is read as Degraded); never the times.
 */
function readCondition(condition: V1DeploymentCondition): V1DeploymentCondition | undefined {
  if (condition.type === 'Progressing' && condition.status !== 'False') return undefined;
  const { type, status, reason, message } = condition;
  return {
    type,
    status,
    ...(reason === undefined ? {} : { reason }),
    ...(message === undefined ? {} : { message }),
  };
}

/** The part of a Deployment's status the operator reads; the rest never reaches its caches. */
export function readOfDeploymentStatus(status: unknown): unknown {
  if (typeof status !== 'object' || status === null) return status;
  const full = status as V1DeploymentStatus;
  const kept: Record<string, unknown> = {};
  for (const key of COUNTS) if (full[key] !== undefined) kept[key] = full[key];
  const conditions = (full.conditions ?? []).flatMap((c) => readCondition(c) ?? []);
  if (conditions.length > 0) kept.conditions = conditions;
  return kept;
}
