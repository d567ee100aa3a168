// The fullfeature scenario's two sides and its table: at each size, the plain PerTenant run (the
// default class as shipped) beside the same with every feature a platform turns on (two Secret
// copies, a Service and an Ingress, revision history, each row told its readiness, two Deployments
// per row with a Service each, a database per tenant), each against a baseline making
// its own objects (and databases), in one run so that the machine's load weighs on both alike.
// What a full tenant costs over a plain one is read as two ratios (goal ≤ 1.5): the API server's
// CPU per tenant of the cold convergence, and the operator's peak memory. What row status costs the
// table is read from sync's DynamoDB calls, counted on both sides.
import type { BenchOptions } from './args.js';
import type { DynamoCalls } from './dynamo-calls.js';
import type { CpuTimes } from './measure/cpu.js';
import { fixed, pair, renderTable, type Column } from './measure/table.js';
import type { FullFeatureResult, SizeResult } from './report.js';

/**
 * Deployments in each full-side row, as the row's array form (rows.ts `services`), each with a
 * port and so a Service of its own; the baseline's waves (tenancy.ts perTenantWaves) make as many.
 */
export const FULL_FEATURE_SERVICES = 2;

/** The plain side: the default class as shipped (revision history on, as deployed). */
export function plainOptions(options: BenchOptions): BenchOptions {
  return {
    ...options,
    expose: false,
    secrets: false,
    rowStatus: false,
    services: 1,
    databases: false,
    dynamoCalls: true,
  };
}

/** The full side: secrets, exposure, row status, FULL_FEATURE_SERVICES Deployments per row, a database. */
export function fullOptions(options: BenchOptions): BenchOptions {
  return {
    ...options,
    expose: true,
    secrets: true,
    rowStatus: true,
    services: FULL_FEATURE_SERVICES,
    databases: true,
    dynamoCalls: true,
  };
}

/** CPU seconds of the database server (`postgres` and its backends, or `mariadbd`), undefined when none ran. */
export function databaseCpuSeconds(cpu: CpuTimes | undefined): number | undefined {
  const server = (name: string): boolean => name.startsWith('postgres') || name.startsWith('mariadb');
  const entries = Object.entries(cpu ?? {}).filter(([name]) => server(name));
  return entries.length === 0 ? undefined : entries.reduce((sum, [, seconds]) => sum + seconds, 0);
}

/** What telling rows their readiness cost the table over a cold convergence, per tenant. */
export interface RowStatusCost {
  /** Conditional UpdateItems per tenant (written or refused). */
  writesPerTenant: number;
  /** Strongly consistent GetItems per tenant (the read before each write). */
  readsPerTenant: number;
  /** The row's size with its `landlord` attribute, as a steady scan read it. */
  rowBytes: number;
  /** Units per tenant at DynamoDB's prices: a strongly consistent read 1 per 4 KB, a write 1 per 1 KB. */
  readUnitsPerTenant: number;
  writeUnitsPerTenant: number;
}

const perTenant = (count: number, n: number): number => Math.round((count / n) * 100) / 100;

/** From the full side's cold calls and its steady scan; undefined when either was not measured. */
export function rowStatusCost(result: SizeResult): RowStatusCost | undefined {
  const calls: DynamoCalls | undefined = result.landlord?.cold?.dynamoCalls;
  const scan = result.landlord?.steady?.dynamodb;
  if (calls === undefined || scan === undefined || scan.items === 0) return undefined;
  const rowBytes = Math.round(scan.bytes / scan.items);
  const writes = calls.UpdateItem ?? 0;
  const reads = calls.GetItem ?? 0;
  return {
    writesPerTenant: perTenant(writes, result.n),
    readsPerTenant: perTenant(reads, result.n),
    rowBytes,
    readUnitsPerTenant: perTenant(reads * Math.ceil(rowBytes / 4096), result.n),
    writeUnitsPerTenant: perTenant(writes * Math.ceil(rowBytes / 1024), result.n),
  };
}

/** Milliseconds of kube-apiserver CPU per tenant in a cold convergence, landlord's or the baseline's. */
export function apiServerMsPerTenant(result: SizeResult, side: 'landlord' | 'baseline'): number | undefined {
  const cpu = side === 'landlord' ? result.landlord?.cold?.cpuSeconds : result.baseline?.cpuSeconds;
  const seconds = cpu?.['kube-apiserver'];
  return seconds === undefined ? undefined : (seconds * 1000) / result.n;
}

const ratio = (a: number | undefined, b: number | undefined): number | undefined =>
  a === undefined || b === undefined || b === 0 ? undefined : Math.round((a / b) * 100) / 100;

export function fullOverPlain(plain: SizeResult, full: SizeResult): FullFeatureResult['fullOverPlain'] {
  return {
    apiServerCpu: ratio(apiServerMsPerTenant(full, 'landlord'), apiServerMsPerTenant(plain, 'landlord')),
    operatorMemory: ratio(full.landlord?.memory?.operatorPeakMiB, plain.landlord?.memory?.operatorPeakMiB),
  };
}

interface Row {
  mode: 'plain' | 'full';
  result: SizeResult;
}

const COLUMNS: Column<Row>[] = [
  { title: 'N', value: (r) => String(r.result.n) },
  { title: 'mode', value: (r) => r.mode },
  { title: 'ratio', value: (r) => fixed(r.result.ratio, 2) },
  { title: 'landlord s', value: (r) => fixed(r.result.landlord?.cold?.seconds) },
  { title: 'baseline s', value: (r) => fixed(r.result.baseline?.seconds) },
  { title: 'API CPU ms/tenant', value: (r) => fixed(apiServerMsPerTenant(r.result, 'landlord')) },
  { title: 'baseline', value: (r) => fixed(apiServerMsPerTenant(r.result, 'baseline')) },
  {
    title: 'database CPU s',
    value: (r) =>
      r.mode === 'plain'
        ? '–'
        : `${fixed(databaseCpuSeconds(r.result.landlord?.cold?.cpuSeconds))}/${fixed(databaseCpuSeconds(r.result.baseline?.cpuSeconds))}`,
  },
  { title: 'sync MiB', value: (r) => fixed(r.result.landlord?.memory?.syncPeakMiB, 0) },
  { title: 'operator MiB', value: (r) => fixed(r.result.landlord?.memory?.operatorPeakMiB, 0) },
  {
    title: 'steady r/w',
    value: (r) => {
      const s = r.result.landlord?.steady;
      return s === undefined
        ? '–'
        : `${s.sync.reads + s.operator.reads}/${s.sync.writes + s.operator.writes}`;
    },
  },
  {
    title: 'edit p50/p99 ms',
    value: (r) => pair(r.result.landlord?.edits?.stream.p50Ms, r.result.landlord?.edits?.stream.p99Ms),
  },
  {
    title: 'restart writes op/sync',
    value: (r) =>
      `${r.result.landlord?.recovery?.writes ?? '–'}/${r.result.landlord?.syncRestart?.writes ?? '–'}`,
  },
  {
    title: 'row status steady/restart',
    value: (r) =>
      r.mode === 'plain'
        ? '–'
        : `${r.result.landlord?.steady?.rowStatusWrites ?? '–'}/${r.result.landlord?.syncRestart?.rowStatusWrites ?? '–'}`,
  },
];

/** The table's rows: plain then full at each size. */
export function fullFeatureRows(results: readonly FullFeatureResult[]): Row[] {
  return results.flatMap((r): Row[] => [
    { mode: 'plain', result: r.plain },
    { mode: 'full', result: r.full },
  ]);
}

function ratioLine(r: FullFeatureResult): string {
  const { apiServerCpu, operatorMemory } = r.fullOverPlain;
  return `N = ${r.n}, full over plain (goal ≤ 1.5): API server CPU per tenant ${fixed(apiServerCpu, 2)}, operator peak memory ${fixed(operatorMemory, 2)}`;
}

function rowStatusLine(r: FullFeatureResult): string {
  const cost = rowStatusCost(r.full);
  if (cost === undefined) return `N = ${r.n}, row status: not measured`;
  return `N = ${r.n}, row status per tenant, cold: ${cost.writesPerTenant} UpdateItem (${cost.writeUnitsPerTenant} WCU), ${cost.readsPerTenant} GetItem (${cost.readUnitsPerTenant} RCU, strongly consistent); row ${cost.rowBytes} B`;
}

/** Both sides at every size, then the ratios; empty when the scenario did not run. */
export function fullFeatureTable(results: readonly FullFeatureResult[]): string {
  if (results.length === 0) return '';
  const server = (results[0]?.databaseEngine ?? 'postgres') === 'postgres' ? 'PostgreSQL' : 'MariaDB';
  const title = `Full feature (secrets, expose, history, row status, ${FULL_FEATURE_SERVICES} Deployments per row, a ${server} database) beside plain PerTenant:`;
  const lines = results.flatMap((r) => [ratioLine(r), rowStatusLine(r)]);
  return [title, renderTable(fullFeatureRows(results), COLUMNS), ...lines].join('\n');
}
