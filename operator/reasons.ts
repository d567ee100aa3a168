// Condition reasons and Event reasons the operator reports: part of landlord's API, since people
// and alerts match on them. Refusal reasons come from the policy module.
import type { RefusalReason } from './policy/index.js';

export const REASON = {
  /** Applied=True */
  applied: 'Applied',
  /** Applied=False: another owner holds a child, or an unmanaged object of that name exists. */
  conflict: 'Conflict',
  /** Applied=False: the API server refused or failed an apply or a prune; retried with backoff. */
  applyFailed: 'ApplyFailed',
  /** Available */
  deploymentAvailable: 'DeploymentAvailable',
  deploymentUnavailable: 'DeploymentUnavailable',
  deploymentNotFound: 'DeploymentNotFound',
  /** Degraded */
  rolloutHealthy: 'RolloutHealthy',
  progressDeadlineExceeded: 'ProgressDeadlineExceeded',
  replicaFailure: 'ReplicaFailure',
  /** Ready */
  ready: 'Ready',
  rolloutInProgress: 'RolloutInProgress',
} as const;

export type AppliedFailureReason = RefusalReason | typeof REASON.conflict | typeof REASON.applyFailed;

export const EVENT = {
  created: 'Created',
  updated: 'Updated',
  pruned: 'Pruned',
} as const;
