// The table of --heap-by-kind (heap-by-kind.ts): bytes per Tenant by the cache or index that holds
// them, one column per landlord run of the report that measured it.
import type { HeapByKind } from './heap-by-kind.js';
import { renderTable, type Column } from './measure/table.js';
import type { BenchReport, SizeResult } from './report.js';

interface HeapRun {
  label: string;
  result: HeapByKind;
}

/** Every landlord run of the report that measured its heap by holder. */
function heapRuns(report: BenchReport): HeapRun[] {
  const runs: HeapRun[] = [];
  const add = (label: string, size: SizeResult): void => {
    const measured = size.landlord?.heapByKind;
    if (measured !== undefined && !('error' in measured)) runs.push({ label, result: measured });
  };
  for (const size of report.results) add(`Shared ${size.n}`, size);
  for (const size of report.pertenant ?? []) add(`PerTenant ${size.n}`, size);
  for (const r of report.fullfeature ?? []) {
    add(`plain ${r.n}`, r.plain);
    add(`full ${r.n}`, r.full);
  }
  return runs;
}

const perTenant = (bytes: number | undefined, tenants: number): string =>
  bytes === undefined ? '–' : Math.round(bytes / tenants).toLocaleString('en-US');

/** Bytes per Tenant by holder, one column per run; '' when no run measured it. */
export function heapByKindTable(report: BenchReport): string {
  const runs = heapRuns(report);
  if (runs.length === 0) return '';
  const names = [...new Set(runs.flatMap((r) => r.result.holders.map((h) => h.holder)))];
  const bytesOf = (run: HeapRun, holder: string): number | undefined => {
    const found = run.result.holders.filter((h) => h.holder === holder);
    return found.length === 0 ? undefined : found.reduce((sum, h) => sum + h.bytes, 0);
  };
  const held = (run: HeapRun): number => run.result.holders.reduce((sum, h) => sum + h.bytes, 0);
  const rows = [
    ...names.map((name) => ({ name, bytes: (run: HeapRun) => bytesOf(run, name) })),
    { name: 'the rest (code, modules, shared)', bytes: (run: HeapRun) => run.result.heapBytes - held(run) },
    { name: 'live heap', bytes: (run: HeapRun) => run.result.heapBytes },
  ];
  const columns: Column<(typeof rows)[number]>[] = [
    { title: 'operator heap, bytes per Tenant', value: (row) => row.name },
    ...runs.map((run) => ({
      title: run.label,
      value: (row: (typeof rows)[number]) => perTenant(row.bytes(run), run.result.tenants),
    })),
  ];
  const snapshots = runs.map((r) => `${r.label}: ${r.result.snapshot}`).join('\n');
  return `${renderTable(rows, columns)}\nsnapshots (open in Chrome DevTools' Memory tab):\n${snapshots}`;
}
