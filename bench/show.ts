// Prints the table of a results file again: node dist/bench/show.js [bench/results/latest.json]
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { repoRoot } from '../harness/paths.js';
import { cpuTable } from './cpu-table.js';
import { heapByKindTable } from './heap-by-kind-table.js';
import { heapTable } from './heap-table.js';
import { resultsTable, type BenchReport } from './report.js';
import { requestsTable } from './requests-table.js';
import { perTenantTables } from './tenancy-table.js';

const file = process.argv[2] ?? join(repoRoot, 'bench', 'results', 'latest.json');
const report = JSON.parse(await readFile(file, 'utf8')) as BenchReport;
console.log(resultsTable(report.results));
console.log(`\n${requestsTable(report.results)}`);
for (const table of [cpuTable(report.results), heapTable(report), heapByKindTable(report)])
  if (table !== '') console.log(`\n${table}`);
const perTenant = perTenantTables(report);
if (perTenant !== '') console.log(`\n${perTenant}`);
const perTenantHeap = heapTable(report, report.pertenant ?? []);
if (perTenantHeap !== '') console.log(`\nPerTenant: ${perTenantHeap}`);
const { machine } = report;
const load = machine.loadAverage.join(' ');
console.log(`\n${machine.cpus} × ${machine.cpuModel}, ${machine.memoryGiB} GiB, Node ${machine.node}`);
console.log(`${machine.kernel}; load average at start ${load}`);
