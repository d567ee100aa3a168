// `npm run bench`: for each N, the client-node baseline on one fresh cluster, then landlord on
// another, each measured as bench/scenarios describe; a table at the end and the JSON in
// bench/results (<timestamp>.json and latest.json, rewritten after every N so a late failure
// keeps the earlier sizes).
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { CommanderError } from 'commander';
import { parseArgs, type BenchOptions } from './args.js';
import { stopAllClusters } from './cluster.js';
import { stopAllComponents } from './component.js';
import { DEFAULT_CONCURRENCY, deployedNodeOptions } from './deployed.js';
import { limitGoMemory } from './go-memory.js';
import { cpuTable } from './cpu-table.js';
import { heapByKindTable } from './heap-by-kind-table.js';
import { heapTable } from './heap-table.js';
import { describeMachine, loadAverage } from './machine.js';
import {
  purgeTable,
  restTable,
  resultsTable,
  warmPoolTable,
  type BenchReport,
  type FullFeatureResult,
  type SizeResult,
} from './report.js';
import { requestsTable } from './requests-table.js';
import type { RunContext } from './run-context.js';
import { runBaseline } from './scenarios/baseline.js';
import { runLandlord } from './scenarios/landlord.js';
import { runPurgeBench } from './scenarios/purge.js';
import { runMultiCluster } from './scenarios/multicluster.js';
import { runRest } from './scenarios/rest.js';
import { runWarmPool } from './scenarios/warm-pool.js';
import {
  FULL_FEATURE_SERVICES,
  fullFeatureTable,
  fullOptions,
  fullOverPlain,
  plainOptions,
} from './full-feature.js';
import { runSignups } from './scenarios/signups.js';
import { signupTable } from './signup-table.js';
import { perTenantTables } from './tenancy-table.js';
import type { Tenancy } from './tenancy.js';

function print(line: string): void {
  console.log(`${new Date().toISOString().slice(11, 19)} ${line}`);
}

/**
 * The resync interval of the steady-state window: the operator's minimum (20 s) up to 5,000 Tenants,
 * then 6 ms per Tenant. A pass costs ~2.7 ms of CPU per Tenant at 10,000; an interval shorter than
 * a pass runs passes back to back, which measures a machine that never rests, not a steady state.
 */
export function benchResyncSeconds(n: number, quick: boolean): number {
  return quick ? 10 : Math.max(20, Math.ceil(n * 0.006));
}

function context(options: BenchOptions, runDir: string): RunContext {
  return {
    options,
    concurrency: DEFAULT_CONCURRENCY,
    resyncSeconds: (n) => benchResyncSeconds(n, options.quick),
    pollSeconds: 1,
    runDir,
    print,
    log: (line) => print(`cluster: ${line}`),
    // Up to 30 minutes at 5,000 tenants, never under 5.
    timeoutMs: (n) => Math.max(300_000, n * 360),
    loadAverage,
  };
}

/** The landlord scenario at one size, Shared or under the PerTenant default class, each against its baseline. */
async function runSize(n: number, ctx: RunContext, tenancy: Tenancy = 'shared'): Promise<SizeResult> {
  const result: SizeResult = { n };
  const words = [`N=${n}`, ...(tenancy === 'shared' ? [] : ['PerTenant']), ...variant(ctx.options)];
  const tag = `[${words.join(' ')}]`;
  try {
    if (ctx.options.baseline) {
      print(`${tag} baseline: fresh cluster, ${n} tenants' objects via client-node`);
      result.baseline = await runBaseline(n, ctx, tenancy);
      print(`${tag} baseline: ${result.baseline.seconds} s`);
    }
    print(`${tag} landlord: fresh cluster, ${n} rows, sync + operator`);
    result.landlord = {};
    await runLandlord(n, ctx, result.landlord, tenancy);
    if (result.baseline !== undefined && result.landlord.cold !== undefined) {
      result.ratio = Math.round((result.landlord.cold.seconds / result.baseline.seconds) * 100) / 100;
    }
  } catch (err) {
    result.error = err instanceof Error ? (err.stack ?? err.message) : String(err);
    print(`${tag} failed: ${result.error}`);
  }
  return result;
}

async function save(report: BenchReport, outDir: string, stamp: string): Promise<void> {
  const text = `${JSON.stringify(report, null, 2)}\n`;
  await writeFile(join(outDir, `${stamp}.json`), text);
  await writeFile(join(outDir, 'latest.json'), text);
}

async function main(args: readonly string[]): Promise<number> {
  let options: BenchOptions;
  try {
    options = parseArgs(args);
  } catch (err) {
    // commander has printed the help, or the mistake in one line.
    if (err instanceof CommanderError) return err.exitCode === 0 ? 0 : 2;
    throw err;
  }
  const goMemLimit = limitGoMemory();
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const runDir = join(options.outDir, stamp);
  await mkdir(runDir, { recursive: true });
  const ctx = context(options, runDir);
  const report: BenchReport = {
    startedAt: new Date().toISOString(),
    mode: options.quick ? 'quick' : 'full',
    sizes: options.sizes,
    settings: {
      concurrency: ctx.concurrency,
      resyncSeconds: options.sizes.map((n) => `N=${n}: ${ctx.resyncSeconds(n)} s`).join(', '),
      pollSeconds: ctx.pollSeconds,
      editsPerMode: options.edits,
      leaderElection: false,
      profile: options.profile,
      heapByKind: options.heapByKind,
      nodeOptions:
        options.nodeOptions ??
        `deployed: sync ${deployedNodeOptions('sync')}; operator ${deployedNodeOptions('operator')}; operator's old-space cap +10 MiB per 1,000 tenants beyond 5,000 (PerTenant: +8 MiB per 1,000 beyond 2,000; with the class's features on, +16), sync's as deployed`,
      nodeFlags: options.nodeFlags.join(' '),
      scenarios: options.scenarios.join(','),
      pods: options.pods,
      expose: options.expose,
      secrets: options.secrets,
      headlessServices: options.headlessServices,
      goMemLimit,
      signupRate: options.signups.rate,
      signupSeconds: options.signups.seconds,
      signupEditRate: options.signups.editRate,
    },
    machine: describeMachine(),
    runDir,
    results: [],
  };
  print(`landlord bench: ${[planned(options), ...variant(options)].join(', ')}; logs in ${runDir}`);
  await runScenarios(report, ctx, stamp);
  report.finishedAt = new Date().toISOString();
  await save(report, options.outDir, stamp);
  printTables(report);
  print(`results: ${join(options.outDir, `${stamp}.json`)}`);
  const failed = [
    report.purge,
    report.multicluster,
    report.rest,
    ...(report.warmpool ?? []),
    ...(report.signups ?? []),
  ].some((r) => r !== undefined && 'error' in r);
  const full = (report.fullfeature ?? []).flatMap((r) => [r.plain, r.full]);
  const sizes = [...report.results, ...(report.pertenant ?? []), ...full];
  return sizes.some((r) => r.error !== undefined) || failed ? 1 : 0;
}

/** How this run's tenants differ from the default ones, in words: "no pods", "exposed", "secrets". */
function variant(options: BenchOptions): string[] {
  const words: [boolean, string][] = [
    [!options.pods, 'no pods'],
    [options.expose, 'exposed'],
    [options.secrets, 'secrets'],
    [options.headlessServices, 'headless Services'],
    [options.rowStatus, 'row status'],
    [options.services > 1, `${options.services} Deployments per row`],
    [options.databases, 'a database per tenant'],
  ];
  return words.filter(([on]) => on).map(([, word]) => word);
}

/** What this run will do, in words: "N = 100, 1000, purge". */
function planned(options: BenchOptions): string {
  const parts = options.scenarios.includes('landlord') ? [`N = ${options.sizes.join(', ')}`] : [];
  if (options.scenarios.includes('pertenant'))
    parts.push(`PerTenant (default class standard) at N = ${options.sizes.join(', ')}`);
  if (options.scenarios.includes('fullfeature'))
    parts.push(`PerTenant plain and full-feature at N = ${options.sizes.join(', ')}`);
  if (options.scenarios.includes('warmpool'))
    parts.push(`signups with a warm pool and without at N = ${options.sizes.join(', ')}`);
  if (options.scenarios.includes('signups'))
    parts.push(
      `${options.signups.rate} signups/s for ${options.signups.seconds} s at N = ${options.sizes.join(', ')}`,
    );
  if (options.scenarios.includes('purge')) parts.push('purge');
  if (options.scenarios.includes('multicluster'))
    parts.push(`three clusters, one table (N = ${options.multiclusterSize})`);
  if (options.scenarios.includes('rest')) parts.push('memory at rest');
  return parts.join(', ');
}

/** Every size in one tenancy mode, each result saved as it comes. */
async function runSizes(
  ctx: RunContext,
  tenancy: Tenancy,
  into: SizeResult[],
  saved: () => Promise<void>,
): Promise<void> {
  for (const n of ctx.options.sizes) {
    if (stopping) break;
    into.push(await runSize(n, ctx, tenancy));
    await saved();
  }
}

/** The warm-pool scenario at every size, each result (or failure) saved as it comes. */
async function runWarmPools(
  ctx: RunContext,
  into: NonNullable<BenchReport['warmpool']>,
  saved: () => Promise<void>,
): Promise<void> {
  for (const n of ctx.options.sizes) {
    if (stopping) break;
    const result = await recorded(`warmpool N=${n}`, 'signups with a warm pool and without', () =>
      runWarmPool(n, ctx),
    );
    into.push('error' in result ? { n, error: result.error } : result);
    await saved();
  }
}

/** At each size, plain PerTenant then full-feature, each against its own baseline, saved as it comes. */
async function runFullFeature(
  ctx: RunContext,
  into: FullFeatureResult[],
  saved: () => Promise<void>,
): Promise<void> {
  for (const n of ctx.options.sizes) {
    if (stopping) break;
    const plain = await runSize(n, { ...ctx, options: plainOptions(ctx.options) }, 'pertenant');
    if (stopping) break;
    // Each tenant's several Deployments and its database: the waits scale with what is made.
    const timeoutMs = (size: number): number => ctx.timeoutMs(size * FULL_FEATURE_SERVICES);
    const full = await runSize(n, { ...ctx, options: fullOptions(ctx.options), timeoutMs }, 'pertenant');
    const databaseEngine = ctx.options.databaseEngine;
    into.push({ n, databaseEngine, plain, full, fullOverPlain: fullOverPlain(plain, full) });
    await saved();
  }
}

/** The signups scenario at every size, each result (or failure) saved as it comes. */
async function runSignupSizes(
  ctx: RunContext,
  into: NonNullable<BenchReport['signups']>,
  saved: () => Promise<void>,
): Promise<void> {
  const { rate, seconds } = ctx.options.signups;
  for (const n of ctx.options.sizes) {
    if (stopping) break;
    const result = await recorded(`signups N=${n}`, `${rate} rows/s for ${seconds} s`, () =>
      runSignups(n, ctx),
    );
    into.push('error' in result ? { n, error: result.error } : result);
    await saved();
  }
}

/** The chosen scenarios, saving the report after each step so that a late failure keeps the rest. */
async function runScenarios(report: BenchReport, ctx: RunContext, stamp: string): Promise<void> {
  const { options } = ctx;
  const saved = (): Promise<void> => save(report, options.outDir, stamp);
  if (options.scenarios.includes('landlord')) await runSizes(ctx, 'shared', report.results, saved);
  if (options.scenarios.includes('pertenant'))
    await runSizes(ctx, 'pertenant', (report.pertenant = []), saved);
  if (options.scenarios.includes('fullfeature')) await runFullFeature(ctx, (report.fullfeature = []), saved);
  if (options.scenarios.includes('warmpool')) await runWarmPools(ctx, (report.warmpool = []), saved);
  if (options.scenarios.includes('signups')) await runSignupSizes(ctx, (report.signups = []), saved);
  if (options.scenarios.includes('purge') && !stopping) {
    report.purge = await runPurge(ctx);
    await save(report, options.outDir, stamp);
  }
  if (options.scenarios.includes('multicluster') && !stopping) {
    report.multicluster = await multiCluster(ctx);
    await save(report, options.outDir, stamp);
  }
  if (options.scenarios.includes('rest') && !stopping) {
    report.rest = await atRest(ctx);
    await save(report, options.outDir, stamp);
  }
}

function printTables(report: BenchReport): void {
  if (report.results.length > 0) printSizeTables(report);
  const perTenantHeap = heapTable(report, report.pertenant ?? []);
  const tables = [
    perTenantTables(report),
    perTenantHeap === '' ? '' : `PerTenant: ${perTenantHeap}`,
    fullFeatureTable(report.fullfeature ?? []),
    warmPoolTable(report.warmpool ?? []),
    signupTable(report.signups ?? []),
    heapByKindTable(report),
    ...scenarioTables(report),
  ];
  for (const table of tables) if (table !== '') console.log(`\n${table}\n`);
}

/** The scenarios that run once (not per size), those that completed. */
function scenarioTables({ purge, multicluster, rest }: BenchReport): string[] {
  const ok = <T extends object>(r: T | { error: string } | undefined): r is T =>
    r !== undefined && !('error' in r);
  return [
    ok(purge) ? purgeTable(purge) : '',
    ok(multicluster) ? `three clusters, one table:\n${JSON.stringify(multicluster, null, 2)}` : '',
    ok(rest) ? restTable(rest) : '',
  ];
}

/** The Shared sizes: results, requests per tenant, CPU per process, heap per tenant. */
function printSizeTables(report: BenchReport): void {
  console.log(`\n${resultsTable(report.results)}\n`);
  for (const table of [requestsTable(report.results), cpuTable(report.results), heapTable(report)])
    if (table !== '') console.log(`${table}\n`);
}

/** One scenario after the sizes: its result, or its failure recorded beside the others' results. */
async function recorded<T>(
  name: string,
  intro: string,
  run: () => Promise<T>,
): Promise<T | { error: string }> {
  print(`${name}: ${intro}`);
  try {
    return await run();
  } catch (err) {
    const error = err instanceof Error ? (err.stack ?? err.message) : String(err);
    print(`${name}: failed: ${error}`);
    return { error };
  }
}

const runPurge = (ctx: RunContext): Promise<BenchReport['purge']> =>
  recorded('purge', 'the engine against a sequential delete, on a moto of its own', () => runPurgeBench(ctx));

const multiCluster = (ctx: RunContext): Promise<BenchReport['multicluster']> =>
  recorded('multicluster', `three clusters, one table, N = ${ctx.options.multiclusterSize}`, () =>
    runMultiCluster(ctx.options.multiclusterSize, ctx),
  );

/** sync, operator and purger at rest on a fresh cluster with an empty table. */
const atRest = (ctx: RunContext): Promise<BenchReport['rest']> =>
  recorded('rest', 'sync, operator and purger with no tenant, memory at rest', () => runRest(ctx));

let stopping = false;

async function interrupted(): Promise<void> {
  stopping = true;
  print('interrupted: stopping landlord processes and clusters');
  stopAllComponents();
  await stopAllClusters();
  process.exit(130);
}

process.once('SIGINT', () => void interrupted());
process.once('SIGTERM', () => void interrupted());

let code: number;
try {
  code = await main(process.argv.slice(2));
} catch (err) {
  console.error(err instanceof Error ? err.message : String(err));
  stopAllComponents();
  await stopAllClusters();
  code = 2;
}
// Everything started has been stopped and the results are written; a wait left behind by a
// failed measurement (an edit's timeout, a watch) must not keep the benchmark from ending.
process.exit(code);
