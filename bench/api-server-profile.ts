// Where kube-apiserver's CPU went, from CPU profiles of it: each profile's sampled stacks put in
// the groups of bench/measure/api-server-work.ts, side by side, so that a baseline phase and
// landlord's can be compared. Take the profiles from a benchmark run with
// LANDLORD_APISERVER_PROFILING=1 (docs/performance.md, "Running the benchmark"):
//
//   kubectl --kubeconfig /tmp/landlord-e2e-<id>/admin.kubeconfig get --raw '/debug/pprof/profile?seconds=60' > landlord.pprof
//   npm run build && scripts/node24 dist/bench/api-server-profile.js baseline.pprof landlord.pprof
import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { Command } from 'commander';
import { sampledStacks } from './measure/go-profile.js';
import { WORK_GROUPS, cpuByWork } from './measure/api-server-work.js';
import { fixed, renderTable, type Column } from './measure/table.js';

interface Row {
  group: string;
  /** CPU seconds per profile, in the order given. */
  seconds: number[];
}

/** One row per group any profile sampled, then the totals. */
function rows(byWork: Map<string, number>[]): Row[] {
  const groups = WORK_GROUPS.filter((group) => byWork.some((totals) => totals.has(group)));
  return [
    ...groups.map((group) => ({ group, seconds: byWork.map((totals) => totals.get(group) ?? 0) })),
    { group: 'all', seconds: byWork.map(total) },
  ];
}

const total = (totals: Map<string, number>): number => [...totals.values()].reduce((a, b) => a + b, 0);

/** The group, then each profile's CPU seconds and its share of that profile's total. */
function columns(names: string[], totals: number[]): Column<Row>[] {
  return [
    { title: 'API server work', value: (row) => row.group },
    ...names.flatMap((name, i): Column<Row>[] => [
      { title: `${name} CPU s`, value: (row) => fixed(row.seconds[i], 2) },
      { title: `${name} %`, value: (row) => fixed((100 * row.seconds[i]!) / totals[i]!) },
    ]),
  ];
}

const command = new Command('api-server-profile')
  .argument('<profiles...>', 'kube-apiserver CPU profiles (/debug/pprof/profile)')
  .parse();
const files = command.processedArgs[0] as string[];
const byWork = await Promise.all(files.map(async (file) => cpuByWork(sampledStacks(await readFile(file)))));
const names = files.map((file) => basename(file));
console.log(renderTable(rows(byWork), columns(names, byWork.map(total))));
