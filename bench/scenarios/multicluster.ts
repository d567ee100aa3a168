// Many clusters from one table (docs/multi-cluster.md): three fresh control planes, one table (on
// the first one's moto) with a stream and the cluster index, N rows split evenly, a sync and an
// operator on each. Cluster a follows the stream; b and c poll the cluster index every
// LANDLORD_SYNC_POLL_SECONDS. Edit latency is from the UpdateItem to the changed Deployment seen in
// the right cluster, per cluster and over all three; the read units of one index poll are set
// against one full scan. Edits go one at a time, round-robin over the clusters, each after a random
// 0-1 s wait so that it lands anywhere in a poller's cycle.
import {
  PutItemCommand,
  QueryCommand,
  type AttributeValue,
  type DynamoDBClient,
} from '@aws-sdk/client-dynamodb';
import type { V1Deployment } from '@kubernetes/client-node';
import { CLUSTER_INDEX, createTenantTable } from '../../harness/tenant-table.js';
import type { Informer } from '../../runtime/kube/informer.js';
import { clusterQueryInput } from '../../sync/dynamo/query.js';
import { readUnits } from '../../sync/dynamo/read-units.js';
import { freshCluster, stopCluster, type BenchCluster } from '../cluster.js';
import { ComponentProcess } from '../component.js';
import { dynamoClient, editImage, scanCost } from '../dynamo.js';
import { watchDeployments, waitForCount } from '../kube.js';
import { summarize, type LatencySummary } from '../measure/percentiles.js';
import { runPool, sleep } from '../pool.js';
import { deploymentName, row, tenantName } from '../rows.js';
import type { RunContext } from '../run-context.js';
import { landlordEnv } from './landlord-env.js';

const TABLE = 'landlord-bench-multi';
const CLUSTERS = ['a', 'b', 'c'] as const;
type ClusterName = (typeof CLUSTERS)[number];
const EDIT_TIMEOUT_MS = 60_000;

export interface MultiClusterResult {
  n: number;
  pollSeconds: number;
  /** Every edit, whichever cluster it landed on. */
  edits: LatencySummary & { timeouts: number };
  byCluster: Record<ClusterName, LatencySummary & { changes: 'stream' | 'index' }>;
  /** One full scan (strongly consistent) against one index poll of one cluster (eventually consistent). */
  readUnits: { fullScan: number; indexPoll: number };
}

interface Member {
  name: ClusterName;
  bench: BenchCluster;
  sync: ComponentProcess;
  operator: ComponentProcess;
  deployments: Informer<V1Deployment>;
  /** Deployment name → the image an edit waits for, and how to report it seen. */
  waiters: Map<string, { image: string; resolve: (at: number) => void }>;
}

const clusterOf = (i: number): ClusterName => CLUSTERS[i % CLUSTERS.length]!;

async function seed(dynamo: DynamoDBClient, names: readonly string[]): Promise<void> {
  await createTenantTable(dynamo, TABLE, true, CLUSTER_INDEX);
  await runPool(names.length, 8, async (i) => {
    const item: Record<string, AttributeValue> = { ...row(names[i]!), cluster: { S: clusterOf(i) } };
    await dynamo.send(new PutItemCommand({ TableName: TABLE, Item: item }));
  });
}

type Processes = Pick<Member, 'sync' | 'operator'>;

function spawn(member: Pick<Member, 'name' | 'bench'>, table: BenchCluster, ctx: RunContext): Processes {
  const changes: Record<string, string> =
    member.name === 'a'
      ? {}
      : { LANDLORD_SYNC_CHANGES: 'index', LANDLORD_SYNC_POLL_SECONDS: String(ctx.pollSeconds) };
  const env = (extra: Record<string, string>): Record<string, string> =>
    landlordEnv(member.bench, TABLE, ctx, {
      DYNAMODB_ENDPOINT: table.cluster.env.DYNAMODB_ENDPOINT,
      ...extra,
    });
  const label = (component: string): string => `${component}-multi-${member.name}`;
  return {
    sync: new ComponentProcess({
      name: 'sync',
      label: label('sync'),
      env: env({ LANDLORD_CLUSTER: member.name, ...changes }),
      logDir: ctx.runDir,
      nodeFlags: ctx.options.nodeFlags,
    }),
    operator: new ComponentProcess({
      name: 'operator',
      label: label('operator'),
      env: env({}),
      logDir: ctx.runDir,
      nodeFlags: ctx.options.nodeFlags,
    }),
  };
}

export async function runMultiCluster(n: number, ctx: RunContext): Promise<MultiClusterResult> {
  const benches = await Promise.all(CLUSTERS.map(() => freshCluster(ctx.log)));
  const dynamo = dynamoClient(benches[0]!.cluster.env);
  const members: Member[] = [];
  try {
    const names = Array.from({ length: n }, (_, i) => tenantName(i));
    await seed(dynamo, names);
    for (const [i, name] of CLUSTERS.entries()) {
      const bench = benches[i]!;
      const processes = spawn({ name, bench }, benches[0]!, ctx);
      const deployments = await watchDeployments(bench.api);
      const waiters: Member['waiters'] = new Map();
      const seen = (d: V1Deployment): void => {
        const waiter = waiters.get(d.metadata?.name ?? '');
        if (waiter?.image === d.spec?.template.spec?.containers[0]?.image) waiter?.resolve(performance.now());
      };
      deployments.on('add', seen);
      deployments.on('update', seen);
      members.push({ name, bench, ...processes, deployments, waiters });
    }
    const since = performance.now();
    for (const member of members) {
      await waitForCount(() => member.deployments.list().length, {
        what: `[multi N=${n}] Deployments in cluster ${member.name}`,
        target: names.filter((_, i) => clusterOf(i) === member.name).length,
        timeoutMs: ctx.timeoutMs(n),
        since,
        print: ctx.print,
        check: () => assertRunning(members),
      });
    }
    ctx.print(`[multi N=${n}] every cluster holds its rows; editing`);
    const latencies = await measureEdits(dynamo, members, names, ctx);
    const query = await dynamo.send(
      new QueryCommand(clusterQueryInput({ table: TABLE, index: CLUSTER_INDEX, cluster: 'b' })),
    );
    const scan = await scanCost(dynamo, TABLE);
    const all = CLUSTERS.flatMap((c) => latencies[c].samples);
    return {
      n,
      pollSeconds: ctx.pollSeconds,
      edits: { ...summarize(all), timeouts: CLUSTERS.reduce((sum, c) => sum + latencies[c].timeouts, 0) },
      byCluster: Object.fromEntries(
        CLUSTERS.map((c) => [
          c,
          { ...summarize(latencies[c].samples), changes: c === 'a' ? 'stream' : 'index' },
        ]),
      ) as MultiClusterResult['byCluster'],
      readUnits: { fullScan: scan.computedRcu, indexPoll: readUnits(query.Items ?? [], false) },
    };
  } finally {
    for (const member of members) {
      await Promise.allSettled([member.sync.stop(), member.operator.stop()]);
      await member.deployments.stop();
    }
    dynamo.destroy();
    await Promise.all(benches.map((bench) => stopCluster(bench.cluster)));
  }
}

function assertRunning(members: readonly Member[]): void {
  for (const member of members) {
    const failure = member.sync.failure ?? member.operator.failure;
    if (failure !== undefined) throw new Error(`cluster ${member.name}: ${failure}`);
  }
}

type Samples = Record<ClusterName, { samples: number[]; timeouts: number }>;

async function measureEdits(
  dynamo: DynamoDBClient,
  members: readonly Member[],
  names: readonly string[],
  ctx: RunContext,
): Promise<Samples> {
  const none = (): Samples[ClusterName] => ({ samples: [], timeouts: 0 });
  const out: Samples = { a: none(), b: none(), c: none() };
  const count = ctx.options.edits;
  for (let e = 0; e < count; e++) {
    // Consecutive edits touch different tenants, and go round the clusters.
    const index = (e * 7) % names.length;
    const member = members.find((m) => m.name === clusterOf(index))!;
    await sleep(Math.random() * 1_000);
    assertRunning(members);
    const ms = await editOnce(dynamo, member, names[index]!, `nginx:multi-${e}`);
    if (ms === undefined) out[member.name].timeouts += 1;
    else out[member.name].samples.push(ms);
    if (e % 20 === 0) ctx.print(`[multi N=${names.length}] edits: ${e + 1}/${count}`);
  }
  return out;
}

/** The ms from the UpdateItem to the Deployment with the new image in the member's cluster. */
async function editOnce(
  dynamo: DynamoDBClient,
  member: Member,
  tenant: string,
  image: string,
): Promise<number | undefined> {
  const key = deploymentName(tenant);
  let timer: NodeJS.Timeout | undefined;
  const changed = new Promise<number | undefined>((resolve) => {
    member.waiters.set(key, { image, resolve });
    timer = setTimeout(() => resolve(undefined), EDIT_TIMEOUT_MS);
  });
  const started = performance.now();
  await editImage(dynamo, TABLE, { name: tenant, image });
  const at = await changed;
  clearTimeout(timer);
  member.waiters.delete(key);
  return at === undefined ? undefined : at - started;
}
