// The benchmark harness itself, as CI runs it: `npm run bench -- --quick` must complete and write
// well-formed JSON carrying every metric. The numbers are never judged here: this machine is
// shared and a smoke run is too small to mean anything; docs/performance.md has the real run.
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { heapRows } from '../bench/heap-table.js';
import { missingMetrics, REQUIRED_PERTENANT_METRICS, type BenchReport } from '../bench/report.js';
import type { RestResult } from '../bench/scenarios/rest.js';
import { repoRoot } from '../harness/paths.js';

let outDir: string | undefined;

afterAll(async () => {
  if (outDir !== undefined) await rm(outDir, { recursive: true, force: true });
});

function runBench(args: string[]): Promise<{ code: number | string; output: string }> {
  const child = spawn(process.execPath, [join(repoRoot, 'dist', 'bench', 'main.js'), ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve) =>
    child.once('exit', (code, signal) => resolve({ code: code ?? signal ?? 'unknown', output })),
  );
}

/** The same under the PerTenant default class, against its own baseline, edits through the stream only. */
function expectPerTenant(report: BenchReport, output: string): void {
  expect(report.pertenant?.map((r) => r.n)).toEqual([50]);
  const perTenant = report.pertenant![0]!;
  expect(perTenant.error, output).toBeUndefined();
  expect(missingMetrics(perTenant, REQUIRED_PERTENANT_METRICS)).toEqual([]);
  const edits = perTenant.landlord!.edits!;
  expect([edits.stream.count, edits.poll]).toEqual([10, undefined]);
}

describe('npm run bench -- --quick', () => {
  it(
    'completes and writes JSON with every metric for N=50 (Shared and PerTenant) and memory at rest',
    { timeout: 900_000 },
    async () => {
      outDir = await mkdtemp(join(tmpdir(), 'landlord-bench-'));
      const { code, output } = await runBench(['--quick', `--out=${outDir}`]);
      expect(code, output).toBe(0);
      const report = JSON.parse(await readFile(join(outDir, 'latest.json'), 'utf8')) as BenchReport;
      expect(report.mode).toBe('quick');
      const { cpus, memoryGiB, node, kernel } = report.machine;
      expect([typeof cpus, typeof memoryGiB, typeof node, typeof kernel]).toEqual([
        'number',
        'number',
        'string',
        'string',
      ]);
      expect(report.machine.loadAverage).toHaveLength(3);
      expect(report.results.map((r) => r.n)).toEqual([50]);
      const [result] = report.results;
      expect(result?.error, output).toBeUndefined();
      expect(missingMetrics(result!)).toEqual([]);
      // Settled counts extend the convergence window: never fewer writes, and the wait ended.
      for (const side of [result!.baseline!, result!.landlord!.cold!]) {
        expect(side.settled.apiServer.landlordWrites).toBeGreaterThanOrEqual(side.apiServer.landlordWrites);
        expect(side.settled.settled).toBe(true);
      }
      expect(output).toMatch(/landlord over baseline \(goal ≤ 1\.5\): [\d.]+ at convergence, [\d.]+ settled/);
      // Where the CPU went in each run, and the watches the API server closed (a count, often 0).
      expect(output).toMatch(/CPU of every process, landlord over baseline: [\d.]+ \(wall time: [\d.]+\)/);
      expect(output).toMatch(
        /watches the API server closed for falling behind: baseline \d+.*, landlord \d+/,
      );
      for (const side of [result!.baseline!, result!.landlord!.cold!])
        expect(typeof side.apiServer.terminatedWatchers).toBe('object');
      expectPerTenant(report, output);
      // Memory at rest: a figure per component beside the goal (never judged here).
      const rest = report.rest;
      expect(rest === undefined || 'error' in rest ? rest : undefined, output).toBeUndefined();
      const components = (rest as RestResult).components;
      expect(Object.keys(components).sort()).toEqual(['operator', 'purger', 'sync']);
      for (const c of Object.values(components)) expect(c.restMiB).toBeGreaterThan(0);
      // Heap per tenant beyond the heap at rest, per component (a number; its value is not judged).
      const [heap] = heapRows(report, report.results);
      expect(heap).toMatchObject({ n: 50, reference: 'at rest' });
      expect([typeof heap?.syncPerTenant, typeof heap?.operatorPerTenant]).toEqual(['number', 'number']);
      expect(output).toContain('V8 heap used at the end of each size, and per Tenant');
    },
  );
});
