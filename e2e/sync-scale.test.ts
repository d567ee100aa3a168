// A thousand rows written at once (BatchWriteItem) reach sync through the stream and become a
// thousand Synced Tenants, each written exactly once, which the operator brings to Ready.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONDITION, type Tenant } from '../api/tenant.js';
import { waitForCount } from '../harness/wait.js';
import { uniqueName } from './support/env.js';
import { componentEnv, metricValue, startLandlord, type LandlordProcess } from './support/landlord.js';
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
let operator: LandlordProcess;

beforeAll(async () => {
  await createTable(table);
  sync = startSync(table, { LANDLORD_LOG_LEVEL: 'info' });
  operator = startLandlord('operator', componentEnv({ LANDLORD_LOG_LEVEL: 'info' }));
  await Promise.all([sync.waitForLog((l) => l.msg === 'scan complete'), operator.ready()]);
});

afterAll(async () => {
  expect(await sync.stop()).toBe(0);
  expect(await operator.stop()).toBe(0);
  await deleteSyncedTenants(table);
});

const ready = (t: Tenant): boolean =>
  t.status?.conditions?.some((c) => c.type === CONDITION.ready && c.status === 'True') === true;

describe('1,000 rows', () => {
  // The stall limits below catch a hang; this only bounds the whole (about 3 minutes in CI).
  it(
    'become 1,000 Ready Tenants with Synced=True, one spec and one status write each',
    { timeout: 900_000 },
    async () => {
      const names = Array.from({ length: ROWS }, (_, i) => `${table}-${String(i).padStart(4, '0')}`);
      const started = performance.now();
      await batchWrite(
        table,
        names.map((name) => ({ PutRequest: { Item: lowLevel(row(name)) } })),
      );
      const loaded = performance.now();
      // Three e2e files share two cores: the waits fail when the count stalls, not after a time.
      const alive = (): void => [sync, operator].forEach((p) => p.assertRunning());
      await waitForCount(
        `${ROWS} Tenants Synced`,
        async () => (await syncedTenants(table)).filter((t) => syncedCondition(t)?.status === 'True').length,
        ROWS,
        { stallMs: 60_000, intervalMs: 1_000, abortIf: alive },
      );
      const synced = performance.now();
      await waitForCount(
        `${ROWS} Tenants Ready`,
        async () => (await syncedTenants(table)).filter(ready).length,
        ROWS,
        {
          stallMs: 90_000,
          intervalMs: 2_000,
          abortIf: alive,
        },
      );
      const seconds = (ms: number): string => (ms / 1000).toFixed(1);
      console.log(
        `${ROWS} rows → ${ROWS} Tenants Synced in ${seconds(synced - started)} s, Ready in ` +
          `${seconds(performance.now() - started)} s (BatchWriteItem took ${seconds(loaded - started)} s)`,
      );
      const text = await sync.metrics();
      expect(metricValue(text, 'landlord_sync_writes_total', { kind: 'create' })).toBe(ROWS);
      expect(metricValue(text, 'landlord_sync_writes_total', { kind: 'apply' })).toBe(0);
      expect(metricValue(text, 'landlord_sync_writes_total', { kind: 'status' })).toBe(ROWS);
    },
  );
});
