// The results: the JSON written to bench/results, the table printed at the end, and the list of
// metrics every size must carry (the quick e2e test checks the JSON against it).
import type { DatabaseEngine } from '../api/tenantclass.js';
import type { MachineInfo } from './machine.js';
import { fixed, pair, renderTable, type Column } from './measure/table.js';
import type { BaselineResult } from './scenarios/baseline.js';
import type { LandlordResult } from './scenarios/landlord.js';
import type { PurgeBenchResult, PurgeNetworkResult } from './scenarios/purge.js';
import type { MultiClusterResult } from './scenarios/multicluster.js';
import type { RestComponentResult, RestResult } from './scenarios/rest.js';
import type { WarmPoolResult } from './scenarios/warm-pool.js';
import type { SignupResult } from './scenarios/signups.js';

export interface SizeResult {
  n: number;
  baseline?: BaselineResult;
  /** What landlord's run measured; a run that failed part-way keeps what it had. */
  landlord?: Partial<LandlordResult>;
  /** landlord's cold convergence time over the baseline's (goal ≤ 1.5). */
  ratio?: number;
  error?: string;
}

/** The fullfeature scenario at one size: plain PerTenant and full-feature, each against its baseline. */
export interface FullFeatureResult {
  n: number;
  /** The full side's database engine (absent in reports from before --database-engine: postgres). */
  databaseEngine?: DatabaseEngine;
  plain: SizeResult;
  full: SizeResult;
  /** Full over plain: the API server's CPU per tenant (cold) and the operator's peak RSS (goal ≤ 1.5 each). */
  fullOverPlain: { apiServerCpu?: number; operatorMemory?: number };
}

export interface BenchReport {
  startedAt: string;
  finishedAt?: string;
  mode: 'quick' | 'full';
  sizes: number[];
  settings: Record<string, number | string | boolean>;
  machine: MachineInfo;
  runDir: string;
  results: SizeResult[];
  /** The landlord scenario under the PerTenant default class, per size, when it ran. */
  pertenant?: SizeResult[];
  /** Plain PerTenant beside full-feature, per size, when it ran. */
  fullfeature?: FullFeatureResult[];
  /** Signups at a steady rate during edits and a class rollout, per size, when it ran. */
  signups?: (SignupResult | { n: number; error: string })[];
  /** Signups with and without a warm pool, per size, when it ran. */
  warmpool?: (WarmPoolResult | { n: number; error: string })[];
  /** The purge scenario (not per size), when it ran. */
  purge?: PurgeBenchResult | { error: string };
  /** Three clusters fed from one table, when it ran. */
  multicluster?: MultiClusterResult | { error: string };
  /** Each component's memory at rest with no tenant, when it ran. */
  rest?: RestResult | { error: string };
}

/** Dotted paths into a SizeResult that must hold a number for the run to count as complete. */
export const REQUIRED_METRICS = [
  'baseline.seconds',
  'landlord.cold.seconds',
  'landlord.cold.tenantsPerSecond',
  'baseline.settled.apiServer.landlordWrites',
  'landlord.cold.settled.apiServer.landlordWrites',
  'ratio',
  'landlord.steady.apiServer.reads',
  'landlord.steady.apiServer.writes',
  'landlord.steady.apiServer.landlordWrites',
  'landlord.steady.sync.writes',
  'landlord.steady.operator.writes',
  'landlord.steady.dynamodb.computedRcu',
  'landlord.edits.stream.p50Ms',
  'landlord.edits.stream.p99Ms',
  'landlord.edits.poll.p50Ms',
  'landlord.edits.poll.p99Ms',
  'landlord.memory.syncPeakMiB',
  'landlord.memory.operatorPeakMiB',
  'landlord.memory.processes.sync-resync.heapUsedMiB',
  'landlord.memory.processes.operator-restarted.heapUsedMiB',
  'landlord.recovery.seconds',
  'landlord.recovery.writes',
  'landlord.syncRestart.writes',
] as const;

/** A PerTenant size edits through the stream only: polling is measured in the Shared run. */
export const REQUIRED_PERTENANT_METRICS: readonly string[] = REQUIRED_METRICS.filter(
  (path) => !path.startsWith('landlord.edits.poll.'),
);

export function metricAt(result: unknown, path: string): unknown {
  return path
    .split('.')
    .reduce<unknown>((value, key) => (value as Record<string, unknown> | undefined)?.[key], result);
}

export function missingMetrics(result: SizeResult, required: readonly string[] = REQUIRED_METRICS): string[] {
  return required.filter((path) => {
    const value = metricAt(result, path);
    return typeof value !== 'number' || Number.isNaN(value);
  });
}

const COLUMNS: Column<SizeResult>[] = [
  { title: 'N', value: (r) => String(r.n) },
  { title: 'landlord s', value: (r) => fixed(r.landlord?.cold?.seconds) },
  { title: 'baseline s', value: (r) => fixed(r.baseline?.seconds) },
  { title: 'ratio', value: (r) => fixed(r.ratio, 2) },
  { title: 'tenants/s', value: (r) => fixed(r.landlord?.cold?.tenantsPerSecond) },
  {
    // landlord's own count (sync + operator); the API server's totals, which include other
    // clients, are in the JSON next to it.
    title: 'steady r/w',
    value: (r) => {
      const s = r.landlord?.steady;
      return s === undefined
        ? '–'
        : `${s.sync.reads + s.operator.reads}/${s.sync.writes + s.operator.writes}`;
    },
  },
  { title: 'RCU/resync', value: (r) => fixed(r.landlord?.steady?.dynamodb.computedRcu, 0) },
  {
    title: 'edit p50/p99 stream ms',
    value: (r) => pair(r.landlord?.edits?.stream.p50Ms, r.landlord?.edits?.stream.p99Ms),
  },
  {
    title: 'edit p50/p99 poll ms',
    value: (r) => pair(r.landlord?.edits?.poll?.p50Ms, r.landlord?.edits?.poll?.p99Ms),
  },
  { title: 'sync MiB', value: (r) => fixed(r.landlord?.memory?.syncPeakMiB, 0) },
  { title: 'operator MiB', value: (r) => fixed(r.landlord?.memory?.operatorPeakMiB, 0) },
  {
    title: 'recovery s/writes',
    value: (r) => {
      const rec = r.landlord?.recovery;
      return rec === undefined ? '–' : `${fixed(rec.seconds)}/${rec.writes}`;
    },
  },
];

export function resultsTable(results: readonly SizeResult[]): string {
  return renderTable(results, COLUMNS);
}

const PURGE_COLUMNS: Column<PurgeNetworkResult>[] = [
  { title: 'purge: network', value: (r) => r.network },
  { title: 'baseline items/s', value: (r) => fixed(r.baseline.itemsPerSecond, 0) },
  { title: 'engine items/s', value: (r) => fixed(r.engine.itemsPerSecond, 0) },
  { title: 'ratio', value: (r) => fixed(r.ratio, 2) },
  { title: 'ceiling', value: (r) => String(r.ceiling.limit) },
  { title: 'under ceiling items/s', value: (r) => fixed(r.ceiling.itemsPerSecond, 0) },
  { title: 'kept', value: (r) => (r.ceiling.withinLimit ? 'yes' : 'NO') },
];

/** One row per network (loopback, loopback + latency): items/s medians of each mode. */
export function purgeTable(purge: PurgeBenchResult): string {
  return renderTable(purge.networks, PURGE_COLUMNS);
}

type RestRow = { name: string; goalMiB: number } & RestComponentResult;

const REST_COLUMNS: Column<RestRow>[] = [
  { title: 'at rest, no tenant', value: (r) => r.name },
  { title: 'RSS MiB', value: (r) => fixed(r.restMiB) },
  { title: 'goal MiB', value: (r) => String(r.goalMiB) },
  { title: 'met', value: (r) => (r.withinGoal ? 'yes' : 'NO') },
  { title: 'peak MiB', value: (r) => fixed(r.peakMiB) },
  {
    title: 'heap used/total MiB',
    value: (r) => `${fixed(r.heap.heapUsedMiB)}/${fixed(r.heap.heapTotalMiB)}`,
  },
  { title: 'ready s', value: (r) => fixed(r.readySeconds) },
];

/** One row per component: the median resident set at rest beside the goal. */
export function restTable(rest: RestResult): string {
  const rows = Object.entries(rest.components).map(([name, r]) => ({ name, goalMiB: rest.goalMiB, ...r }));
  return renderTable(rows, REST_COLUMNS);
}

const WARM_POOL_COLUMNS: Column<WarmPoolResult>[] = [
  { title: 'signups at N', value: (r) => String(r.tenants) },
  { title: 'pool', value: (r) => String(r.poolSize) },
  { title: 'app start s', value: (r) => String(r.appStartSeconds) },
  { title: 'warm p50/p99 ms', value: (r) => `${fixed(r.warm.p50Ms, 0)}/${fixed(r.warm.p99Ms, 0)}` },
  { title: 'claims', value: (r) => `${r.warmClaims}/${r.warm.count}` },
  { title: 'cold p50/p99 ms', value: (r) => `${fixed(r.cold.p50Ms, 0)}/${fixed(r.cold.p99Ms, 0)}` },
  { title: 'cold/warm p50', value: (r) => fixed(r.ratioP50) },
];

/** One row per size: a signup's row-to-Ready with a warm pool and without. */
export function warmPoolTable(results: readonly (WarmPoolResult | { error: string })[]): string {
  const done = results.filter((r): r is WarmPoolResult => !('error' in r));
  return done.length === 0 ? '' : renderTable(done, WARM_POOL_COLUMNS);
}
