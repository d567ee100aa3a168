// Condition reasons and Event reasons the operator reports: part of landlord's API, since people
// and alerts match on them. Refusal reasons come from the policy module.
// Named as every component's are: <OWNER>_REASON (condition reasons), _EVENT (Event reasons),
// _MESSAGE (what they say) and _LOG (log lines), where the owner is the operator or the part of it
// that says it (a facet: SECRETS_, DATABASES_, EXPOSURE_, WORKLOAD_; the pool, the quota wait, the
// lifecycle), so one name means one thing (docs/architecture.md).
import { SQL_REASON } from '../runtime/sql/errors.js';
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

/** The SecretsReady condition's reasons (operator/secrets/). */
export const SECRETS_REASON = {
  /** True: every entry of the class is in the tenant namespace. */
  ready: 'SecretsReady',
  /** False: a `from` source does not exist; copies made before stay as they are. */
  sourceNotFound: 'SecretSourceNotFound',
  /** False: a `from` source is in a namespace LANDLORD_SECRET_SOURCE_NAMESPACES leaves out. */
  sourceNotAllowed: 'SecretSourceNotAllowed',
  /**
   * False: a per-tenant (`{name}`) source does not carry the Tenant's uid in landlord.dev/tenant-uid;
   * nothing is copied from it, copies made before stay as they are.
   */
  sourceNotBound: 'SecretSourceNotBound',
  /** False: the class has externalSecret entries and the ExternalSecret CRD is not installed. */
  externalSecretsNotInstalled: 'ExternalSecretsNotInstalled',
  /** False: External Secrets Operator has not made (or could not refresh) the Secret yet. */
  externalSecretNotReady: 'ExternalSecretNotReady',
} as const;

/**
 * DatabasesReady (operator/databases/): True when every database of the class has its Secret in the
 * tenant namespace, else False with the first problem's reason. The server's failures are the
 * runtime's SQL_REASON reasons (ServerUnreachable, AuthFailed, AdminSecretMissing, QuotaExceeded…).
 */
export const DATABASES_REASON = {
  ready: 'DatabasesReady',
  /** False: a Shared class names databases; there is no namespace of the tenant's own for the Secret. */
  notAllowed: 'DatabasesNotAllowed',
  /** False: the name template gives no name the engines accept. */
  invalidName: 'InvalidDatabaseName',
  /** False: archived or purged, a database not made yet is not made (one made before is kept). */
  notInState: 'DatabaseNotInState',
  ...SQL_REASON,
} as const;

/** The HostsReady condition's reasons (operator/exposure/): which of its hosts an exposed tenant routes. */
export const EXPOSURE_REASON = {
  /** True: the tenant routes every host its class and row give it. */
  ready: 'HostsHeld',
  /**
   * False: a custom host of the row is held by another (an earlier Tenant, or a route outside tenant
   * namespaces that landlord did not make); only that host is withheld, the tenant runs and routes
   * the rest.
   */
  hostConflict: 'HostConflict',
  /** False: a custom host of the row is one a class's expose.host gives another tenant name: withheld. */
  hostTemplated: 'HostTemplated',
  /**
   * False: a route not made by landlord in the tenant's namespace serves a host the tenant does not
   * hold; it holds nothing for it, and landlord never deletes it.
   */
  strayRoute: 'StrayRoute',
} as const;

/** What HostsReady says. Fixed texts, hosts sorted, so an unchanged situation never rewrites status. */
export const EXPOSURE_MESSAGE = {
  held: (hosts: readonly string[]): string => `routes every host it was given: ${hosts.join(', ')}`,
  conflict: (host: string, holder: string): string =>
    `host ${JSON.stringify(host)} is withheld: ${holder} holds it (a route outside tenant namespaces not made by landlord always does; among Tenants, the one created earlier, or as early and named first); it is routed here once the holder lets it go`,
  templated: (host: string, owners: string): string =>
    `host ${JSON.stringify(host)} is withheld: a TenantClass's expose.host gives it to ${owners}, whether or not that tenant exists; a row's hosts may name only hosts outside every class's templated space`,
  stray: (route: string, hosts: readonly string[]): string =>
    `${route} was not made by landlord and serves ${hosts.join(', ')}, which this tenant does not hold: it holds nothing for it and landlord does not delete it; delete it or drop those hosts from it`,
  rest: (hosts: readonly string[]): string => `this tenant routes ${hosts.join(', ')}`,
} as const;

/** The TemplateUpgradePending condition's reason and message (operator/workload/, rollout-budget.ts). */
export const WORKLOAD_REASON = {
  /** True: the operator's newer pod template waits for a slot of the upgrade budget. */
  waitingForRolloutSlot: 'WaitingForRolloutSlot',
} as const;

/** Where a Tenant lists its Deployments, as the refusals of the list name it. */
export const DEPLOYMENTS_PATH = 'spec.deployments';

/**
 * What the workload facet says: why an upgrade's pod template waits (TemplateUpgradePending), and
 * why a list of Deployments is refused as a list (InvalidSpec, LimitExceeded).
 */
export const WORKLOAD_MESSAGE = {
  waiting: (deployment: string, revision: number): string =>
    `${deployment} keeps its running pods until a rollout slot frees ` +
    `(LANDLORD_OPERATOR_UPGRADE_ROLLOUTS); then it rolls out the operator's pod template revision ${revision}`,
  both: `spec.deployment and ${DEPLOYMENTS_PATH} are both set; a Tenant holds exactly one of them (sync writes one, from the row's spec)`,
  empty: `${DEPLOYMENTS_PATH} lists no Deployment; a row runs at least one`,
  tooMany: (count: number, max: number): string =>
    `${DEPLOYMENTS_PATH}: ${count} Deployments is over the tenant class's limit maxDeployments of ${max}; split the services across tenants, or ask for a class with a higher limit`,
  tooLarge: (bytes: number, max: number): string =>
    `${DEPLOYMENTS_PATH} and spec.configMaps (bytes of JSON): ${bytes} is over the tenant class's limit maxRowBytes of ${max}; make the row smaller: move large data out of the manifests`,
  shared: `${DEPLOYMENTS_PATH}: a Shared class runs one Deployment per tenant, as its label checks against the other tenants of a namespace compare one; list one Deployment, or ask for a PerTenant class`,
  duplicate: (path: string, name: string, first: string): string =>
    `${path}.metadata.name: "${name}" is ${first}'s name too; each Deployment needs its own name`,
  overlap: (path: string, other: string): string =>
    `${path}.spec.selector selects the pods of ${other}: two Deployments would fight over them; give each its own pod labels and a selector only its own match`,
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
