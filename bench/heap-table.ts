// What each component's V8 heap holds per Tenant: the heap a process reported as it stopped at the
// end of a size (the lowest of its readings: close to live data, an upper bound all the same), less
// a reference, over the Tenants. The reference is the heap at rest with no tenant when the run
// measured it, else the run's smallest size (then the figure is the cost of each Tenant beyond it).
import { fixed, renderTable, type Column } from './measure/table.js';
import type { BenchReport, SizeResult } from './report.js';

/** The process whose heap stands for each component: the last one stopped in a quiet moment. */
const PROCESS = { sync: 'sync-resync', operator: 'operator-restarted' } as const;
type Component = keyof typeof PROCESS;

interface HeapRow {
  n: number;
  reference: string;
  sync?: number;
  operator?: number;
  syncPerTenant?: number;
  operatorPerTenant?: number;
}

function heapOf(result: SizeResult, component: Component): number | undefined {
  const used = result.landlord?.memory?.processes[PROCESS[component]]?.heapUsedMiB;
  return used === undefined || used === 0 ? undefined : used;
}

interface Reference {
  label: string;
  n: number;
  heap: (component: Component) => number | undefined;
}

function referenceOf(report: BenchReport, results: readonly SizeResult[]): Reference | undefined {
  const rest = report.rest !== undefined && !('error' in report.rest) ? report.rest : undefined;
  if (rest !== undefined)
    return { label: 'at rest', n: 0, heap: (c) => rest.components[c]?.heap.heapUsedMiB };
  const smallest = [...results].sort((a, b) => a.n - b.n)[0];
  if (smallest === undefined) return undefined;
  return { label: `N=${smallest.n}`, n: smallest.n, heap: (c) => heapOf(smallest, c) };
}

/** Bytes per Tenant beyond the reference, or undefined when either heap is missing. */
function perTenant(result: SizeResult, ref: Reference, component: Component): number | undefined {
  const heap = heapOf(result, component);
  const base = ref.heap(component);
  if (heap === undefined || base === undefined || result.n <= ref.n) return undefined;
  return ((heap - base) * 2 ** 20) / (result.n - ref.n);
}

export function heapRows(report: BenchReport, results: readonly SizeResult[]): HeapRow[] {
  const ref = referenceOf(report, results);
  return results.map((r) => ({
    n: r.n,
    reference: ref?.label ?? '–',
    sync: heapOf(r, 'sync'),
    operator: heapOf(r, 'operator'),
    ...(ref === undefined
      ? {}
      : { syncPerTenant: perTenant(r, ref, 'sync'), operatorPerTenant: perTenant(r, ref, 'operator') }),
  }));
}

const COLUMNS: Column<HeapRow>[] = [
  { title: 'N', value: (r) => String(r.n) },
  { title: 'sync heap MiB', value: (r) => fixed(r.sync) },
  { title: 'operator heap MiB', value: (r) => fixed(r.operator) },
  { title: 'beyond', value: (r) => r.reference },
  { title: 'sync bytes/tenant', value: (r) => fixed(r.syncPerTenant, 0) },
  { title: 'operator bytes/tenant', value: (r) => fixed(r.operatorPerTenant, 0) },
];

/** One row per size; empty when no size reported a heap. */
export function heapTable(report: BenchReport, results: readonly SizeResult[] = report.results): string {
  const rows = heapRows(report, results);
  if (!rows.some((r) => r.sync !== undefined || r.operator !== undefined)) return '';
  return `V8 heap used at the end of each size, and per Tenant:\n${renderTable(rows, COLUMNS)}`;
}
