// The Prometheus metrics every component exposes. One set for all, so dashboards and alerts need
// no per-component knowledge; a metric a component never touches simply stays at zero. Metric
// names are an API: dashboards and alerts depend on them.
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import { PURGE_PHASES, TENANT_STATES } from '../api/tenant.js';
import { RETURN_REASONS } from './memory-return.js';
import { collectProcessMetrics } from './process-metrics.js';

const METRIC_PREFIX = 'landlord_';

const RECONCILE_RESULTS = ['success', 'error', 'refused', 'requeue'] as const;
export type ReconcileResult = (typeof RECONCILE_RESULTS)[number];

const SCAN_RESULTS = ['success', 'error'] as const;
/** Why sync deletes a Tenant: its row is gone, or says `deleted: true` (one budget for both). */
const DELETION_CAUSES = ['rowGone', 'rowDeleted', 'archived', 'purged'] as const;
/** How sync's conditional write of a row's `landlord` attribute ended. */
const ROW_STATUS_RESULTS = ['written', 'rowChanged'] as const;
/** Why a Tenant is not sync's: no landlord-sync marks, or another table's. */
const NOT_OWNED_CAUSES = ['unmarked', 'otherTable', 'otherCluster'] as const;

/** How purges end (or start), for landlord_purges_total. */
const PURGE_RESULTS = ['started', 'completed', 'failed', 'cancelled', 'refused', 'heldBack'] as const;

/** Reconciles take milliseconds when nothing changed and seconds when an API server is slow. */
const RECONCILE_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];
/** A request's answer: milliseconds on a quiet cluster, seconds under load, 30 s the timeout. */
const API_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

export interface Metrics {
  registry: Registry;
  /** Reconciles by result: success, error (retried), refused (invalid input), requeue. */
  reconcileTotal: Counter<'result'>;
  /**
   * Watch events the operator received, by kind, and whether they queued a reconcile
   * (`queued`) or changed nothing a reconcile decides from (`skipped`: a Tenant's status write,
   * the echo of the operator's own apply).
   */
  watchEventsTotal: Counter<'kind' | 'outcome'>;
  reconcileDuration: Histogram;
  /** Keys ready to run in the work queue. */
  queueDepth: Gauge;
  queueInFlight: Gauge;
  /** How long the operator now holds a new generation's rolling-out status (operator/status-hold.ts). */
  statusHoldSeconds: Gauge;
  /**
   * Deployments of an upgrade's pod template change (operator/rollout-budget.ts), by state: rolling
   * (holding a slot) or pending (waiting for one).
   */
  templateUpgradeDeployments: Gauge<'state'>;
  /** Tenants by condition and its status (condition=Ready, status=True). */
  tenants: Gauge<'condition' | 'status'>;
  /** Tenants by the lifecycle state their spec asks for; one series per state, always. */
  tenantStates: Gauge<'state'>;
  /** Tenants a person paused with the landlord.dev/paused annotation. */
  tenantsPaused: Gauge;
  /** New tenants of a class with a warm pool, by whether they claimed a member (warm) or not (cold). */
  poolClaimsTotal: Counter<'class' | 'result'>;
  /** Unclaimed warm pool members whose Deployment is available, by class. */
  poolMembersReady: Gauge<'class'>;
  /** From the reconcile that placed a new tenant of a pooled class (claim or cold) to its first Ready. */
  poolClaimToReadySeconds: Histogram<'result'>;
  /** Requests this component made to the Kubernetes API server, by verb, resource and HTTP code. */
  apiRequestsTotal: Counter<'verb' | 'resource' | 'code'>;
  apiRequestDuration: Histogram<'verb' | 'resource'>;
  syncRowsScannedTotal: Counter;
  /** Full table scans by result: success, error. */
  syncScansTotal: Counter<'result'>;
  /** Age of the newest stream record processed, when it was processed. */
  syncStreamLagSeconds: Gauge;
  /** Deletions held back because they exceeded the allowed share of all tenants, by cause. */
  syncDeletionsHeldBackTotal: Counter<'cause'>;
  /** Rows naming a Tenant sync did not make from its table, left alone; counted once per conflict. */
  syncNotOwnedTotal: Counter<'cause'>;
  /** Rows that failed validation in the last complete scan. */
  syncInvalidRows: Gauge;
  /** Writes sync made to Tenants, by kind (create, update, delete, status, …). */
  syncWritesTotal: Counter<'kind'>;
  /** sync's conditional UpdateItems of rows' `landlord` attribute, by result: written, rowChanged. */
  syncRowStatusWritesTotal: Counter<'result'>;
  dynamodbRetriesTotal: Counter<'operation'>;
  /** Items the purger deleted from data tables, by table. */
  purgeItemsDeletedTotal: Counter<'table'>;
  /** Write requests DynamoDB throttled during purges, by table (they are retried). */
  purgeThrottledTotal: Counter<'table'>;
  /** Purges started, completed, failed and cancelled. */
  purgesTotal: Counter<'result'>;
  /** Tenants by the phase of their purge (status.purge.phase); one series per phase, always. */
  purges: Gauge<'phase'>;
  /** 1 while this replica holds its component's Lease, else 0. */
  leader: Gauge;
  /** Collections that handed V8's pooled pages back to the system, by reason (runtime/memory-return.ts). */
  memoryReturnsTotal: Counter<'reason'>;
  /**
   * Sets what brings the queue and Tenant gauges up to date, run once per scrape before they are
   * read (undefined: they keep their values). At 20,000 Tenants the Tenant gauges are a pass over
   * the whole cache, so it runs when Prometheus asks, not on a timer.
   */
  refreshOnScrape(refresh: (() => void) | undefined): void;
}

/**
 * A fresh registry holding the landlord metrics and the Node.js process metrics, every series
 * labelled with `component`. Fresh, not prom-client's global registry, so that tests and the
 * sandbox (which runs every component in one process) can each hold their own.
 */
export function createMetrics(component: string): Metrics {
  const registry = new Registry();
  registry.setDefaultLabels({ component });
  collectProcessMetrics(registry, METRIC_PREFIX);
  const registers = [registry];
  const scrape = oncePerScrape();
  const { counter, gauge } = makers(registers);
  const metrics: Metrics = {
    registry,
    refreshOnScrape: scrape.set,
    ...reconcileMetrics(registers, scrape.collect),
    ...upgradeMetrics(registers, scrape.collect),
    ...poolMetrics(registers),
    ...syncMetrics(registers),
    ...purgeMetrics(registers),
    apiRequestsTotal: counter(
      'landlord_api_requests_total',
      'Requests made to the Kubernetes API server, by verb, resource and HTTP status code.',
      ['verb', 'resource', 'code'],
    ),
    apiRequestDuration: new Histogram({
      name: 'landlord_api_request_duration_seconds',
      help: 'Time from sending a request to the Kubernetes API server to reading its whole answer (watches not included), by verb and resource.',
      labelNames: ['verb', 'resource'],
      buckets: API_BUCKETS,
      registers,
    }),
    leader: gauge('landlord_leader', "1 while this replica holds its component's leader Lease, else 0."),
    memoryReturnsTotal: counter(
      'landlord_memory_returns_total',
      "Collections that handed V8's spare heap pages back to the system, by reason: quiet (after a burst) or pressure (near the memory request).",
      ['reason'],
    ),
  };
  // Known label values start at zero, so that rate() and absent() work before the first event.
  for (const result of RECONCILE_RESULTS) metrics.reconcileTotal.labels({ result }).inc(0);
  for (const result of SCAN_RESULTS) metrics.syncScansTotal.labels({ result }).inc(0);
  for (const cause of DELETION_CAUSES) metrics.syncDeletionsHeldBackTotal.labels({ cause }).inc(0);
  for (const cause of NOT_OWNED_CAUSES) metrics.syncNotOwnedTotal.labels({ cause }).inc(0);
  for (const result of ROW_STATUS_RESULTS) metrics.syncRowStatusWritesTotal.labels({ result }).inc(0);
  for (const state of TENANT_STATES) metrics.tenantStates.set({ state }, 0);
  for (const result of PURGE_RESULTS) metrics.purgesTotal.labels({ result }).inc(0);
  for (const phase of PURGE_PHASES) metrics.purges.set({ phase }, 0);
  for (const reason of RETURN_REASONS) metrics.memoryReturnsTotal.labels({ reason }).inc(0);
  return metrics;
}

type Registers = Registry[];

/** Counters and gauges of one set of registries, a line each: name (in full: names are an API), help, labels. */
interface Makers {
  counter: <L extends string = string>(name: string, help: string, labelNames?: readonly L[]) => Counter<L>;
  gauge: <L extends string = string>(
    name: string,
    help: string,
    labelNames?: readonly L[],
    collect?: () => void,
  ) => Gauge<L>;
}

function makers(registers: Registers): Makers {
  return {
    counter: (name, help, labelNames = []) => new Counter({ name, help, labelNames, registers }),
    gauge: (name, help, labelNames = [], collect) =>
      new Gauge({ name, help, labelNames, registers, ...(collect === undefined ? {} : { collect }) }),
  };
}

/** Scrapes read every gauge within this time; one refresh serves them all. */
const SCRAPE_MS = 1_000;

/**
 * A refresh shared by several gauges: each gauge's collect hook asks for it, and the first asking
 * in a scrape runs it, so one scrape makes one pass.
 */
function oncePerScrape(): { set: (refresh: (() => void) | undefined) => void; collect: () => void } {
  let refresh: (() => void) | undefined;
  let ranAt = -Infinity;
  return {
    set: (next) => {
      refresh = next;
      ranAt = -Infinity;
    },
    collect: () => {
      const now = performance.now();
      if (refresh === undefined || now - ranAt < SCRAPE_MS) return;
      ranAt = now;
      refresh();
    },
  };
}

function reconcileMetrics(
  registers: Registers,
  collect: () => void,
): Pick<
  Metrics,
  | 'reconcileTotal'
  | 'watchEventsTotal'
  | 'reconcileDuration'
  | 'queueDepth'
  | 'queueInFlight'
  | 'statusHoldSeconds'
  | 'tenants'
  | 'tenantStates'
  | 'tenantsPaused'
> {
  const { counter, gauge } = makers(registers);
  return {
    reconcileTotal: counter(
      'landlord_reconcile_total',
      'Reconciles by result: success, error, refused or requeue.',
      ['result'],
    ),
    watchEventsTotal: counter(
      'landlord_watch_events_total',
      'Watch events by kind: queued a reconcile, or skipped (a status write, the echo of its own apply).',
      ['kind', 'outcome'],
    ),
    reconcileDuration: new Histogram({
      name: 'landlord_reconcile_duration_seconds',
      help: 'Time one reconcile took.',
      buckets: RECONCILE_BUCKETS,
      registers,
    }),
    queueDepth: gauge('landlord_queue_depth', 'Keys ready to run.', [], collect),
    queueInFlight: gauge('landlord_queue_in_flight', 'Keys being handled.', [], collect),
    statusHoldSeconds: gauge(
      'landlord_status_hold_seconds',
      "How long a new generation's status waits for its rollout before it is written: 60 on a quiet cluster, up to 600 while rollouts are slow.",
      [],
      collect,
    ),
    tenants: gauge(
      'landlord_tenants',
      'Tenants by condition type and condition status.',
      ['condition', 'status'],
      collect,
    ),
    tenantStates: gauge(
      'landlord_tenant_states',
      'Tenants by the lifecycle state their spec asks for (active, suspended, archived, purged).',
      ['state'],
      collect,
    ),
    tenantsPaused: gauge(
      'landlord_tenants_paused',
      'Tenants paused by hand with the landlord.dev/paused annotation.',
      [],
      collect,
    ),
  };
}

/** The operator's upgrade budget (operator/rollout-budget.ts). */
function upgradeMetrics(
  registers: Registers,
  collect: () => void,
): Pick<Metrics, 'templateUpgradeDeployments'> {
  const { gauge } = makers(registers);
  return {
    templateUpgradeDeployments: gauge(
      'landlord_template_upgrade_deployments',
      "Deployments rolling out (rolling) or waiting to roll out (pending) a new release's change to the operator's pod template, at most LANDLORD_OPERATOR_UPGRADE_ROLLOUTS rolling.",
      ['state'],
      collect,
    ),
  };
}

/** The warm pools' (operator/pool/): claims by result, Ready members, claim-to-Ready time. */
function poolMetrics(
  registers: Registers,
): Pick<Metrics, 'poolClaimsTotal' | 'poolMembersReady' | 'poolClaimToReadySeconds'> {
  const { counter, gauge } = makers(registers);
  return {
    poolClaimsTotal: counter(
      'landlord_pool_claims_total',
      'New tenants of a class with a warm pool: warm (claimed a Ready member) or cold (none was Ready).',
      ['class', 'result'],
    ),
    poolMembersReady: gauge(
      'landlord_pool_members_ready',
      'Unclaimed warm pool members whose Deployment is available, by class.',
      ['class'],
    ),
    poolClaimToReadySeconds: new Histogram({
      name: 'landlord_pool_claim_to_ready_seconds',
      help: 'Seconds from placing a new pooled tenant (warm claim or cold namespace) to its first Ready.',
      labelNames: ['result'] as const,
      buckets: [0.1, 0.25, 0.5, 1, 2, 5, 10, 20, 30, 60, 120],
      registers,
    }),
  };
}

type SyncMetricName =
  | 'syncRowsScannedTotal'
  | 'syncScansTotal'
  | 'syncStreamLagSeconds'
  | 'syncDeletionsHeldBackTotal'
  | 'syncNotOwnedTotal'
  | 'syncInvalidRows'
  | 'syncWritesTotal'
  | 'syncRowStatusWritesTotal'
  | 'dynamodbRetriesTotal';

function syncMetrics(registers: Registers): Pick<Metrics, SyncMetricName> {
  const { counter, gauge } = makers(registers);
  return {
    syncRowsScannedTotal: counter('landlord_sync_rows_scanned_total', 'Table rows read by full scans.'),
    syncScansTotal: counter('landlord_sync_scans_total', 'Full table scans by result.', ['result']),
    syncStreamLagSeconds: gauge(
      'landlord_sync_stream_lag_seconds',
      'Age of the newest stream record when it was processed.',
    ),
    syncDeletionsHeldBackTotal: counter(
      'landlord_sync_deletions_held_back_total',
      'Tenant takedowns held back because a pass would have taken down more than the allowed share, by cause (rowGone, rowDeleted, archived, purged).',
      ['cause'],
    ),
    syncNotOwnedTotal: counter(
      'landlord_sync_not_owned_total',
      'Rows naming a Tenant that sync did not make from its table (left alone), once per conflict, by cause (unmarked, otherTable, otherCluster).',
      ['cause'],
    ),
    syncInvalidRows: gauge(
      'landlord_sync_invalid_rows',
      'Rows that failed validation in the last complete scan.',
    ),
    syncWritesTotal: counter('landlord_sync_writes_total', 'Writes made to Tenants, by kind.', ['kind']),
    syncRowStatusWritesTotal: counter(
      'landlord_sync_row_status_writes_total',
      "Conditional UpdateItems of rows' landlord attribute (LANDLORD_SYNC_ROW_STATUS), by result: written, or rowChanged (the row changed since it was read; nothing written).",
      ['result'],
    ),
    dynamodbRetriesTotal: counter(
      'landlord_dynamodb_retries_total',
      'DynamoDB calls retried, by operation.',
      ['operation'],
    ),
  };
}

type PurgeMetricName = 'purgeItemsDeletedTotal' | 'purgeThrottledTotal' | 'purgesTotal' | 'purges';

function purgeMetrics(registers: Registers): Pick<Metrics, PurgeMetricName> {
  const { counter, gauge } = makers(registers);
  return {
    purgeItemsDeletedTotal: counter(
      'landlord_purge_items_deleted_total',
      'Items the purger deleted from data tables, by table.',
      ['table'],
    ),
    purgeThrottledTotal: counter(
      'landlord_purge_throttled_total',
      'Purge write requests DynamoDB throttled (and that were retried), by table.',
      ['table'],
    ),
    purgesTotal: counter(
      'landlord_purges_total',
      'Purges of tenant data by result: started, completed, failed, cancelled, refused (not a Tenant of its tenant tables), heldBack (over the hourly budget).',
      ['result'],
    ),
    purges: gauge(
      'landlord_purges',
      'Tenants by the phase of their data purge (Scheduled, Running, Completed, Failed, Cancelled).',
      ['phase'],
    ),
  };
}
