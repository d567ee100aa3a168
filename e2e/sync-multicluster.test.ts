// Many clusters from one table (issue 15): three control planes (the shared one and two started
// here), one moto table of 300 rows split among them, one sync each. Cluster a reads the stream and
// claims the rows without a cluster; b and c poll the cluster index and never touch the stream.
// Each sync reaches DynamoDB through its own counting proxy, so the stream requests are counted per
// sync: a table's stream serves at most two readers per shard, and only one reads it here.
import { QueryCommand, ScanCommand } from '@aws-sdk/client-dynamodb';
import { KubeConfig } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GROUP, LABEL, PLURAL, VERSION, type Tenant } from '../api/tenant.js';
import { Cluster } from '../harness/cluster.js';
import { CLUSTER_INDEX, createTenantTable } from '../harness/tenant-table.js';
import { waitUntil } from '../harness/wait.js';
import { clusterQueryInput } from '../sync/dynamo/query.js';
import { readUnits } from '../sync/dynamo/read-units.js';
import { ROW_PROJECTION } from '../sync/dynamo/scan.js';
import { managedSelector, tableIdentity } from '../sync/identity.js';
import { dynamoClient } from './support/dynamo.js';
import { DynamoProxy } from './support/dynamo-proxy.js';
import { clients, envValue, uniqueName } from './support/env.js';
import { componentEnv, startLandlord, type LandlordProcess } from './support/landlord.js';
import {
  batchWrite,
  createTable,
  deleteSyncedTenants,
  lowLevel,
  row,
  startSync,
  syncedCondition,
  updateRow,
} from './support/sync.js';

const CLUSTERS = ['a', 'b', 'c'] as const;
type ClusterName = (typeof CLUSTERS)[number];
const ROWS = 300;
const MOVED_PER_CLUSTER = 10;
const STREAM_OPERATIONS = ['ListStreams', 'DescribeStream', 'GetShardIterator', 'GetRecords'];

const table = uniqueName('multi');
const dynamo = dynamoClient();
const names = Array.from({ length: ROWS }, (_, i) => `${table}-${String(i).padStart(3, '0')}`);
/** Where each row is placed now; a's first half carries no cluster attribute at all (rows from before clusters). */
const placement = new Map<string, ClusterName>(names.map((name, i) => [name, CLUSTERS[i % 3]!]));
const unassigned = new Set(names.filter((name, i) => placement.get(name) === 'a' && i < ROWS / 2));

interface Member {
  name: ClusterName;
  control: Cluster | undefined;
  kubeconfig: string;
  proxy: DynamoProxy;
  sync: LandlordProcess;
}
const members = new Map<ClusterName, Member>();
const member = (name: ClusterName): Member => members.get(name)!;

function itemOf(name: string): Record<string, unknown> {
  const cluster = placement.get(name)!;
  return unassigned.has(name) ? row(name) : { ...row(name), cluster };
}

async function tenantsIn(name: ClusterName): Promise<Tenant[]> {
  const kc = new KubeConfig();
  kc.loadFromFile(member(name).kubeconfig);
  const list = (await clients(kc).custom.listClusterCustomObject({
    group: GROUP,
    version: VERSION,
    plural: PLURAL,
    labelSelector: managedSelector(tableIdentity(table)),
  })) as { items: Tenant[] };
  return list.items;
}

const expectedIn = (name: ClusterName): string[] => names.filter((row) => placement.get(row) === name).sort();

/** Every cluster holds exactly its rows' Tenants, each Synced. */
async function converged(): Promise<boolean> {
  for (const name of CLUSTERS) {
    const tenants = await tenantsIn(name);
    const held = tenants.map((t) => t.metadata.name!).sort();
    if (JSON.stringify(held) !== JSON.stringify(expectedIn(name))) return false;
    if (!tenants.every((t) => syncedCondition(t)?.status === 'True')) return false;
  }
  return true;
}

/** name → "uid/resourceVersion" of every Tenant in the cluster: any write changes it. */
async function fingerprint(name: ClusterName): Promise<Map<string, string>> {
  const tenants = await tenantsIn(name);
  return new Map(tenants.map((t) => [t.metadata.name!, `${t.metadata.uid}/${t.metadata.resourceVersion}`]));
}

function startMember(name: ClusterName, kubeconfig: string, proxy: DynamoProxy): LandlordProcess {
  const mode: Record<string, string> =
    name === 'a'
      ? { LANDLORD_CLUSTER_CLAIMS_UNASSIGNED: 'true' }
      : { LANDLORD_SYNC_CHANGES: 'index', LANDLORD_SYNC_POLL_SECONDS: '1' };
  return startLandlord(
    'sync',
    componentEnv({
      KUBECONFIG: kubeconfig,
      DYNAMODB_TABLE: table,
      DYNAMODB_ENDPOINT: proxy.url,
      POD_NAMESPACE: 'default',
      LANDLORD_CLUSTER: name,
      LANDLORD_SYNC_MAX_DELETE_MINIMUM: String(MOVED_PER_CLUSTER),
      ...mode,
    }),
  );
}

const started = performance.now();
const timings: Record<string, number> = {};

beforeAll(async () => {
  const [b, c] = await Promise.all([
    Cluster.start({ dynamodb: 'none', installTenantCrd: true, log: () => undefined }),
    Cluster.start({ dynamodb: 'none', installTenantCrd: true, log: () => undefined }),
    (async () => {
      await createTenantTable(dynamo, table, true, CLUSTER_INDEX);
      await batchWrite(
        table,
        names.map((name) => ({ PutRequest: { Item: lowLevel(itemOf(name)) } })),
      );
    })(),
  ]);
  timings.controlPlanesMs = performance.now() - started;
  const kubeconfigs = { a: envValue('KUBECONFIG'), b: b.adminKubeconfig, c: c.adminKubeconfig };
  const controls = { a: undefined, b, c };
  for (const name of CLUSTERS) {
    const proxy = await DynamoProxy.start(envValue('DYNAMODB_ENDPOINT'));
    const sync = startMember(name, kubeconfigs[name], proxy);
    members.set(name, { name, control: controls[name], kubeconfig: kubeconfigs[name], proxy, sync });
  }
  await waitUntil('each cluster to hold exactly its rows', converged, { timeoutMs: 180_000 });
  timings.firstSyncMs = performance.now() - started - timings.controlPlanesMs;
});

afterAll(async () => {
  for (const { sync, proxy } of members.values()) {
    await sync.stop();
    await proxy.close();
  }
  await deleteSyncedTenants(table);
  await Promise.all([...members.values()].map((m) => m.control?.stop() ?? Promise.resolve()));
  timings.totalMs = performance.now() - started;
  console.log(`sync-multicluster timings: ${JSON.stringify(timings)}`);
});

describe(`${ROWS} rows, three clusters, one table`, () => {
  it('gives each cluster exactly its rows, labelled with the cluster', async () => {
    expect(await converged()).toBe(true);
    for (const name of CLUSTERS) {
      const tenants = await tenantsIn(name);
      expect(tenants).toHaveLength(ROWS / 3);
      expect(new Set(tenants.map((t) => t.metadata.labels?.[LABEL.cluster]))).toEqual(new Set([name]));
    }
  });

  it('costs a cluster index poll a sixth of a full scan in read units', async () => {
    // moto reports a flat 1 unit per request: the units are computed from what each request read.
    const scan = await dynamo.send(
      new ScanCommand({ TableName: table, ConsistentRead: true, ...ROW_PROJECTION }),
    );
    const query = await dynamo.send(
      new QueryCommand(clusterQueryInput({ table, index: CLUSTER_INDEX, cluster: 'b' })),
    );
    expect(scan.LastEvaluatedKey).toBeUndefined();
    expect(query.LastEvaluatedKey).toBeUndefined();
    expect(scan.Items).toHaveLength(ROWS);
    expect(query.Items).toHaveLength(ROWS / 3);
    const units = { scan: readUnits(scan.Items!, true), query: readUnits(query.Items!, false) };
    console.log(
      `read units for ${ROWS} rows: full Scan ${units.scan} (strongly consistent), ` +
        `Query of one cluster ${units.query} (eventually consistent, as a GSI is)`,
    );
    // A third of the rows, at half the price per byte.
    expect(units.query).toBeLessThanOrEqual(Math.ceil(units.scan / 6) + 0.5);
  });

  it(`moves ${3 * MOVED_PER_CLUSTER} rows: created on the new cluster, removed from the old, nothing else touched`, async () => {
    const before = new Map(await Promise.all(CLUSTERS.map(async (n) => [n, await fingerprint(n)] as const)));
    const moved: string[] = [];
    for (const [from, to] of [
      ['a', 'b'],
      ['b', 'c'],
      ['c', 'a'],
    ] as const) {
      // From a, the rows without a cluster: the ones made before clusters existed move too.
      const rows = expectedIn(from)
        .filter((name) => from !== 'a' || unassigned.has(name))
        .slice(0, MOVED_PER_CLUSTER);
      for (const name of rows) placement.set(name, to);
      moved.push(...rows);
    }
    const movedAt = performance.now();
    await Promise.all(moved.map((name) => updateRow(table, name, { cluster: placement.get(name) })));
    await waitUntil('the moved rows to be on their new clusters only', converged, { timeoutMs: 120_000 });
    timings.moveMs = performance.now() - movedAt;
    for (const name of CLUSTERS) {
      const after = await fingerprint(name);
      for (const [tenant, mark] of before.get(name)!) {
        if (!moved.includes(tenant)) expect(after.get(tenant), `${tenant} in ${name}`).toBe(mark);
      }
    }
  });

  it('a stopped sync changes nothing in the other clusters, which keep syncing their own rows', async () => {
    expect(await member('c').sync.stop()).toBe(0);
    const before = new Map(await Promise.all(CLUSTERS.map(async (n) => [n, await fingerprint(n)] as const)));
    const ofC = expectedIn('c').slice(0, 5);
    const ofB = expectedIn('b')[0]!;
    await Promise.all(ofC.map((name) => updateRow(table, name, { spec: row(name, 'nginx:1.28').spec })));
    await updateRow(table, ofB, { spec: row(ofB, 'nginx:1.28').spec });
    // b polls after the edits to c's rows were written: once b has its edit, b has read c's too.
    await waitUntil(
      `b to apply the edit of ${ofB}`,
      async () =>
        JSON.stringify((await tenantsIn('b')).find((t) => t.metadata.name === ofB)?.spec).includes(
          'nginx:1.28',
        ),
      { timeoutMs: 60_000 },
    );
    for (const name of CLUSTERS) {
      const after = await fingerprint(name);
      const expected = new Map(before.get(name));
      if (name === 'b') expected.delete(ofB);
      after.delete(ofB);
      expect(after, `Tenants of cluster ${name}`).toEqual(expected);
    }
  });

  it('reads the stream from one sync only, and is never throttled', () => {
    const streamRequests = (name: ClusterName): number =>
      STREAM_OPERATIONS.reduce((sum, op) => sum + (member(name).proxy.stats.byOperation.get(op) ?? 0), 0);
    const counts = Object.fromEntries(
      CLUSTERS.map((name) => [name, Object.fromEntries(member(name).proxy.stats.byOperation)]),
    );
    console.log(`DynamoDB requests by sync: ${JSON.stringify(counts)}`);
    expect(streamRequests('a')).toBeGreaterThan(0);
    expect(streamRequests('b')).toBe(0);
    expect(streamRequests('c')).toBe(0);
    // The index syncs never scan the whole table either: each reads its cluster's partition.
    expect(member('b').proxy.stats.byOperation.get('Scan') ?? 0).toBe(0);
    expect(member('b').proxy.stats.byOperation.get('Query')).toBeGreaterThan(0);
    for (const name of CLUSTERS) expect(member(name).proxy.stats.throttled).toBe(0);
  });
});

describe('index mode at start-up', () => {
  it('stops with one clear line when the table has no cluster index', async () => {
    const plain = uniqueName('no-index');
    await createTable(plain);
    const sync = startSync(plain, { LANDLORD_CLUSTER: 'b', LANDLORD_SYNC_CHANGES: 'index' });
    expect(await sync.exited).toBe(2);
    const errors = sync.logs.filter((l) => l.level === 'error');
    expect(errors[0]?.msg).toBe(
      `DYNAMODB_TABLE ${JSON.stringify(plain)}: the table has no global secondary index "cluster-index" on cluster in us-east-1 at ${envValue('DYNAMODB_ENDPOINT')}`,
    );
  });

  it('stops with one line when told to claim rows the index does not hold', async () => {
    const sync = startSync(table, {
      LANDLORD_CLUSTER: 'b',
      LANDLORD_SYNC_CHANGES: 'index',
      LANDLORD_CLUSTER_CLAIMS_UNASSIGNED: 'true',
    });
    expect(await sync.exited).toBe(2);
    expect(sync.logs.map((l) => l.msg).join('\n')).toContain('they are not in the cluster index');
  });
});
