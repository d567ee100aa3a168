// The mass-deletion guard: a table emptied at once loses its Tenants a few per resync, with what
// is held back visible in the log, an Event on each Tenant and a metric.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SYNC_LOG } from '../sync/reasons.js';
import { waitForCount, waitUntil } from '../harness/wait.js';
import { uniqueName } from './support/env.js';
import { metricValue, type LandlordProcess } from './support/landlord.js';
import {
  batchWrite,
  createTable,
  deleteSyncedTenants,
  eventsFor,
  loggedAtLeast,
  lowLevel,
  row,
  startSync,
  syncedCondition,
  syncedTenants,
} from './support/sync.js';

const table = uniqueName('sync-guard');
const names = Array.from({ length: 20 }, (_, i) => `${table}-${String(i).padStart(2, '0')}`);
let sync: LandlordProcess;

beforeAll(async () => {
  await createTable(table);
  await batchWrite(
    table,
    names.map((name) => ({ PutRequest: { Item: lowLevel(row(name)) } })),
  );
  sync = startSync(table, {
    LANDLORD_SYNC_RESYNC_SECONDS: '3',
    LANDLORD_SYNC_MAX_DELETE_FRACTION: '0.1',
    LANDLORD_SYNC_MAX_DELETE_MINIMUM: '2',
  });
  // Started beside files running 500-1,000 tenants each: the waits fail on a stall, not on time.
  await sync.ready();
  await waitForCount(
    '20 Tenants Synced',
    async () => (await syncedTenants(table)).filter((t) => syncedCondition(t)?.status === 'True').length,
    20,
    { stallMs: 60_000, abortIf: sync.assertRunning },
  );
});

afterAll(async () => {
  expect(await sync.stop()).toBe(0);
  await deleteSyncedTenants(table);
});

describe('a table emptied at once', () => {
  it('deletes at most max(2, 10% of 20) Tenants per resync, holding back the rest visibly', async () => {
    await batchWrite(
      table,
      names.map((name) => ({ DeleteRequest: { Key: { name: { S: name } } } })),
    );
    const held = await sync.waitForLog((l) => l.msg === SYNC_LOG.heldBack);
    expect(held.heldBack).toBeGreaterThanOrEqual(16);
    expect(held.tenants).toEqual(expect.arrayContaining([expect.stringMatching(new RegExp(`^${table}-`))]));
    const heldName = (held.tenants as string[])[0]!;
    await waitUntil(
      'a DeletionsHeldBack Event',
      async () => (await eventsFor(heldName, 'DeletionsHeldBack')).length > 0,
      {
        timeoutMs: 30_000,
      },
    );
    const [event] = await eventsFor(heldName, 'DeletionsHeldBack');
    expect(event?.type).toBe('Warning');
    expect(event?.message).toContain(table);
    // Every Tenant goes in the end, two per pass at most.
    await waitForCount('every Tenant to be deleted', async () => (await syncedTenants(table)).length, 0, {
      stallMs: 60_000,
      intervalMs: 500,
      abortIf: sync.assertRunning,
    });
    const perPass = new Map<number, number>();
    for (const line of await loggedAtLeast(sync, SYNC_LOG.deletedGone, 20)) {
      perPass.set(Number(line.pass), (perPass.get(Number(line.pass)) ?? 0) + 1);
    }
    console.log(`sync: deletions per pass ${JSON.stringify(Object.fromEntries(perPass))}`);
    expect([...perPass.values()].reduce((a, b) => a + b, 0)).toBe(20);
    expect(Math.max(...perPass.values())).toBeLessThanOrEqual(2);
    const text = await sync.metrics();
    expect(metricValue(text, 'landlord_sync_deletions_held_back_total')).toBeGreaterThanOrEqual(18);
  });
});
