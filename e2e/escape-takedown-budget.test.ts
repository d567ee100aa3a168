// Issue 37, class 7: mass changes that take tenants down share one budget. Eight rows set to
// archived at once lose their children only the budget's share per pass: the rest are held back
// (log line, TakedownHeldBack Event, metric, and Synced=False on a Tenant that keeps its previous
// state) and follow in later passes; the same without a stream, where the budget lasts a resync
// interval and not one poll. Attacks of our own: rows set to purged together with rows saying
// deleted: true (one budget for both), and rows moved to another cluster together with archived
// ones, without a stream.
import { afterAll, describe, expect, it } from 'vitest';
import type { Tenant } from '../api/tenant.js';
import { waitUntil } from '../harness/wait.js';
import { SYNC_EVENT, SYNC_LOG, SYNC_REASON } from '../sync/reasons.js';
import { uniqueName } from './support/env.js';
import { metricValue, type LandlordProcess } from './support/landlord.js';
import {
  batchWrite,
  createTable,
  deleteSyncedTenants,
  eventsWritten,
  lowLevel,
  row,
  startSync,
  syncedCondition,
  syncedTenants,
} from './support/sync.js';

const LIMITS = { fraction: 0, minimum: 2 };
const TAKEN = 8;
const KEPT = 2;
const started: { table: string; sync: LandlordProcess }[] = [];

afterAll(async () => {
  for (const { table, sync } of started) {
    expect(await sync.stop()).toBe(0);
    await deleteSyncedTenants(table);
  }
});

/** A table of TAKEN + KEPT running Tenants, and sync on it (with the table's stream, or polling). */
async function setUp(
  prefix: string,
  stream: boolean,
): Promise<{ table: string; sync: LandlordProcess; names: string[] }> {
  const table = uniqueName(prefix);
  const names = Array.from({ length: TAKEN + KEPT }, (_, i) => `${table}-${i}`);
  await createTable(table, stream);
  await batchWrite(
    table,
    names.map((name) => ({ PutRequest: { Item: lowLevel(row(name)) } })),
  );
  const sync = startSync(table, {
    LANDLORD_SYNC_RESYNC_SECONDS: stream ? '3' : '6',
    LANDLORD_SYNC_POLL_SECONDS: '1',
    LANDLORD_SYNC_MAX_DELETE_FRACTION: String(LIMITS.fraction),
    LANDLORD_SYNC_MAX_DELETE_MINIMUM: String(LIMITS.minimum),
  });
  started.push({ table, sync });
  await waitUntil(
    `${names.length} Tenants Synced`,
    async () =>
      (await syncedTenants(table)).filter((t) => syncedCondition(t)?.status === 'True').length ===
      names.length,
    { timeoutMs: 90_000 },
  );
  return { table, sync, names };
}

const stateOf = (tenant: Tenant): string => tenant.spec?.state ?? 'active';

/**
 * Synced says the takedown is held back, of the spec the Tenant holds. Once approved, the spec is
 * applied before its status can say so (a status write of its own): a reader in between sees the
 * new spec beside the old condition, which is about the generation before.
 */
function heldNow(tenant: Tenant): boolean {
  const synced = syncedCondition(tenant);
  return (
    synced?.reason === SYNC_REASON.takedownHeldBack &&
    synced.observedGeneration === tenant.metadata.generation
  );
}

/** Held back means held: no Tenant whose Synced says so holds the new state yet. */
function expectHeldMeansKept(tenants: readonly Tenant[]): void {
  for (const tenant of tenants) if (heldNow(tenant)) expect(stateOf(tenant)).toBe('active');
}

/** Takedowns logged per pass (archived/purged applied, Tenants deleted), once `count` are logged. */
async function perPass(sync: LandlordProcess, count: number): Promise<Map<number, number>> {
  const messages = new Set<string>([SYNC_LOG.takenDown, SYNC_LOG.deletedByRow, SYNC_LOG.deletedGone]);
  const lines = (): LandlordProcess['logs'] => sync.logs.filter((l) => messages.has(String(l.msg)));
  await sync.waitForLog(() => lines().length >= count, 60_000);
  const passes = new Map<number, number>();
  for (const line of lines()) passes.set(Number(line.pass), (passes.get(Number(line.pass)) ?? 0) + 1);
  return passes;
}

/** The held-back Tenant shows why: Synced=False with the reason, a Warning Event, and its old state. */
async function expectVisibleHold(table: string, sync: LandlordProcess): Promise<void> {
  const held = await sync.waitForLog(
    (l) => l.msg === SYNC_LOG.heldBack && Number(l.archived) + Number(l.purged) > 0,
  );
  const name = (held.tenants as string[])[0]!;
  const [event] = await eventsWritten(name, SYNC_EVENT.takedownHeldBack);
  expect(event?.type).toBe('Warning');
  expect(event?.message).toContain(table);
  expect(event?.message).toMatch(/sets state (archived|purged)/);
  const seen = await waitUntil(
    'a Tenant whose Synced says TakedownHeldBack',
    async () => {
      const tenants = await syncedTenants(table);
      expectHeldMeansKept(tenants);
      return tenants.find(heldNow);
    },
    { timeoutMs: 30_000, intervalMs: 200 },
  );
  expect(syncedCondition(seen)?.status).toBe('False');
  expect(stateOf(seen)).toBe('active');
}

function expectBudgeted(passes: Map<number, number>, total: number): void {
  console.log(`sync: takedowns per pass ${JSON.stringify(Object.fromEntries(passes))}`);
  expect([...passes.values()].reduce((a, b) => a + b, 0)).toBe(total);
  expect(Math.max(...passes.values())).toBeLessThanOrEqual(LIMITS.minimum);
  expect(passes.size).toBeGreaterThanOrEqual(Math.ceil(total / LIMITS.minimum));
}

const archived = (name: string): Record<string, unknown> => ({ ...row(name), state: 'archived' });

describe('with a stream', () => {
  it('eight rows set to archived at once: the budget’s share per pass, the rest held back visibly, then the rest', async () => {
    const { table, sync, names } = await setUp('takedown-stream', true);
    const [taken, kept] = [names.slice(0, TAKEN), names.slice(TAKEN)];
    await batchWrite(
      table,
      taken.map((name) => ({ PutRequest: { Item: lowLevel(archived(name)) } })),
    );
    await expectVisibleHold(table, sync);
    expect(
      metricValue(await sync.metrics(), 'landlord_sync_deletions_held_back_total', { cause: 'archived' }),
    ).toBeGreaterThan(0);
    expectBudgeted(await perPass(sync, TAKEN), TAKEN);
    await waitUntil(
      'the archived Tenants Synced',
      async () => {
        const tenants = await syncedTenants(table);
        return (
          tenants.filter((t) => stateOf(t) === 'archived' && syncedCondition(t)?.status === 'True').length ===
          TAKEN
        );
      },
      { timeoutMs: 60_000 },
    );
    const left = (await syncedTenants(table)).filter((t) => kept.includes(t.metadata.name ?? ''));
    expect(left.map(stateOf)).toEqual(['active', 'active']);
  }, 240_000);

  it('attack: rows set to purged together with rows saying deleted: true share the one budget', async () => {
    const { table, sync, names } = await setUp('takedown-mixed', true);
    const [purged, deleted] = [names.slice(0, 4), names.slice(4, TAKEN)];
    await batchWrite(table, [
      ...purged.map((name) => ({ PutRequest: { Item: lowLevel({ ...row(name), state: 'purged' }) } })),
      ...deleted.map((name) => ({ PutRequest: { Item: lowLevel({ ...row(name), deleted: true }) } })),
    ]);
    expectBudgeted(await perPass(sync, TAKEN), TAKEN);
    const tenants = await syncedTenants(table);
    expect(
      tenants
        .filter((t) => stateOf(t) === 'purged')
        .map((t) => t.metadata.name)
        .sort(),
    ).toEqual(purged);
    expect(tenants).toHaveLength(KEPT + purged.length);
  }, 240_000);
});

describe('without a stream (polling every second, a pass every 6 s)', () => {
  it('eight rows set to archived at once: the budget lasts a pass, not a poll', async () => {
    const { table, sync, names } = await setUp('takedown-poll', false);
    await batchWrite(
      table,
      names.slice(0, TAKEN).map((name) => ({ PutRequest: { Item: lowLevel(archived(name)) } })),
    );
    await expectVisibleHold(table, sync);
    expectBudgeted(await perPass(sync, TAKEN), TAKEN);
  }, 240_000);

  it('attack: rows moved to another cluster together with archived rows share the one budget', async () => {
    const { table, sync, names } = await setUp('takedown-moved', false);
    const [moved, archivedRows] = [names.slice(0, 4), names.slice(4, TAKEN)];
    await batchWrite(table, [
      ...moved.map((name) => ({ PutRequest: { Item: lowLevel({ ...row(name), cluster: 'elsewhere' }) } })),
      ...archivedRows.map((name) => ({ PutRequest: { Item: lowLevel(archived(name)) } })),
    ]);
    expectBudgeted(await perPass(sync, TAKEN), TAKEN);
    const tenants = await syncedTenants(table);
    expect(tenants.map((t) => t.metadata.name).sort()).toEqual(
      [...archivedRows, ...names.slice(TAKEN)].sort(),
    );
  }, 240_000);
});
