// Who spent the machine's CPU during each cold convergence, baseline and landlord side by side.
// On this two-core machine both runs keep the cores busy, so the wall-time ratio is close to the
// ratio of CPU spent, and this table says where the difference went: landlord's own processes, the
// API server serving its requests, or the harness (kwok, the controllers) doing more in one run
// than in the other. The watches the API server closed for falling behind are the usual sign of
// the last: each is a re-watch, and under load they come in bursts.
import { fixed, renderTable, type Column } from './measure/table.js';
import type { SizeResult } from './report.js';

interface CpuRow {
  process: string;
  baseline?: number;
  landlord?: number;
}

const TOTAL = 'every process';
const CORES = 'cores busy (CPU s / wall s)';

function sum(times: Record<string, number> | undefined): number | undefined {
  return times === undefined ? undefined : Object.values(times).reduce((a, b) => a + b, 0);
}

/** One row per process, most CPU in landlord's run first, then the total and the cores kept busy. */
export function cpuRows(result: SizeResult): CpuRow[] {
  const baseline = result.baseline?.cpuSeconds;
  const landlord = result.landlord?.cold?.cpuSeconds;
  const names = [...new Set([...Object.keys(baseline ?? {}), ...Object.keys(landlord ?? {})])];
  const cpuOf = (times: Record<string, number> | undefined, process: string): number | undefined =>
    times === undefined ? undefined : (times[process] ?? 0);
  const rows: CpuRow[] = names
    .map((process) => ({ process, baseline: cpuOf(baseline, process), landlord: cpuOf(landlord, process) }))
    .sort((a, b) => (b.landlord ?? 0) - (a.landlord ?? 0) || a.process.localeCompare(b.process));
  const totals = { baseline: sum(baseline), landlord: sum(landlord) };
  const perSecond = (cpu: number | undefined, seconds: number | undefined): number | undefined =>
    cpu === undefined || seconds === undefined || seconds === 0 ? undefined : cpu / seconds;
  return [
    ...rows,
    { process: TOTAL, ...totals },
    {
      process: CORES,
      baseline: perSecond(totals.baseline, result.baseline?.seconds),
      landlord: perSecond(totals.landlord, result.landlord?.cold?.seconds),
    },
  ];
}

const COLUMNS: Column<CpuRow>[] = [
  { title: 'CPU seconds (cold)', value: (r) => r.process },
  { title: 'baseline', value: (r) => fixed(r.baseline, r.process === CORES ? 2 : 1) },
  { title: 'landlord', value: (r) => fixed(r.landlord, r.process === CORES ? 2 : 1) },
];

function watchersLine(result: SizeResult): string {
  const describe = (closed: Record<string, number> | undefined): string => {
    if (closed === undefined) return '–';
    const entries = Object.entries(closed).sort((a, b) => b[1] - a[1]);
    const total = entries.reduce((a, [, n]) => a + n, 0);
    return entries.length === 0 ? '0' : `${total} (${entries.map(([r, n]) => `${r} ${n}`).join(', ')})`;
  };
  return (
    `watches the API server closed for falling behind: baseline ${describe(result.baseline?.apiServer.terminatedWatchers)}` +
    `, landlord ${describe(result.landlord?.cold?.apiServer.terminatedWatchers)}`
  );
}

function ratioLine(result: SizeResult, rows: readonly CpuRow[]): string {
  const total = rows.find((r) => r.process === TOTAL);
  const cpuRatio =
    total?.baseline === undefined || total.landlord === undefined || total.baseline === 0
      ? undefined
      : total.landlord / total.baseline;
  return `CPU of every process, landlord over baseline: ${fixed(cpuRatio, 2)} (wall time: ${fixed(result.ratio, 2)})`;
}

/** One table per size that has a cold convergence (the baseline's column is blank without one). */
export function cpuTable(results: readonly SizeResult[]): string {
  return results
    .filter((r) => r.landlord?.cold?.cpuSeconds !== undefined)
    .map((r) => {
      const rows = cpuRows(r);
      return `N = ${r.n}\n${renderTable(rows, COLUMNS)}\n${ratioLine(r, rows)}\n${watchersLine(r)}`;
    })
    .join('\n\n');
}
