// Condition reasons and Event reasons the operator reports: part of landlord's API, since people
// and alerts match on them. Refusal reasons come from the policy module; each facet's own are in
// its folder (secrets/, databases/, exposure/, workload/reasons.ts).
// Named as every component's are: <OWNER>_REASON (condition reasons), _EVENT (Event reasons),
// _MESSAGE (what they say) and _LOG (log lines), where the owner is the operator or the part of it
// that says it (the pool, the quota wait, the lifecycle), so one name means one thing
// (docs/architecture.md).
import type { RefusalReason } from './policy/index.js';

export const OPERATOR_REASON = {
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
  /**
   * Applied=False (and Ready=False): the Deployment and ConfigMaps wait until the quota controller
   * enforces the tenant's ResourceQuota. Held like a rollout (status-hold.ts): shown only when the
   * wait lasts longer than a rollout would.
   */
  waitingForQuota: 'WaitingForQuota',
  /** Ready */
  ready: 'Ready',
  rolloutInProgress: 'RolloutInProgress',
  /** Ready=False: the row's state is suspended; the Deployment runs 0 replicas. */
  suspended: 'Suspended',
  /** Ready=False (and Available=False): the row's state is archived or purged; no children are kept. */
  archived: 'Archived',
  /** Ready=False, Applied=Unknown: a person paused the Tenant; the operator leaves its children alone. */
  paused: 'Paused',
  /** Applied=False: the TenantClass the row names, or the one the Tenant was given, does not exist. */
  classNotFound: 'ClassNotFound',
  /** Applied=False: the row names no class and more than one TenantClass is annotated as the default. */
  ambiguousDefaultClass: 'AmbiguousDefaultClass',
  /** Applied=False: the class's allowedTables leaves out the table the Tenant's row is in. */
  classNotAllowed: 'ClassNotAllowed',
  /**
   * Applied=False: the row names no class, no TenantClass is the default, and the operator is not
   * configured to use the built-in class (LANDLORD_OPERATOR_BUILT_IN_CLASS).
   */
  noDefaultClass: 'NoDefaultClass',
} as const;

/** Why no TenantClass could be chosen: refused like a policy problem, nothing applied or pruned. */
export type ClassFailureReason =
  | typeof OPERATOR_REASON.classNotFound
  | typeof OPERATOR_REASON.ambiguousDefaultClass
  | typeof OPERATOR_REASON.classNotAllowed
  | typeof OPERATOR_REASON.noDefaultClass;

export type AppliedFailureReason =
  RefusalReason | ClassFailureReason | typeof OPERATOR_REASON.conflict | typeof OPERATOR_REASON.applyFailed;

export const OPERATOR_EVENT = {
  created: 'Created',
  updated: 'Updated',
  /** Deleted and made anew: a change the API server refuses in place (a Service turning headless). */
  replaced: 'Replaced',
  pruned: 'Pruned',
  /** A state reached, once per transition: the children now match it. */
  suspended: 'Suspended',
  archived: 'Archived',
  resumed: 'Resumed',
  /** The row asked for a purge: the children went as for archived; the purger deletes the data. */
  purgeRequested: 'PurgeRequested',
  paused: 'Paused',
  unpaused: 'Unpaused',
  /** A new tenant of a pooled class claimed a Ready warm pool member (Normal). */
  poolClaimed: 'PoolClaimed',
  /** A new tenant of a pooled class found no Ready member and was made cold (Normal). */
  poolEmpty: 'PoolEmpty',
} as const;

/** What the warm pool's Events on a Tenant say. */
export const POOL_MESSAGE = {
  claimed: (namespace: string, className: string): string =>
    `claimed the warm namespace ${namespace} from the pool of class ${className}`,
  empty: (namespace: string, className: string): string =>
    `the warm pool of class ${className} had no Ready member: made namespace ${namespace} cold`,
} as const;

/** What Applied says while the workload waits for the tenant's quota (apply.ts). */
export const QUOTA_MESSAGE = {
  waiting: (quota: string, resources: readonly string[]): string =>
    `waiting for the quota controller to enforce ${quota} (${resources.join(', ')} not in its status.hard yet): the Deployment and ConfigMaps are applied once it does, so that no pod or ConfigMap escapes the quota`,
} as const;

/**
 * What the lifecycle conditions and Events say. Fixed texts (no counts, no times), so an unchanged
 * situation never rewrites status.
 */
export const LIFECYCLE_MESSAGE = {
  suspended: (deployment: string | undefined): string =>
    `suspended by its row (state: suspended): Deployment ${deployment ?? '(none)'} runs 0 replicas and the ConfigMaps stay; set the row's state to active (or remove it) to resume`,
  archived:
    "archived by its row (state: archived): the Deployment and ConfigMaps are removed and the Tenant stays; set the row's state to active (or remove it) to recreate them",
  purged:
    "the row's state is purged: the Deployment and ConfigMaps are removed as for archived, and the purger (landlord purger, where installed) deletes the tenant's data after its delay, as the Purged condition says; set the row's state to active to recreate the children",
  noDeployment: (state: string): string => `the tenant is ${state}: it keeps no Deployment`,
  noChildren: (state: string, generation: number | undefined): string =>
    `the tenant is ${state}: no children are kept, as of generation ${generation}`,
  paused:
    'paused by the annotation landlord.dev/paused=true: the operator leaves the Deployment and ConfigMaps as they are (hand edits stay); remove the annotation to resume',
  pausedApplied:
    'paused by the annotation landlord.dev/paused=true: nothing is applied or pruned, so whether the children match the spec is not checked',
  eventSuspended: 'the Deployment runs 0 replicas and the ConfigMaps stay (state: suspended)',
  eventArchived: 'the Deployment and ConfigMaps are removed; the Tenant stays (state: archived)',
  eventPurgeRequested:
    "state purged: the Deployment and ConfigMaps are removed as for archived; the purger, where installed, deletes the tenant's data after its delay (see the Purged condition)",
  eventResumed: (from: string): string =>
    `resumed from ${from}: the Deployment and ConfigMaps are applied as the row says`,
  eventPaused:
    'paused (landlord.dev/paused=true): the children are left as they are until the annotation is removed',
  eventUnpaused: 'no longer paused: the children are kept as the spec says again',
} as const;
