// A thousand rows written at once (BatchWriteItem) reach sync through the stream and become a
// thousand Synced Tenants, each written exactly once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitUntil } from './harness/wait.js';
import { uniqueName } from './support/env.js';
import { metricValue, type LandlordProcess } from './support/landlord.js';
import {
  batchWrite,
  createTable,
  deleteSyncedTenants,
  lowLevel,
  row,
  startSync,
  syncedCondition,
  syncedTenants,
} from './support/sync.js';

const ROWS = 1000;
const table = uniqueName('sync-scale');
let sync: LandlordProcess;

beforeAll(async () => {
  await createTable(table);
  sync = startSync(table, { LANDLORD_LOG_LEVEL: 'info' });
  await sync.waitForLog((l) => l.msg === 'scan complete');
});

afterAll(async () => {
  expect(await sync.stop()).toBe(0);
  await deleteSyncedTenants(table);
});

describe('1,000 rows', () => {
  it('become 1,000 Tenants with Synced=True, one spec and one status write each', async () => {
    const names = Array.from({ length: ROWS }, (_, i) => `${table}-${String(i).padStart(4, '0')}`);
    const started = performance.now();
    await batchWrite(
      table,
      names.map((name) => ({ PutRequest: { Item: lowLevel(row(name)) } })),
    );
    const loaded = performance.now();
    await waitUntil(
      `${ROWS} Tenants Synced`,
      async () => {
        const tenants = await syncedTenants(table);
        return tenants.filter((t) => syncedCondition(t)?.status === 'True').length === ROWS;
      },
      { timeoutMs: 150_000, intervalMs: 1_000 },
    );
    const seconds = (ms: number): string => (ms / 1000).toFixed(1);
    console.log(
      `sync: ${ROWS} rows → ${ROWS} Tenants Synced in ${seconds(performance.now() - started)} s ` +
        `(BatchWriteItem took ${seconds(loaded - started)} s)`,
    );
    const text = await sync.metrics();
    expect(metricValue(text, 'landlord_sync_writes_total', { kind: 'apply' })).toBe(ROWS);
    expect(metricValue(text, 'landlord_sync_writes_total', { kind: 'status' })).toBe(ROWS);
  });
});
