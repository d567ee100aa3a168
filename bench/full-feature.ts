// The fullfeature scenario's two sides and its table: at each size, the plain PerTenant run (the
// default class as shipped) beside the same with every feature a platform turns on (two Secret
// copies, a Service and an Ingress, revision history, each row told its readiness), each against a
// baseline making its own objects, in one run so that the machine's load weighs on both alike.
// What a full tenant costs over a plain one is read as two ratios (goal ≤ 1.5): the API server's
// CPU per tenant of the cold convergence, and the operator's peak memory.
import type { BenchOptions } from './args.js';
import { fixed, renderTable, type Column } from './measure/table.js';
import type { FullFeatureResult, SizeResult } from './report.js';

/**
 * Deployments in each full-side row. One while rows hold a single Deployment; the row builder
 * (rows.ts `services`) already writes several as the planned array form, so the full side takes
 * two by raising this once sync and the operator accept it, and the baseline's waves
 * (tenancy.ts perTenantWaves) make as many.
 */
export const FULL_FEATURE_SERVICES = 1;

/** The plain side: the default class as shipped (revision history on, as deployed). */
export function plainOptions(options: BenchOptions): BenchOptions {
  return { ...options, expose: false, secrets: false, rowStatus: false, services: 1 };
}

/** The full side: secrets, exposure, row status and FULL_FEATURE_SERVICES Deployments per row. */
export function fullOptions(options: BenchOptions): BenchOptions {
  return { ...options, expose: true, secrets: true, rowStatus: true, services: FULL_FEATURE_SERVICES };
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

/** Both sides at every size, then the ratios; empty when the scenario did not run. */
export function fullFeatureTable(results: readonly FullFeatureResult[]): string {
  if (results.length === 0) return '';
  const title = `Full feature (secrets, expose, history, row status; ${FULL_FEATURE_SERVICES} Deployment per row) beside plain PerTenant:`;
  return [title, renderTable(fullFeatureRows(results), COLUMNS), ...results.map(ratioLine)].join('\n');
}
