// What each component costs before any tenant: sync, operator and purger started as the image
// starts them (the CLI, the manifests' NODE_OPTIONS) against a fresh control plane and an empty
// table, left to settle once ready, then their resident set sampled from /proc. The goal of
// issue 15 is shown beside each figure; docs/adr/0006-process-memory-at-rest.md says where it goes.
import { setTimeout as sleep } from 'node:timers/promises';
import { createTenantTable } from '../../harness/tenant-table.js';
import { freshCluster, stopCluster } from '../cluster.js';
import { ComponentProcess, type ComponentName, type HeapReport } from '../component.js';
import { dynamoClient } from '../dynamo.js';
import { deployedNodeOptions } from '../deployed.js';
import { percentile } from '../measure/percentiles.js';
import { procStatusMiB } from '../measure/rss.js';
import type { RunContext } from '../run-context.js';
import { landlordEnv } from './landlord-env.js';

/** Issue 15: every component at rest, with no tenant, in at most this much. */
export const REST_GOAL_MIB = 80;
const COMPONENTS: readonly ComponentName[] = ['sync', 'operator', 'purger'];
const TABLE = 'landlord-rest';
/** After ready: the start-up garbage is collected and the first resync timers are armed. */
const SETTLE_MS = 10_000;
const SAMPLES = 5;
const SAMPLE_EVERY_MS = 2_000;

export interface RestComponentResult {
  /** Median VmRSS of the samples. */
  restMiB: number;
  samplesMiB: number[];
  /** The kernel's high-water mark over the whole start (VmHWM). */
  peakMiB: number;
  withinGoal: boolean;
  heap: HeapReport;
  /** Seconds from spawn to ready (/readyz answering 200). */
  readySeconds: number;
}

export interface RestResult {
  goalMiB: number;
  nodeOptions: string;
  nodeFlags: string;
  components: Partial<Record<ComponentName, RestComponentResult>>;
}

/** The three components on one fresh cluster with an empty table, measured side by side. */
export async function runRest(ctx: RunContext): Promise<RestResult> {
  const bench = await freshCluster(ctx.log);
  const dynamo = dynamoClient(bench.cluster.env);
  const running: ComponentProcess[] = [];
  try {
    await createTenantTable(dynamo, TABLE);
    const started = COMPONENTS.map((name) => {
      const process = new ComponentProcess({
        name,
        label: `${name}-rest`,
        env: landlordEnv(bench, TABLE, ctx),
        logDir: ctx.runDir,
        nodeFlags: ctx.options.nodeFlags,
      });
      running.push(process);
      return process;
    });
    const ready = await Promise.all(started.map((p) => untilReady(p)));
    await sleep(SETTLE_MS);
    const samples = await sampleAll(started);
    const result: RestResult = {
      goalMiB: REST_GOAL_MIB,
      nodeOptions:
        ctx.options.nodeOptions ?? COMPONENTS.map((c) => `${c}: ${deployedNodeOptions(c)}`).join('; '),
      nodeFlags: ctx.options.nodeFlags.join(' '),
      components: {},
    };
    for (const [i, name] of COMPONENTS.entries()) {
      const memory = await started[i]!.stop();
      const restMiB = round(
        percentile(
          [...samples[i]!].sort((a, b) => a - b),
          50,
        ),
      );
      result.components[name] = {
        restMiB,
        samplesMiB: samples[i]!.map(round),
        peakMiB: memory.peakMiB,
        withinGoal: restMiB <= REST_GOAL_MIB,
        heap: {
          heapUsedMiB: memory.heapUsedMiB,
          heapTotalMiB: memory.heapTotalMiB,
          externalMiB: memory.externalMiB,
        },
        readySeconds: ready[i]!,
      };
      ctx.print(`rest: ${name} ${restMiB} MiB (goal ${REST_GOAL_MIB})`);
    }
    return result;
  } finally {
    await Promise.allSettled(running.map((p) => p.stop()));
    dynamo.destroy();
    await stopCluster(bench.cluster);
  }
}

/** Seconds until /readyz answers 200: caches synced and, with no election, the work loop running. */
async function untilReady(process: ComponentProcess): Promise<number> {
  const port = await process.httpPort();
  for (;;) {
    const failure = process.failure;
    if (failure !== undefined) throw new Error(failure);
    const status = await fetch(`http://127.0.0.1:${port}/readyz`)
      .then((res) => res.status)
      .catch(() => 0);
    if (status === 200) return round((performance.now() - process.spawnedAt) / 1000);
    await sleep(200);
  }
}

/** SAMPLES readings of VmRSS per process, taken together every SAMPLE_EVERY_MS. */
async function sampleAll(processes: readonly ComponentProcess[]): Promise<number[][]> {
  const samples = processes.map((): number[] => []);
  for (let i = 0; i < SAMPLES; i += 1) {
    if (i > 0) await sleep(SAMPLE_EVERY_MS);
    processes.forEach((p, j) => samples[j]!.push(procStatusMiB(p.pid, 'VmRSS') ?? Number.NaN));
  }
  return samples;
}

function round(mib: number): number {
  return Math.round(mib * 10) / 10;
}
