// Issue 37, class 9: the purger trusted any Tenant in state purged. With sync and the purger running
// as processes against the real control plane and moto: a Tenant made by hand (and one that forges
// sync's managed-by label and this table's annotation) and a Tenant a second sync made from another
// table are refused with their own reasons and nothing of theirs is deleted; a tenant deleted and
// made again under the same name while its purge was scheduled starts its own delay and keeps its
// data until then; and more purges than the hourly budget at once: only the budget's count start,
// the rest wait with PurgeHeldBack (an Event and a metric), still after a restart of the purger.
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANNOTATION, CONDITION, LABEL, MANAGED_BY, type Tenant } from '../api/tenant.js';
import {
  countPartition,
  createDataTable,
  deleteDataTable,
  loadPartitions,
  type DataTableShape,
} from '../harness/data-table.js';
import { waitUntil } from '../harness/wait.js';
import { dynamoClient } from './support/dynamo.js';
import { clients, uniqueName } from './support/env.js';
import { componentEnv, metricValue, startLandlord, type LandlordProcess } from './support/landlord.js';
import {
  createTable,
  deleteSyncedTenants,
  eventsFor,
  putRow,
  readTenant,
  startSync,
  updateRow,
  verbatimRow,
} from './support/sync.js';
import {
  condition,
  createTenant,
  deleteTenant,
  tenantManifest,
  waitForCondition,
} from './support/tenants.js';

const { custom } = clients();
const dynamo = dynamoClient();
const table = uniqueName('esc-purger');
const otherTable = uniqueName('esc-purger-other');
const prefix = uniqueName('ep');
const ORDERS: DataTableShape = { table: uniqueName('esc-orders'), partitionKey: 'tenant', sortKey: 'sk' };
const ITEMS = 20;

const BY_HAND = `${prefix}-hand`;
const FORGED = `${prefix}-forged`;
const OTHER = `${prefix}-other`;
const REUSED = `${prefix}-reused`;
const BURST = ['b1', 'b2', 'b3', 'b4'].map((s) => `${prefix}-${s}`);
const HANDMADE = [BY_HAND, FORGED];
const ALL = [...HANDMADE, OTHER, REUSED, ...BURST];

let sync: LandlordProcess;
let otherSync: LandlordProcess;
let purger: LandlordProcess | undefined;

function startPurger(env: Record<string, string>): LandlordProcess {
  purger = startLandlord(
    'purger',
    componentEnv({
      LANDLORD_PURGER_TABLES: JSON.stringify([
        { table: ORDERS.table, partitionKey: ORDERS.partitionKey, valueTemplate: '{name}' },
      ]),
      LANDLORD_PURGER_TENANT_TABLES: table,
      LANDLORD_PURGER_RETRY_BASE_MS: '200',
      ...env,
    }),
  );
  return purger;
}

async function stopPurger(): Promise<void> {
  if (purger !== undefined) expect(await purger.stop()).toBe(0);
  purger = undefined;
}

const orders = (name: string): Promise<number> => countPartition(dynamo, ORDERS, name);
const purgedRow = (name: string): Record<string, unknown> => ({ ...verbatimRow(name), state: 'purged' });

const purgedCondition = (name: string, status: 'True' | 'False', reason: string): Promise<Tenant> =>
  waitForCondition(custom, name, { type: CONDITION.purged, status, reason }, 120_000);

async function eventOf(name: string, reason: string): Promise<{ type?: string; message?: string }> {
  return waitUntil(`a ${reason} Event on ${name}`, async () => (await eventsFor(name, reason))[0], {
    timeoutMs: 30_000,
  });
}

/** A Tenant in state purged, made with kubectl's rights rather than by sync. */
function handMade(name: string, labels: Record<string, string>, annotations: Record<string, string>): Tenant {
  const tenant = tenantManifest(name, 'default');
  return { ...tenant, metadata: { name, labels, annotations }, spec: { ...tenant.spec, state: 'purged' } };
}

beforeAll(async () => {
  await Promise.all([createTable(table), createTable(otherTable), createDataTable(dynamo, ORDERS)]);
  await loadPartitions(
    dynamo,
    ORDERS,
    ALL.map((name) => ({ value: name, items: ITEMS })),
  );
  sync = startSync(table, { LANDLORD_SYNC_RESYNC_SECONDS: '5' });
  otherSync = startSync(otherTable, { LANDLORD_SYNC_RESYNC_SECONDS: '5' });
  await Promise.all([sync.ready(), otherSync.ready()]);
}, 300_000);

afterAll(async () => {
  await stopPurger();
  expect(await sync.stop()).toBe(0);
  expect(await otherSync.stop()).toBe(0);
  await deleteSyncedTenants(table);
  await deleteSyncedTenants(otherTable);
  await Promise.all(HANDMADE.map((name) => deleteTenant(custom, name).catch(() => undefined)));
  await deleteDataTable(dynamo, ORDERS.table).catch(() => undefined);
});

describe('Tenants the purger may not purge', () => {
  beforeAll(async () => {
    await startPurger({ LANDLORD_PURGER_DELAY: '0s' }).ready();
  });
  afterAll(stopPurger);

  it('made by hand, in state purged: NotSyncedTenant with a PurgeRefused Event, nothing deleted', async () => {
    await createTenant(custom, handMade(BY_HAND, {}, {}));
    const refused = await purgedCondition(BY_HAND, 'False', 'NotSyncedTenant');
    expect(condition(refused, CONDITION.purged)?.message).toMatch(
      /not made by landlord sync.*nothing is deleted/,
    );
    expect(refused.status?.purge).toBeUndefined();
    expect((await eventOf(BY_HAND, 'PurgeRefused')).type).toBe('Warning');
    expect(purger!.logs.some((l) => l.tenant === BY_HAND && l.reason === 'PurgeRefused')).toBe(true);
    expect(await orders(BY_HAND)).toBe(ITEMS);
  });

  it("made by hand with sync's managed-by label and this table's annotation, but no source-table label: OtherTenantTable, nothing deleted", async () => {
    await createTenant(
      custom,
      handMade(FORGED, { [LABEL.managedBy]: MANAGED_BY.sync }, { [ANNOTATION.table]: table }),
    );
    const refused = await purgedCondition(FORGED, 'False', 'OtherTenantTable');
    expect(condition(refused, CONDITION.purged)?.message).toContain(
      `LANDLORD_PURGER_TENANT_TABLES: ${table}`,
    );
    expect((await eventOf(FORGED, 'PurgeRefused')).type).toBe('Warning');
    expect(await orders(FORGED)).toBe(ITEMS);
  });

  it('made by a sync from another tenant table: OtherTenantTable naming that table, nothing deleted', async () => {
    await putRow(otherTable, purgedRow(OTHER));
    const refused = await purgedCondition(OTHER, 'False', 'OtherTenantTable');
    expect(condition(refused, CONDITION.purged)?.message).toContain(`made from table ${otherTable}`);
    expect((await eventOf(OTHER, 'PurgeRefused')).type).toBe('Warning');
    expect(await orders(OTHER)).toBe(ITEMS);
    expect(metricValue(await purger!.metrics(), 'landlord_purges_total', { result: 'started' })).toBe(0);
    expect(metricValue(await purger!.metrics(), 'landlord_purges_total', { result: 'refused' })).toBe(3);
  });
});

describe('a name used again', () => {
  const DELAY_MS = 30_000;
  beforeAll(async () => {
    await startPurger({ LANDLORD_PURGER_DELAY: `${DELAY_MS / 1000}s` }).ready();
  });
  afterAll(stopPurger);

  it('deleted and made again while its purge was scheduled: the new Tenant starts its own delay, and its data stays until then', async () => {
    await putRow(table, purgedRow(REUSED));
    const first = (await purgedCondition(REUSED, 'False', 'PurgeScheduled')).status!.purge!;
    const firstUid = first.uid;
    expect(firstUid).toBeDefined();
    await updateRow(table, REUSED, { deleted: true });
    await waitUntil('the Tenant to be deleted', async () => (await readTenant(REUSED)) === undefined, {
      timeoutMs: 60_000,
    });
    // At least 10 s between the two schedules, so the first one's start time is clearly not the second's.
    await sleep(Math.max(0, Date.parse(first.scheduledAt) + 10_000 - Date.now()));
    await putRow(table, purgedRow(REUSED));
    const again = await waitUntil(
      'the new Tenant to be scheduled',
      async () => {
        const t = await readTenant(REUSED);
        return t?.status?.purge?.phase === 'Scheduled' && t.metadata.uid !== firstUid ? t : undefined;
      },
      { timeoutMs: 60_000 },
    );
    const second = again.status!.purge!;
    expect(second.uid).toBe(again.metadata.uid);
    expect(Date.parse(second.startsAt) - Date.parse(second.scheduledAt)).toBe(DELAY_MS);
    expect(Date.parse(second.scheduledAt)).toBeGreaterThanOrEqual(Date.parse(first.scheduledAt) + 10_000);
    // The first schedule's time passes: the new Tenant's data is untouched.
    await waitUntil(
      'the first schedule to pass',
      () => Promise.resolve(Date.now() > Date.parse(first.startsAt) + 2_000),
      {
        timeoutMs: 60_000,
        intervalMs: 500,
      },
    );
    expect(Date.now()).toBeLessThan(Date.parse(second.startsAt));
    expect(await orders(REUSED)).toBe(ITEMS);
    expect((await readTenant(REUSED))?.status?.purge?.phase).toBe('Scheduled');
    // Its own delay over, it is purged, and not before.
    const done = await purgedCondition(REUSED, 'True', 'Purged');
    expect(Date.parse(done.status!.purge!.startedAt!)).toBeGreaterThanOrEqual(Date.parse(second.startsAt));
    expect(done.status!.purge!.uid).toBe(again.metadata.uid);
    expect(await orders(REUSED)).toBe(0);
  });
});

describe('the hourly purge budget', () => {
  const held = async (): Promise<string[]> => {
    const tenants = await Promise.all(BURST.map((name) => readTenant(name)));
    return tenants
      .filter((t) => t !== undefined && condition(t, CONDITION.purged)?.reason === 'PurgeHeldBack')
      .map((t) => t!.metadata.name!);
  };

  afterAll(stopPurger);

  it('four rows purged at once with a budget of 2 (one purge already started this hour): one starts, three wait with PurgeHeldBack, an Event and the metric', async () => {
    await startPurger({ LANDLORD_PURGER_DELAY: '0s', LANDLORD_PURGER_BUDGET: '2' }).ready();
    for (const name of BURST) await putRow(table, purgedRow(name));
    const waiting = await waitUntil(
      'every burst Tenant to be purged or held back',
      async () => {
        const tenants = await Promise.all(BURST.map((name) => readTenant(name)));
        const reasons = tenants.map((t) =>
          t === undefined ? undefined : condition(t, CONDITION.purged)?.reason,
        );
        return reasons.every((r) => r === 'Purged' || r === 'PurgeHeldBack') ? await held() : undefined;
      },
      { timeoutMs: 120_000 },
    );
    // REUSED's purge started minutes ago and counts: one slot was left.
    expect(waiting).toHaveLength(3);
    const started = BURST.filter((name) => !waiting.includes(name));
    expect(await orders(started[0]!)).toBe(0);
    for (const name of waiting) {
      expect(await orders(name)).toBe(ITEMS);
      const tenant = (await readTenant(name))!;
      const message = condition(tenant, CONDITION.purged)!.message;
      const from = /starts from (\S+) at the earliest/.exec(message)?.[1];
      expect(Date.parse(from!) - Date.now()).toBeGreaterThan(50 * 60_000);
      expect(tenant.status?.purge?.phase).toBe('Scheduled');
      expect((await eventOf(name, 'PurgeHeldBack')).type).toBe('Warning');
    }
    expect(metricValue(await purger!.metrics(), 'landlord_purges_total', { result: 'heldBack' })).toBe(3);
    expect(metricValue(await purger!.metrics(), 'landlord_purges_total', { result: 'started' })).toBe(1);
  });

  it('a new purger process (a restart, or a new leader) keeps the count: the three still wait', async () => {
    await stopPurger();
    startPurger({ LANDLORD_PURGER_DELAY: '0s', LANDLORD_PURGER_BUDGET: '2' });
    await purger!.ready();
    await waitUntil(
      'the purger to have looked at the burst',
      async () => metricValue(await purger!.metrics(), 'landlord_reconcile_total') >= BURST.length,
      { timeoutMs: 30_000 },
    );
    await sleep(3_000);
    expect(await held()).toHaveLength(3);
    for (const name of await held()) expect(await orders(name)).toBe(ITEMS);
    expect(metricValue(await purger!.metrics(), 'landlord_purges_total', { result: 'started' })).toBe(0);
  });

  it('held back, set back to active: cancelled, and the data stays', async () => {
    const waiting = await held();
    for (const name of waiting) await updateRow(table, name, { state: 'active' });
    for (const name of waiting) {
      await purgedCondition(name, 'False', 'PurgeCancelled');
      expect(await orders(name)).toBe(ITEMS);
    }
  });
});
