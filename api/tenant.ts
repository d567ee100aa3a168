// The Tenant resource: the only thing sync, the operator and the purger share. All import these
// names so a label or a condition type is spelled in exactly one place.
import type { V1ConfigMap, V1Deployment, V1ObjectMeta, V1OwnerReference } from '@kubernetes/client-node';

export const GROUP = 'landlord.dev';
/** The version every component reads and writes, and the CRDs store (ADR 0011). */
export const VERSION = 'v1beta1';
/**
 * The version before it: still served (deprecated), the same schema, so objects and children
 * written under it read alike. Dropped from the CRDs only once `landlord migrate-storage` has run.
 */
export const PREVIOUS_VERSION = 'v1alpha1';
export const API_VERSION = `${GROUP}/${VERSION}`;
/**
 * The apiVersion landlord's ownerReferences name (to a Tenant or a TenantClass): the previous
 * version, for as long as a rollback to a release that reads only it is supported. The garbage
 * collector follows a reference under any served version, while such a release takes a child that
 * names v1beta1 for another's and rewrites it, restarting pods. Moves to VERSION in the release
 * that drops that rollback, before v1alpha1 stops being served (ADR 0011).
 */
export const OWNER_API_VERSION = `${GROUP}/${PREVIOUS_VERSION}`;
export const KIND = 'Tenant';
export const PLURAL = 'tenants';
export const CRD_NAME = `${PLURAL}.${GROUP}`;

/** Field managers: one per component, so server-side apply keeps their fields apart. */
export const FIELD_MANAGER = {
  operator: 'landlord-operator',
  /**
   * The operator's claim of a warm pool member: a merge patch (an update, not an apply), so its
   * own name in managedFields, apart from the operator's Apply entry the tenant's children use.
   */
  operatorClaim: 'landlord-operator-claim',
  sync: 'landlord-sync',
  purger: 'landlord-purger',
} as const;

/** Labels and annotations landlord owns; a tenant's manifest may not set these. */
export const LABEL = {
  /** On every child: the name of the Tenant that owns it. */
  tenant: 'landlord.dev/tenant',
  /** On every child and every synced Tenant: which component manages it. */
  managedBy: 'app.kubernetes.io/managed-by',
  /** On Tenants made by sync: a short hash of the table, so prune only touches its own. */
  sourceTable: 'landlord.dev/source-table',
  /** On Tenants made by a sync configured with a cluster: the cluster whose rows it mirrors. */
  cluster: 'landlord.dev/cluster',
  /** On an unclaimed warm pool member (a Namespace) and what the pool put in it: its TenantClass. */
  pool: 'landlord.dev/pool',
  /**
   * On the pods of an exposed class's Deployment (value "app"): what its Service selects. Names no
   * tenant, so a warm pool member's pods carry it before the claim and keep running after.
   */
  exposed: 'landlord.dev/exposed',
} as const;

export const ANNOTATION = {
  /** On Tenants made by sync: sha256 of the row's content, so an unchanged row costs no write. */
  rowHash: 'landlord.dev/row-hash',
  /** On Tenants made by sync: the table's full name (labels are too short for it). */
  table: 'landlord.dev/table',
  /**
   * Set by a person (`kubectl annotate tenant x landlord.dev/paused=true`): the operator leaves the
   * Tenant's children alone until it is removed. Only the value "true" pauses.
   */
  paused: 'landlord.dev/paused',
  /** On a warm pool member: the hash of what its class's pool asked for when it was made. */
  poolHash: 'landlord.dev/pool-hash',
  /**
   * On a per-tenant secret source (a class's `from` named with "{name}"), written by the platform:
   * the metadata.uid of the one Tenant it was made for. Without it, or with another uid, the
   * operator copies nothing from it (SecretSourceNotBound): a name reused after a Tenant is deleted
   * never receives the former tenant's Secret (docs/secrets.md).
   */
  tenantUid: 'landlord.dev/tenant-uid',
} as const;

/**
 * On a PerTenant tenant's namespace, written by the operator: the hosts the tenant holds now (its
 * class's templated host and the row's hosts it was granted), sorted, comma-separated, no spaces;
 * absent when it holds none. The admission policies read it (through CEL's namespaceObject) to let
 * the tenant's team route only its own hosts; teams with `edit` cannot change namespaces.
 */
export const HOSTS_ANNOTATION = 'landlord.dev/hosts';

/**
 * A tenant's lifecycle, from its row's `state` attribute (absent: active). `purged` is carried out
 * by the operator as `archived`; the purger (`landlord purger`) then deletes the tenant's data from
 * the configured data tables after a delay, and reports it in status.purge and the Purged condition.
 */
export const TENANT_STATES = ['active', 'suspended', 'archived', 'purged'] as const;
export type TenantState = (typeof TENANT_STATES)[number];
export const DEFAULT_STATE: TenantState = 'active';

export function isTenantState(value: unknown): value is TenantState {
  return typeof value === 'string' && (TENANT_STATES as readonly string[]).includes(value);
}

export const MANAGED_BY = {
  operator: 'landlord-operator',
  sync: 'landlord-sync',
} as const;

/** Condition types. `Synced` belongs to sync, `Purged` to the purger; the rest to the operator. */
export const CONDITION = {
  ready: 'Ready',
  applied: 'Applied',
  available: 'Available',
  degraded: 'Degraded',
  synced: 'Synced',
  purged: 'Purged',
  /** PerTenant classes with secrets: every entry is in the tenant namespace (operator/secrets/). */
  secretsReady: 'SecretsReady',
  /** PerTenant classes with databases: each has its Secret in the tenant namespace (operator/databases/). */
  databasesReady: 'DatabasesReady',
  /** Exposed tenants: every host its class and row give it is routed (operator/exposure/). */
  hostsReady: 'HostsReady',
  /**
   * True only while the operator's newer pod template waits for a rollout slot of the upgrade
   * budget (operator/rollout-budget.ts); absent otherwise. Never makes the Tenant not Ready.
   */
  templateUpgradePending: 'TemplateUpgradePending',
} as const;

export type ConditionStatus = 'True' | 'False' | 'Unknown';

/** A status condition as Kubernetes API conventions define it (metav1.Condition). */
export interface Condition {
  type: string;
  status: ConditionStatus;
  observedGeneration?: number;
  lastTransitionTime: string;
  reason: string;
  message: string;
}

/** What sync records about the row a Tenant came from. */
export interface SyncStatus {
  table: string;
  rowHash: string;
  /** When sync last read a row whose content differed from what the Tenant held. */
  lastChangedTime: string;
  /**
   * The newest revision sync recorded in the tenant's history (ControllerRevision
   * `<tenant>-<revision>`), and the row hash it holds: the next revision is found from here,
   * without listing every tenant's revisions.
   */
  revision?: number;
  revisionHash?: string;
}

/**
 * Where a purge of the tenant's data stands. Scheduled: waiting out the purge delay; Running:
 * deleting; Completed: every data table's partition is empty; Failed: a table could not be purged
 * (retried); Cancelled: the state left purged before the purge completed.
 */
export const PURGE_PHASES = ['Scheduled', 'Running', 'Completed', 'Failed', 'Cancelled'] as const;
export type PurgePhase = (typeof PURGE_PHASES)[number];

/** Per data table: Pending until its turn, then Running, Completed or Failed. */
export const TABLE_PURGE_PHASES = ['Pending', 'Running', 'Completed', 'Failed'] as const;
type TablePurgePhase = (typeof TABLE_PURGE_PHASES)[number];

export interface TablePurgeStatus {
  table: string;
  phase: TablePurgePhase;
  /** Items deleted from the tenant's partition of this table, over every attempt. */
  deleted: number;
  startedAt?: string;
  finishedAt?: string;
}

/**
 * A tenant database a purge drops (with its role), recorded when the purge is scheduled from the
 * class as it was then, so a restart or a class edit cannot change what the purge drops.
 */
export interface DatabasePurgeStatus {
  /** The class's entry. */
  name: string;
  engine: 'postgres' | 'mysql';
  /** The server's admin Secret, in the purger's own namespace. */
  adminSecret: string;
  database: string;
  role: string;
  phase: TablePurgePhase;
  finishedAt?: string;
}

/** What the purger records about the tenant's data (written by the purger only). */
export interface PurgeStatus {
  phase: PurgePhase;
  /** When the purger first saw the Tenant in state purged: the purge delay counts from here. */
  scheduledAt: string;
  /** scheduledAt + the purge delay: no data is deleted before this time. */
  startsAt: string;
  startedAt?: string;
  finishedAt?: string;
  /** The Tenant's generation when the purger last wrote this; a later spec starts a new purge. */
  observedGeneration?: number;
  /**
   * The uid of the Tenant this purge was scheduled for: a Tenant made again under the same name
   * (another uid) never takes over its schedule or its end, and starts its own delay.
   */
  uid?: string;
  tables: TablePurgeStatus[];
  /** The tenant's databases (a class's `databases`), dropped after the tables. */
  databases?: DatabasePurgeStatus[];
}

/** How status.class was chosen: named by the row, or given as the default. */
export const CLASS_SOURCES = ['Row', 'Default'] as const;
export type ClassSource = (typeof CLASS_SOURCES)[number];

export interface TenantStatus {
  observedGeneration?: number;
  conditions?: Condition[];
  /** Desired replicas of the child Deployment. */
  replicas?: number;
  readyReplicas?: number;
  /** "ready/desired", for the REPLICAS printer column. */
  replicaSummary?: string;
  /** "namespace/name" of the owned Deployment. */
  deployment?: string;
  /** "namespace/name" of each owned ConfigMap, sorted. */
  configMaps?: string[];
  /**
   * A tenant of several Deployments (spec.deployments): each one, in the spec's order; absent for
   * a tenant of one (spec.deployment), whose status says what it said before.
   */
  workloads?: WorkloadStatus[];
  sync?: SyncStatus;
  /** The state the operator last brought the children to; absent: active. */
  state?: TenantState;
  purge?: PurgeStatus;
  /** The TenantClass the operator last resolved for this Tenant (BUILT_IN_CLASS_NAME for the built-in one). */
  class?: string;
  /**
   * How it was chosen: Row (the row named it) or Default (the default class, or the built-in one).
   * Only a class given as the default stays when the row names none (operator/tenancy/resolve-class.ts).
   */
  classSource?: ClassSource;
  /** The namespace the Tenant's children live in (PerTenant classes). */
  namespace?: string;
  /** Where the tenant is reached, when its class exposes it and its route is kept. */
  url?: string;
}

/** One Deployment of a tenant of several, as status.workloads reports it. */
export interface WorkloadStatus {
  /** "namespace/name" of the Deployment. */
  name: string;
  replicas: number;
  readyReplicas: number;
  /** The Deployment's Available condition: True, False, or Unknown before it reports one. */
  available: ConditionStatus;
}

export interface TenantSpec {
  /**
   * An apps/v1 Deployment manifest: a row whose `spec` is one object. Absent while sync has never
   * read a valid row, and for a row of several Deployments (then `deployments` is set instead).
   */
  deployment?: V1Deployment;
  /**
   * apps/v1 Deployment manifests, each with its own name: a row whose `spec` is a JSON array or a
   * v1 List of them (several services per tenant). Exactly one of `deployment` and `deployments`.
   */
  deployments?: V1Deployment[];
  configMaps?: V1ConfigMap[];
  /** From the row's `state`; absent (and the CRD's default): active. */
  state?: TenantState;
  /** From the row's `class`: the TenantClass whose policy applies; absent: the default class. */
  class?: string;
  /**
   * From the row's `hosts`: custom domains for the tenant's route (sorted, distinct), under its
   * class's allowedDomains; a host is held by one Tenant cluster-wide (operator/exposure/).
   */
  hosts?: string[];
}

export interface Tenant {
  apiVersion: typeof API_VERSION;
  kind: typeof KIND;
  metadata: V1ObjectMeta;
  spec?: TenantSpec;
  status?: TenantStatus;
}

/**
 * How a child names the Tenant that owns it: the controller reference the garbage collector
 * follows, blocking the Tenant's foreground deletion until the child is gone.
 */
export function tenantOwnerReference(tenant: Tenant): V1OwnerReference {
  return {
    apiVersion: OWNER_API_VERSION,
    kind: KIND,
    name: tenant.metadata.name!,
    uid: tenant.metadata.uid!,
    controller: true,
    blockOwnerDeletion: true,
  };
}

/** Whether a person paused this Tenant by hand. */
export function isPaused(tenant: Tenant): boolean {
  return tenant.metadata.annotations?.[ANNOTATION.paused] === 'true';
}
