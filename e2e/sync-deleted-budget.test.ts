// One takedown budget for every cause (issue 12): a writer who marks every row `deleted: true` at
// once loses the Tenants a few per resync, exactly as if the rows had vanished. What is held back is
// visible (log line, Warning Event with the cause, metric by cause); every marked Tenant goes in the
// end, and none of those left unmarked.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitUntil } from '../harness/wait.js';
import { allowance } from '../sync/takedown-budget.js';
import { SYNC_EVENT, SYNC_LOG } from '../sync/reasons.js';
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

const MARKED = 40;
const KEPT = 5;
const LIMITS = { fraction: 0.1, minimum: 2 };
const table = uniqueName('mass-deleted');
const names = Array.from({ length: MARKED + KEPT }, (_, i) => `${table}-${String(i).padStart(2, '0')}`);
const marked = names.slice(0, MARKED);
const kept = names.slice(MARKED);
let sync: LandlordProcess;

beforeAll(async () => {
  await createTable(table);
  await batchWrite(
    table,
    names.map((name) => ({ PutRequest: { Item: lowLevel(row(name)) } })),
  );
  sync = startSync(table, {
    LANDLORD_SYNC_RESYNC_SECONDS: '3',
    LANDLORD_SYNC_MAX_DELETE_FRACTION: String(LIMITS.fraction),
    LANDLORD_SYNC_MAX_DELETE_MINIMUM: String(LIMITS.minimum),
  });
  await waitUntil(
    `${names.length} Tenants Synced`,
    async () =>
      (await syncedTenants(table)).filter((t) => syncedCondition(t)?.status === 'True').length ===
      names.length,
    { timeoutMs: 90_000 },
  );
});

afterAll(async () => {
  expect(await sync.stop()).toBe(0);
  await deleteSyncedTenants(table);
});

describe(`deleted: true on ${MARKED} of ${MARKED + KEPT} rows at once`, () => {
  it('deletes at most the budget per pass, holds back the rest visibly, and deletes them later', async () => {
    await batchWrite(
      table,
      marked.map((name) => ({ PutRequest: { Item: lowLevel({ ...row(name), deleted: true }) } })),
    );
    const held = await sync.waitForLog((l) => l.msg === SYNC_LOG.heldBack && Number(l.rowDeleted) > 0);
    // How many marks the first pass holds back depends on how the stream splits the two
    // BatchWriteItem calls into records (seen: 23 of 40 in one pass under load); what holds
    // whatever the split is that every held-back Tenant here was marked, and that no pass deletes
    // more than the budget (checked at the end, from the per-pass deletion log lines).
    expect(Number(held.heldBack)).toBe(Number(held.rowDeleted));
    expect(held.rowGone).toBe(0);
    const heldName = (held.tenants as string[])[0]!;
    expect(marked).toContain(heldName);
    const event = await waitUntil(
      'a DeletionsHeldBack Event',
      async () => (await eventsFor(heldName, SYNC_EVENT.deletionsHeldBack))[0],
      { timeoutMs: 30_000 },
    );
    expect(event?.type).toBe('Warning');
    expect(event?.message).toContain('says deleted: true');
    expect(event?.message).toContain(table);
    expect(
      metricValue(await sync.metrics(), 'landlord_sync_deletions_held_back_total', { cause: 'rowDeleted' }),
    ).toBeGreaterThanOrEqual(Number(held.heldBack));

    await waitUntil(
      'every marked Tenant to be deleted',
      async () => (await syncedTenants(table)).length === KEPT,
      { timeoutMs: 240_000, intervalMs: 500 },
    );
    const left = await syncedTenants(table);
    expect(left.map((t) => t.metadata.name).sort()).toEqual(kept);
    expect(left.every((t) => syncedCondition(t)?.status === 'True')).toBe(true);

    const perPass = new Map<number, number>();
    for (const line of await loggedAtLeast(sync, SYNC_LOG.deletedByRow, MARKED)) {
      perPass.set(Number(line.pass), (perPass.get(Number(line.pass)) ?? 0) + 1);
    }
    console.log(`sync: deleted: true deletions per pass ${JSON.stringify(Object.fromEntries(perPass))}`);
    expect([...perPass.values()].reduce((a, b) => a + b, 0)).toBe(MARKED);
    expect(Math.max(...perPass.values())).toBeLessThanOrEqual(allowance(names.length, LIMITS));
    expect(perPass.size).toBeGreaterThanOrEqual(Math.ceil(MARKED / allowance(names.length, LIMITS)));
  });
});
