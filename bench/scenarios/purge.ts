// The purge engine against the sequential baseline, on one moto of its own: the same partition,
// refilled before every run, deleted (a) one batch at a time, (b) by the engine with its workers
// and no ceiling, (c) by the engine under a ceiling of items/s, whose measured rate must stay under
// it. moto answers on loopback with no round trip, so each is measured twice: directly, and through
// a proxy adding a fixed latency per request, as a DynamoDB region has.
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { join } from 'node:path';
import {
  countPartition,
  createDataTable,
  loadPartitions,
  type DataTableShape,
  type PartitionLoad,
} from '../../harness/data-table.js';
import { LoopbackProxy } from '../../harness/loopback-proxy.js';
import { startMotoServer } from '../../harness/moto-server.js';
import { createPurgeClient } from '../../purger/data/client.js';
import { DEFAULT_WORKERS, purgePartition } from '../../purger/data/partition-purge.js';
import { WriteRateLimiter } from '../../purger/data/rate-limiter.js';
import { percentile } from '../measure/percentiles.js';
import type { RunContext } from '../run-context.js';
import { sequentialPurge } from './purge-baseline.js';

export interface PurgeSamples {
  /** Median over the runs. */
  itemsPerSecond: number;
  samples: number[];
  /** Pushbacks the engine counted (throttles, partial answers, SDK retries); 0 for the baseline. */
  throttled: number;
}

export interface PurgeNetworkResult {
  network: string;
  latencyMs: number;
  baseline: PurgeSamples;
  engine: PurgeSamples;
  ceiling: PurgeSamples & { limit: number; withinLimit: boolean };
  /** engine / baseline, medians. */
  ratio: number;
}

export interface PurgeBenchResult {
  itemsPerRun: number;
  runs: number;
  workers: number;
  networks: PurgeNetworkResult[];
  loadAverage: number[];
}

const CEILING = 500;
const TENANT = 'acme';
const SHAPE: DataTableShape = { table: 'purge-bench', partitionKey: 'pk', sortKey: 'sk' };
const partition = (tenant: string): string => `TENANT#${tenant}`;
const CREDENTIALS = { accessKeyId: 'landlord-bench', secretAccessKey: 'landlord-bench' };

interface Bench {
  ctx: RunContext;
  fixture: DynamoDBClient;
  items: number;
  runs: number;
  neighbour: PartitionLoad;
}

type Purge = (client: DynamoDBClient) => Promise<{ deleted: number; throttled: number }>;

const MODES: Record<'baseline' | 'engine' | 'ceiling', Purge> = {
  baseline: async (client) => ({
    deleted: await sequentialPurge(client, SHAPE, partition(TENANT)),
    throttled: 0,
  }),
  engine: (client) => purgePartition({ client, table: spec(), tenant: TENANT }),
  ceiling: (client) =>
    purgePartition({ client, table: spec(), tenant: TENANT, limiter: new WriteRateLimiter(CEILING) }),
};

function spec(): { table: string; partitionKey: string; valueTemplate: string } {
  return { table: SHAPE.table, partitionKey: SHAPE.partitionKey, valueTemplate: 'TENANT#{name}' };
}

export async function runPurgeBench(ctx: RunContext): Promise<PurgeBenchResult> {
  const moto = await startMotoServer(join(ctx.runDir, 'purge'), ctx.log);
  const fixture = createPurgeClient({
    endpoint: moto.endpoint,
    region: 'us-east-1',
    credentials: CREDENTIALS,
  });
  try {
    const bench: Bench = {
      ctx,
      fixture,
      items: ctx.options.quick ? 2_000 : 10_000,
      runs: ctx.options.quick ? 1 : 3,
      neighbour: { value: partition(`${TENANT}2`), items: 1_000 },
    };
    await createDataTable(fixture, SHAPE);
    await loadPartitions(fixture, SHAPE, [bench.neighbour]);
    const networks: PurgeNetworkResult[] = [];
    for (const latencyMs of [0, 10]) networks.push(await measureNetwork(bench, moto.endpoint, latencyMs));
    return {
      itemsPerRun: bench.items,
      runs: bench.runs,
      workers: DEFAULT_WORKERS,
      networks,
      loadAverage: ctx.loadAverage(),
    };
  } finally {
    fixture.destroy();
    await moto.process.stop();
  }
}

async function measureNetwork(
  bench: Bench,
  endpoint: string,
  latencyMs: number,
): Promise<PurgeNetworkResult> {
  const proxy = latencyMs > 0 ? await LoopbackProxy.start(endpoint, { delayMs: latencyMs }) : undefined;
  const network = latencyMs > 0 ? `loopback + ${latencyMs} ms` : 'loopback';
  const client = createPurgeClient({
    endpoint: proxy?.url ?? endpoint,
    region: 'us-east-1',
    credentials: CREDENTIALS,
  });
  try {
    const baseline = await measureMode(bench, network, 'baseline', client);
    const engine = await measureMode(bench, network, 'engine', client);
    const ceiling = await measureMode(bench, network, 'ceiling', client);
    const withinLimit = Math.max(...ceiling.samples) <= CEILING;
    const ratio = Math.round((engine.itemsPerSecond / baseline.itemsPerSecond) * 100) / 100;
    bench.ctx.print(
      `purge [${network}]: engine/baseline ${ratio}×; ceiling ${CEILING}/s kept: ${withinLimit}`,
    );
    return {
      network,
      latencyMs,
      baseline,
      engine,
      ceiling: { ...ceiling, limit: CEILING, withinLimit },
      ratio,
    };
  } finally {
    client.destroy();
    await proxy?.close();
  }
}

async function measureMode(
  bench: Bench,
  network: string,
  mode: keyof typeof MODES,
  client: DynamoDBClient,
): Promise<PurgeSamples> {
  const samples: number[] = [];
  let throttled = 0;
  for (let run = 0; run < bench.runs; run++) {
    await loadPartitions(bench.fixture, SHAPE, [{ value: partition(TENANT), items: bench.items }]);
    const started = performance.now();
    const result = await MODES[mode](client);
    const seconds = (performance.now() - started) / 1000;
    await checkPurged(bench, result.deleted);
    throttled += result.throttled;
    samples.push(Math.round(result.deleted / seconds));
    bench.ctx.print(`purge [${network}] ${mode} ${run + 1}/${bench.runs}: ${samples.at(-1)} items/s`);
  }
  return {
    itemsPerSecond: percentile(
      [...samples].sort((a, b) => a - b),
      50,
    ),
    samples,
    throttled,
  };
}

/** A run only counts when it deleted the whole partition and nothing of the neighbour's. */
async function checkPurged(bench: Bench, deleted: number): Promise<void> {
  const left = await countPartition(bench.fixture, SHAPE, partition(TENANT));
  const neighbour = await countPartition(bench.fixture, SHAPE, bench.neighbour.value);
  if (deleted !== bench.items || left !== 0 || neighbour !== bench.neighbour.items) {
    throw new Error(
      `purge run wrong: deleted ${deleted} of ${bench.items}, ${left} left, neighbour holds ${neighbour} of ${bench.neighbour.items}`,
    );
  }
}
