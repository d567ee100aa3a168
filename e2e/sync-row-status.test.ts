// Readiness told back to the table (LANDLORD_SYNC_ROW_STATUS, docs/rows.md), against moto and the
// real control plane: a signup service's row learns Ready and the URL from its `landlord`
// attribute, written once per change and never at steady state, nor for sync's own write coming
// back on the stream, nor for an edit the status does not depend on, nor by a restarted sync; and
// a write that arrives after an edit of the row (held in a proxy until the edit is made) fails its
// condition, so the newest row is never told about an older one and its content stays as edited.
import { GetItemCommand } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANNOTATION } from '../api/tenant.js';
import type { ClassExpose } from '../api/tenantclass.js';
import { waitUntil } from '../harness/wait.js';
import { SYNC_LOG } from '../sync/reasons.js';
import { readRow } from '../sync/row/index.js';
import { dynamoClient } from './support/dynamo.js';
import { DynamoProxy } from './support/dynamo-proxy.js';
import { clients, envValue, uniqueName } from './support/env.js';
import { createClass, deleteClass } from './support/escape.js';
import { metricValue, type LandlordProcess, type LogLine } from './support/landlord.js';
import {
  createTable,
  deleteSyncedTenants,
  lowLevel,
  moreScans,
  putRow,
  readTenant,
  row,
  startSync,
  startSyncAndOperator,
  tenantWrites,
  updateRow,
} from './support/sync.js';

const { custom } = clients();
const dynamo = dynamoClient();
const id = uniqueName('rowstat');
const table = id;
const webClass = `${id}-web`;
const DOMAIN = 'apps.example.com';
const INGRESS: ClassExpose = { port: 8080, host: `{name}.${DOMAIN}`, ingressClassName: 'nginx' };
const shop = `${id}-shop`;
const raced = `${id}-raced`;
let proxy: DynamoProxy;
let sync: LandlordProcess;
let operator: LandlordProcess;

interface Told {
  phase: string;
  ready: boolean;
  url: string;
  message: string;
  observedHash: string;
  updatedAt: string;
}

/** What the row's landlord attribute says, read as a signup service would (no Kubernetes). */
async function told(name: string): Promise<Told | undefined> {
  const { Item } = await dynamo.send(
    new GetItemCommand({ TableName: table, Key: { name: { S: name } }, ConsistentRead: true }),
  );
  return Item === undefined ? undefined : (unmarshall(Item).landlord as Told | undefined);
}

const whenReady = (name: string, also: (t: Told) => Promise<boolean> | boolean = () => true) =>
  waitUntil(
    `the row of ${name} to say ready`,
    async () => {
      const status = await told(name);
      return status?.ready === true && (await also(status)) ? status : undefined;
    },
    { timeoutMs: 120_000, abortIf: () => sync.assertRunning() },
  );

/** sync's log lines of its writes to the row, once the one saying ready is among them. */
async function toldInLogs(name: string): Promise<LogLine[]> {
  const told = (l: LogLine): boolean => l.msg === SYNC_LOG.rowStatusWritten && l.tenant === name;
  await sync.waitForLog((l) => told(l) && l.ready === true, 10_000);
  return sync.logs.filter(told);
}

const rowWrites = async (process: LandlordProcess, result: 'written' | 'rowChanged'): Promise<number> =>
  metricValue(await process.metrics(), 'landlord_sync_row_status_writes_total', { result });

/** Everything sync writes: to the table (its UpdateItems, as the proxy counts them) and to Tenants. */
async function syncWrites(): Promise<Record<string, number>> {
  return {
    written: await rowWrites(sync, 'written'),
    rowChanged: await rowWrites(sync, 'rowChanged'),
    updateItems: proxy.count('UpdateItem'),
    tenantWrites: await tenantWrites(sync),
  };
}

/** sync through the proxy, telling rows their readiness. */
const rowSyncEnv = (): Record<string, string> => ({
  DYNAMODB_ENDPOINT: proxy.url,
  LANDLORD_SYNC_ROW_STATUS: 'true',
  LANDLORD_SYNC_RESYNC_SECONDS: '5',
});

beforeAll(async () => {
  await createTable(table);
  await createClass(custom, webClass, {
    namespace: { mode: 'PerTenant', nameTemplate: '{name}' },
    expose: INGRESS,
    allowedDomains: [DOMAIN],
  });
  proxy = await DynamoProxy.start(envValue('DYNAMODB_ENDPOINT'));
  ({ sync, operator } = await startSyncAndOperator(table, rowSyncEnv()));
});

afterAll(async () => {
  expect(await sync.stop()).toBe(0);
  expect(await operator.stop()).toBe(0);
  await deleteSyncedTenants(table);
  await deleteClass(custom, webClass);
  await proxy.close();
});

describe("a row told its tenant's readiness", () => {
  it('says Ready and the URL to the service that put it, one write per change of what it says', async () => {
    await putRow(table, { ...row(shop), class: webClass });
    const status = await whenReady(shop);
    const tenant = await readTenant(shop);
    expect(status).toMatchObject({
      phase: 'Ready',
      url: `http://${shop}.${DOMAIN}`,
      observedHash: tenant?.metadata.annotations?.[ANNOTATION.rowHash],
    });
    expect(status.url).toBe(tenant?.status?.url);
    expect(Number.isNaN(Date.parse(status.updatedAt))).toBe(false);
    const writes = await toldInLogs(shop);
    const said = writes.map((l) =>
      JSON.stringify([l.phase, l.ready, l.url, l.statusMessage, l.observedHash]),
    );
    console.log(
      `sync-row-status: ${shop} told ${writes.length} times: ${writes.map((l) => l.phase).join(' → ')}`,
    );
    expect(await rowWrites(sync, 'written')).toBe(writes.length);
    // No write repeats the one before: each is a change of what the row says.
    said.forEach((line, i) => expect(line).not.toBe(said[i - 1]));
    expect(writes.at(-1)).toMatchObject({ phase: 'Ready', ready: true });
  });

  it("writes nothing at steady state, for its own write's stream record, or for an edit that changes nothing it says", async () => {
    const before = await syncWrites();
    const { updatedAt } = (await told(shop))!;
    // Two full scans, and the stream record of the Ready write long since read.
    await moreScans(sync, 2);
    expect(await syncWrites()).toEqual(before);
    // A change note and an attribute landlord ignores: neither the Tenant nor the row's status moves.
    await updateRow(table, shop, { changedBy: 'support', owner: 'team-a' });
    await moreScans(sync, 1);
    expect(await syncWrites()).toEqual(before);
    expect((await told(shop))?.updatedAt).toBe(updatedAt);
  });

  it('a restarted sync finds every row current: no write to the table or to a Tenant', async () => {
    expect(await sync.stop()).toBe(0);
    const updateItems = proxy.count('UpdateItem');
    sync = startSync(table, rowSyncEnv());
    await sync.ready();
    await moreScans(sync, 2);
    expect(await rowWrites(sync, 'written')).toBe(0);
    expect(await tenantWrites(sync)).toBe(0);
    expect(proxy.count('UpdateItem')).toBe(updateItems);
  });

  it('tells a suspend and a resume, each change once', async () => {
    const before = await rowWrites(sync, 'written');
    const toldBefore = sync.logs.filter((l) => l.msg === SYNC_LOG.rowStatusWritten).length;
    await updateRow(table, shop, { state: 'suspended' });
    const suspended = await waitUntil(
      'the row to say Suspended',
      async () => ((await told(shop))?.phase === 'Suspended' ? told(shop) : undefined),
      { timeoutMs: 60_000, abortIf: () => sync.assertRunning() },
    );
    expect(suspended).toMatchObject({ ready: false, url: `http://${shop}.${DOMAIN}` });
    await updateRow(table, shop, { state: 'active' });
    await whenReady(shop, (t) => t.observedHash !== suspended.observedHash);
    await sync.waitForLog(
      (l) =>
        l.msg === SYNC_LOG.rowStatusWritten &&
        l.tenant === shop &&
        l.observedHash !== suspended.observedHash &&
        l.ready === true,
      10_000,
    );
    const writes = sync.logs.filter((l) => l.msg === SYNC_LOG.rowStatusWritten).slice(toldBefore);
    console.log(
      `sync-row-status: suspend and resume told in ${writes.length} writes: ${writes.map((l) => l.phase).join(' → ')}`,
    );
    expect(await rowWrites(sync, 'written')).toBe(before + writes.length);
    const said = writes.map((l) =>
      JSON.stringify([l.phase, l.ready, l.url, l.statusMessage, l.observedHash]),
    );
    said.forEach((line, i) => expect(line).not.toBe(said[i - 1]));
    expect(writes.filter((l) => l.phase === 'Suspended')).toHaveLength(1);
  });

  it('never tells the row about an older one: a write sent before an edit fails its condition', async () => {
    const before = await syncWrites();
    // sync's UpdateItem waits in the proxy, its condition made from the row as first written.
    proxy.hold('UpdateItem');
    try {
      await putRow(table, row(raced, 'nginx:1.27'));
      await waitUntil(
        'sync to send its write for the first row',
        () => Promise.resolve(proxy.count('UpdateItem') > before.updateItems!),
        {
          timeoutMs: 120_000,
          abortIf: () => sync.assertRunning(),
        },
      );
      // The edit lands first (straight to DynamoDB, not through the proxy), then sync's write.
      await updateRow(table, raced, { spec: row(raced, 'nginx:1.28').spec });
    } finally {
      proxy.release('UpdateItem');
    }
    await waitUntil(
      'the late write to fail its condition',
      async () => (await rowWrites(sync, 'rowChanged')) > before.rowChanged!,
      {
        timeoutMs: 30_000,
      },
    );
    const edited = readRow(lowLevel(row(raced, 'nginx:1.28')));
    const expectedHash = edited.kind === 'tenant' ? edited.hash : '';
    const status = await whenReady(raced, (t) => t.observedHash === expectedHash);
    const tenant = await readTenant(raced);
    expect(tenant?.metadata.annotations?.[ANNOTATION.rowHash]).toBe(expectedHash);
    expect(status.observedHash).toBe(expectedHash);
    const { Item } = await dynamo.send(
      new GetItemCommand({ TableName: table, Key: { name: { S: raced } }, ConsistentRead: true }),
    );
    expect(unmarshall(Item!).spec).toBe(row(raced, 'nginx:1.28').spec);
    // The refused write cost no Tenant write: sync applied each row once, and its status.
    const writes = await toldInLogs(raced);
    console.log(`sync-row-status: ${raced} told ${writes.length} times after the refused write`);
    expect(writes.length).toBeGreaterThan(0);
    expect(writes.every((l) => l.observedHash === expectedHash)).toBe(true);
  });
});
