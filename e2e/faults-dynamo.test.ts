// sync when DynamoDB misbehaves, through a loopback proxy that only sync talks to (the test writes
// rows to DynamoDB directly): unreachable (connections refused, then requests that hang), throttled,
// and a scan that fails on its second page. sync backs off, deletes nothing it should not, stays up,
// and catches up once DynamoDB answers again. The outage lasts a minute (LANDLORD_SOAK=1: five).
// (sync-table-problems.test.ts covers DynamoDB frozen with SIGSTOP, start-up errors and a table without a stream.)
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SYNC_LOG } from '../sync/reasons.js';
import { waitUntil } from '../harness/wait.js';
import { DynamoProxy } from './support/dynamo-proxy.js';
import { envValue, uniqueName } from './support/env.js';
import { metricValue, type LandlordProcess } from './support/landlord.js';
import { sleep, SOAK } from './support/suite.js';
import { tenantsLost, tenantUids, waitSynced } from './support/sync-converged.js';
import {
  batchWrite,
  createTable,
  deleteRow,
  deleteSyncedTenants,
  loggedAtLeast,
  lowLevel,
  putRow,
  row,
  startSync,
  updateRow,
} from './support/sync.js';

/** Unreachable this long in all: the first half refusing connections, the second hanging. */
const OUTAGE_MS = SOAK ? 300_000 : 60_000;
let proxy: DynamoProxy;
const processes: LandlordProcess[] = [];
const tables: string[] = [];

function launch(table: string, env: Record<string, string> = {}): LandlordProcess {
  const sync = startSync(table, { LANDLORD_LOG_LEVEL: 'info', DYNAMODB_ENDPOINT: proxy.url, ...env });
  processes.push(sync);
  return sync;
}

/** A table of `count` rows; returns its name and the image each row holds. */
async function seededTable(
  prefix: string,
  count: number,
  stream = true,
): Promise<[string, Map<string, string>]> {
  const table = uniqueName(prefix);
  tables.push(table);
  await createTable(table, stream);
  const names = Array.from({ length: count }, (_, i) => `${table}-${String(i).padStart(3, '0')}`);
  await batchWrite(
    table,
    names.map((name) => ({ PutRequest: { Item: lowLevel(row(name)) } })),
  );
  return [table, new Map(names.map((name) => [name, 'nginx:1.27']))];
}

/** Edits, adds and deletes rows directly in DynamoDB, recording what the Tenants must become. */
async function changeRows(table: string, rows: Map<string, string>, tag: string): Promise<string[]> {
  const names = [...rows.keys()];
  for (const name of names.slice(0, 3)) {
    await updateRow(table, name, { spec: String(row(name, `nginx:${tag}`).spec) });
    rows.set(name, `nginx:${tag}`);
  }
  for (const suffix of ['x', 'y']) {
    const name = `${table}-${tag.replace('.', '')}${suffix}`;
    await putRow(table, row(name));
    rows.set(name, 'nginx:1.27');
  }
  const removed = names.slice(-2);
  for (const name of removed) {
    await deleteRow(table, name);
    rows.delete(name);
  }
  return removed;
}

const retries = async (sync: LandlordProcess): Promise<number> =>
  metricValue(await sync.metrics(), 'landlord_dynamodb_retries_total');
const failedScans = async (sync: LandlordProcess): Promise<number> =>
  metricValue(await sync.metrics(), 'landlord_sync_scans_total', { result: 'error' });
const completeScans = async (sync: LandlordProcess): Promise<number> =>
  metricValue(await sync.metrics(), 'landlord_sync_scans_total', { result: 'success' });
const healthy = async (sync: LandlordProcess): Promise<boolean> =>
  (await fetch(`http://127.0.0.1:${await sync.httpPort()}/healthz`)).ok;

beforeAll(async () => {
  proxy = await DynamoProxy.start(envValue('DYNAMODB_ENDPOINT'));
});

afterAll(async () => {
  for (const p of processes) p.kill('SIGKILL');
  await Promise.all(processes.map((p) => p.exited));
  await proxy.close();
  for (const table of tables) await deleteSyncedTenants(table);
});

describe('DynamoDB unreachable', () => {
  it(
    `for ${OUTAGE_MS / 1000} s, refusing connections, then hanging: no deletion, then recovery`,
    async () => {
      const [table, rows] = await seededTable('unreachable', 30);
      const sync = launch(table, { LANDLORD_SYNC_RESYNC_SECONDS: '5' });
      await waitSynced(table, rows, 60_000);
      const before = await tenantUids(table);
      const started = new Date().toISOString();
      await proxy.setMode('refuse');
      const removed = await changeRows(table, rows, '1.28');
      await sleep(OUTAGE_MS / 2);
      await proxy.setMode('hang');
      await sleep(OUTAGE_MS / 2);
      // Nothing was deleted while sync could not read: not the rows that are really gone either.
      expect(await tenantsLost(table, before)).toEqual([]);
      expect(await healthy(sync)).toBe(true);
      const failures = sync.logs.filter(
        (l) => (l.msg === SYNC_LOG.scanFailed || l.msg === SYNC_LOG.streamFailed) && String(l.time) > started,
      );
      expect(failures.length).toBeGreaterThan(0);
      console.log(`faults-dynamo: ${proxy.stats.hung} requests hung; ${failures.length} failures logged`);
      await proxy.setMode('pass');
      const ms = await waitSynced(table, rows, 180_000);
      console.log(`faults-dynamo: caught up ${(ms / 1000).toFixed(1)} s after DynamoDB was reachable again`);
      expect(await tenantsLost(table, before, new Set(removed))).toEqual([]);
      expect(await retries(sync)).toBeGreaterThan(0);
    },
    // The outage, then up to a minute to seed and three to catch up.
    OUTAGE_MS + 240_000,
  );
});

describe('DynamoDB throttling', () => {
  it('with 30% of requests throttled, sync backs off and retries, deletes nothing wrongly, and keeps up', async () => {
    const [table, rows] = await seededTable('throttled', 30);
    const sync = launch(table, { LANDLORD_SYNC_RESYNC_SECONDS: '5' });
    await waitSynced(table, rows, 60_000);
    const before = await tenantUids(table);
    const retriesBefore = await retries(sync);
    const scansBefore = await completeScans(sync);
    proxy.throttle(0.3);
    try {
      const removed = await changeRows(table, rows, '1.29');
      const ms = await waitSynced(table, rows, 120_000);
      // Two full scans under throttling (each one may prune): they complete, and none prunes wrongly.
      // Waited for, not slept on: a call throttled four times spends up to 15 s in the SDK's backoff.
      await waitUntil(
        'two complete scans under throttling',
        async () => (await completeScans(sync)) >= scansBefore + 2,
        { timeoutMs: 90_000, intervalMs: 500 },
      );
      await waitSynced(table, rows, 60_000);
      expect(await tenantsLost(table, before, new Set(removed))).toEqual([]);
      console.log(
        `faults-dynamo: under 30% throttling, caught up in ${(ms / 1000).toFixed(1)} s; ` +
          `${proxy.stats.throttled} requests throttled, ${(await retries(sync)) - retriesBefore} SDK retries`,
      );
    } finally {
      proxy.throttle(0);
    }
    expect(await retries(sync)).toBeGreaterThan(retriesBefore);
  });
});

describe('a scan that fails on its second page', () => {
  it('prunes nothing while scans fail half-way, then exactly the rows that are gone', async () => {
    // 200 rows of about 20 KB: 4 MB, so each scan reads five 1 MB pages. No stream: only scans prune.
    const table = uniqueName('halfway');
    tables.push(table);
    await createTable(table, false);
    const names = Array.from({ length: 200 }, (_, i) => `${table}-${String(i).padStart(3, '0')}`);
    const big = (name: string): Record<string, unknown> => ({
      ...row(name),
      customizations: JSON.stringify([
        {
          apiVersion: 'v1',
          kind: 'ConfigMap',
          metadata: { name: `${name}-big`, namespace: 'default' },
          data: { blob: 'x'.repeat(20_000) },
        },
      ]),
    });
    await batchWrite(
      table,
      names.map((name) => ({ PutRequest: { Item: lowLevel(big(name)) } })),
    );
    const rows = new Map(names.map((name) => [name, 'nginx:1.27']));
    // Without a stream the takedown budget lasts a resync interval, sized from the Tenants there were
    // when it began (none, at start-up: the minimum, 5): a short interval lets the ten go in a minute.
    const sync = launch(table, { LANDLORD_SYNC_POLL_SECONDS: '2', LANDLORD_SYNC_RESYNC_SECONDS: '5' });
    await waitSynced(table, rows, 180_000);
    const before = await tenantUids(table);
    const failedBefore = await failedScans(sync);
    proxy.failScansAfterFirstPage(true);
    const removed = names.filter((_, i) => i % 20 === 7);
    try {
      for (const name of removed) await deleteRow(table, name);
      await waitUntil(
        'three scans to fail on a later page',
        async () => (await failedScans(sync)) >= failedBefore + 3,
        {
          timeoutMs: 180_000,
        },
      );
      // Most rows were never read by these scans, and ten are really gone: still nothing is deleted.
      expect(await tenantsLost(table, before)).toEqual([]);
      expect(sync.logs.filter((l) => l.msg === SYNC_LOG.deletedGone)).toEqual([]);
    } finally {
      proxy.failScansAfterFirstPage(false);
    }
    console.log(
      `faults-dynamo: ${proxy.stats.failedPages} later Scan pages failed; ${(await failedScans(sync)) - failedBefore} scans failed`,
    );
    removed.forEach((name) => rows.delete(name));
    await waitSynced(table, rows, 120_000);
    expect(await tenantsLost(table, before, new Set(removed))).toEqual([]);
    const deleted = (await loggedAtLeast(sync, SYNC_LOG.deletedGone, removed.length)).map((l) =>
      String(l.tenant),
    );
    expect(deleted.sort()).toEqual(removed);
  });
});
