// What the request-cost tools share: a phase makes N requests, 16 at a time, against one fresh
// control plane, and kube-apiserver's and etcd's CPU are read from /proc before and after; the
// tool prints a table and the figures as JSON. Each tool says only which phases it runs.
import { Command, InvalidArgumentError } from 'commander';
import { freshCluster, stopCluster, type BenchCluster } from '../cluster.js';
import { runPool, secondsSince } from '../pool.js';
import { childCpuTimes, cpuDelta } from './cpu.js';
import { fixed, renderTable, type Column } from './table.js';

const CONCURRENCY = 16;

export interface PhaseCost {
  phase: string;
  requests: number;
  apiServerCpuS: number;
  etcdCpuS: number;
  wallS: number;
}

/** Runs `request` for 0..n-1, 16 at a time, and what the API server and etcd spent meanwhile. */
export async function measurePhase(
  phase: string,
  n: number,
  request: (i: number) => Promise<unknown>,
): Promise<PhaseCost> {
  const before = childCpuTimes();
  const started = performance.now();
  await runPool(n, CONCURRENCY, async (i) => {
    await request(i);
  });
  const cpu = cpuDelta(before, childCpuTimes());
  return {
    phase,
    requests: n,
    apiServerCpuS: cpu['kube-apiserver'] ?? 0,
    etcdCpuS: cpu.etcd ?? 0,
    wallS: secondsSince(started),
  };
}

/** One tool: its name, what each of the N is (the unit of the per-request column), its phases. */
export interface RequestCostTool {
  name: string;
  unit: string;
  defaultN: number;
  /** Boolean options of the tool: `--name` → what it changes. */
  flags?: Record<string, string>;
  measure(bench: BenchCluster, n: number, flags: Record<string, boolean>): Promise<PhaseCost[]>;
}

const columns = (unit: string): Column<PhaseCost>[] => [
  { title: `phase (each N ${unit}s)`, value: (c) => c.phase },
  { title: 'API server CPU s', value: (c) => fixed(c.apiServerCpuS) },
  { title: `ms per ${unit}`, value: (c) => fixed((c.apiServerCpuS * 1000) / c.requests, 2) },
  { title: 'etcd CPU s', value: (c) => fixed(c.etcdCpuS) },
  { title: 'wall s', value: (c) => fixed(c.wallS) },
];

/** The tool's command line: `[N]`, a fresh control plane, the table, then the JSON. */
export async function runRequestCostTool(tool: RequestCostTool): Promise<void> {
  const parseCount = (value: string): number => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < 1)
      throw new InvalidArgumentError(`a positive whole number of ${tool.unit}s`);
    return n;
  };
  const command = new Command(tool.name).argument(
    '[n]',
    `${tool.unit}s per phase`,
    parseCount,
    tool.defaultN,
  );
  for (const [flag, description] of Object.entries(tool.flags ?? {}))
    command.option(`--${flag}`, description);
  command.parse();
  const n = command.processedArgs[0] as number;
  const flags = command.opts<Record<string, boolean>>();
  const bench = await freshCluster((line) => console.error(line));
  try {
    const costs = await tool.measure(bench, n, flags);
    console.log(`${renderTable(costs, columns(tool.unit))}\n${JSON.stringify({ n, flags, costs })}`);
  } finally {
    await stopCluster(bench.cluster);
  }
}
