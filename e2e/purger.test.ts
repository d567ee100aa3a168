// The purger (issue 13, part 2) with sync, the operator and the purger running as processes against
// the real control plane and moto: a purge of two data tables (one with a sort key, one without)
// that leaves prefix-sharing neighbours whole; purged → active starting empty; a purge delay that
// setting the state back cancels; `deleted: true` while scheduled, which deletes no data; a purger
// SIGKILLed three times mid-purge that still finishes; and a failing table that holds back only
// its own Tenant; and a purger with no data tables, which deletes nothing and says so. Each part runs
// its own purger, configured as that part needs.
import type { V1Deployment } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONDITION, GROUP, PLURAL, VERSION, type PurgeStatus, type Tenant } from '../api/tenant.js';
import {
  countPartition,
  countTable,
  createDataTable,
  deleteDataTable,
  loadPartitions,
  type DataTableShape,
} from '../harness/data-table.js';
import { waitUntil } from '../harness/wait.js';
import type { DataTableSpec } from '../purger/data/data-table.js';
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
import { condition, waitForCondition } from './support/tenants.js';

const { apps, custom } = clients();
const dynamo = dynamoClient();
const table = uniqueName('purger');
const prefix = uniqueName('pg');

/** With a sort key: many items per tenant, keyed TENANT#<name>. */
const ORDERS: DataTableShape = { table: uniqueName('orders'), partitionKey: 'tenant', sortKey: 'sk' };
/** Without: one item per tenant, keyed by the bare name. */
const PROFILES: DataTableShape = { table: uniqueName('profiles'), partitionKey: 'id' };
/** Configured but created only half way through the failure test. */
const LATE: DataTableShape = { table: uniqueName('late'), partitionKey: 'id' };

const spec = (shape: DataTableShape, valueTemplate: string): DataTableSpec => ({
  table: shape.table,
  partitionKey: shape.partitionKey,
  valueTemplate,
});
const ORDERS_SPEC = spec(ORDERS, 'TENANT#{name}');
const PROFILES_SPEC = spec(PROFILES, '{name}');
const LATE_SPEC = spec(LATE, '{name}');

const ordersKey = (name: string): string => `TENANT#${name}`;

const PURGED = `${prefix}-a`;
const DELAYED = `${prefix}-b`;
const DELETED = `${prefix}-c`;
const KILLED = `${prefix}-d`;
const FAILING = `${prefix}-e`;
const HEALTHY = `${prefix}-f`;
const NO_TABLES = `${prefix}-g`;
const ALL = [PURGED, DELAYED, DELETED, KILLED, FAILING, HEALTHY, NO_TABLES];

/** Names that share a prefix with a tenant's, in both directions: their data must survive every purge. */
const neighboursOf = (name: string): string[] => [`${name}0`, `${name}-x`, name.slice(0, -1)];
const NEIGHBOURS = [...new Set(ALL.flatMap(neighboursOf))];

const ITEMS = 30;
// Enough for a purge at the ceiling below to last ~30 s: three kills land while it runs.
const KILLED_ITEMS = 6_000;

let sync: LandlordProcess;
let operator: LandlordProcess;
let purger: LandlordProcess | undefined;

function startPurger(tables: DataTableSpec[], env: Record<string, string> = {}): LandlordProcess {
  purger = startLandlord(
    'purger',
    componentEnv({
      LANDLORD_PURGER_TABLES: JSON.stringify(tables),
      LANDLORD_PURGER_TENANT_TABLES: table,
      LANDLORD_PURGER_DELAY: '0s',
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

const orders = (name: string): Promise<number> => countPartition(dynamo, ORDERS, ordersKey(name));
const profiles = (name: string): Promise<number> => countPartition(dynamo, PROFILES, name);

/** Every neighbour's items, per table: what no purge may touch. */
async function neighbourCounts(): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const name of NEIGHBOURS) {
    counts[`orders/${name}`] = await orders(name);
    counts[`profiles/${name}`] = await profiles(name);
  }
  return counts;
}

const purgeOf = async (name: string): Promise<PurgeStatus | undefined> =>
  (await readTenant(name))?.status?.purge;

const purgedCondition = (name: string, status: 'True' | 'False', reason: string): Promise<Tenant> =>
  waitForCondition(custom, name, { type: CONDITION.purged, status, reason }, 120_000);

const deploymentOf = (name: string): Promise<V1Deployment> =>
  apps.readNamespacedDeployment({ name: `${name}-app`, namespace: 'default' });

const deploymentGone = (name: string) => () =>
  deploymentOf(name).then(
    () => false,
    (err: { code?: number }) => err.code === 404,
  );

async function eventOf(name: string, reason: string): Promise<{ type?: string; message?: string }> {
  return waitUntil(`a ${reason} Event on ${name}`, async () => (await eventsFor(name, reason))[0], {
    timeoutMs: 15_000,
  });
}

/** Resolves once the clock is past `time` (a configured delay running out; nothing is asserted on it). */
async function pastTime(time: string): Promise<void> {
  await waitUntil(`the clock to pass ${time}`, () => Promise.resolve(Date.now() > Date.parse(time) + 2_000), {
    timeoutMs: 120_000,
    intervalMs: 500,
  });
}

let neighboursBefore: Record<string, number>;

beforeAll(async () => {
  await createTable(table);
  await Promise.all([createDataTable(dynamo, ORDERS), createDataTable(dynamo, PROFILES)]);
  const tenantsWithData = [...ALL.filter((n) => n !== KILLED), ...NEIGHBOURS];
  await loadPartitions(dynamo, ORDERS, [
    ...tenantsWithData.map((name) => ({ value: ordersKey(name), items: ITEMS })),
    { value: ordersKey(KILLED), items: KILLED_ITEMS },
  ]);
  await loadPartitions(
    dynamo,
    PROFILES,
    [...ALL, ...NEIGHBOURS].map((name) => ({ value: name, items: 1 })),
  );
  neighboursBefore = await neighbourCounts();
  sync = startSync(table, { LANDLORD_SYNC_RESYNC_SECONDS: '5' });
  operator = startLandlord('operator', componentEnv({ LANDLORD_OPERATOR_RESYNC_SECONDS: '10' }));
  await Promise.all([sync.ready(), operator.ready()]);
  for (const name of ALL) await putRow(table, verbatimRow(name));
  for (const name of ALL)
    await waitForCondition(custom, name, { type: CONDITION.ready, status: 'True' }, 120_000);
}, 600_000);

afterAll(async () => {
  await stopPurger();
  expect(await sync.stop()).toBe(0);
  expect(await operator.stop()).toBe(0);
  await deleteSyncedTenants(table);
  for (const shape of [ORDERS, PROFILES, LATE])
    await deleteDataTable(dynamo, shape.table).catch(() => undefined);
});

describe('state purged, delay 0', () => {
  beforeAll(async () => {
    await startPurger([ORDERS_SPEC, PROFILES_SPEC]).ready();
  });
  afterAll(stopPurger);

  it("active → purged: the tenant's partitions are empty in both tables, the neighbours whole, Purged=True with counts and times", async () => {
    expect(await orders(PURGED)).toBe(ITEMS);
    expect(await profiles(PURGED)).toBe(1);
    await updateRow(table, PURGED, { state: 'purged' });
    const tenant = await purgedCondition(PURGED, 'True', 'Purged');
    expect(await orders(PURGED)).toBe(0);
    expect(await profiles(PURGED)).toBe(0);
    expect(await neighbourCounts()).toEqual(neighboursBefore);
    const purge = tenant.status!.purge!;
    expect(purge.phase).toBe('Completed');
    expect(Date.parse(purge.finishedAt!)).toBeGreaterThanOrEqual(Date.parse(purge.startedAt!));
    expect(purge.tables).toEqual([
      expect.objectContaining({ table: ORDERS.table, phase: 'Completed', deleted: ITEMS }),
      expect.objectContaining({ table: PROFILES.table, phase: 'Completed', deleted: 1 }),
    ]);
    for (const t of purge.tables)
      expect(Date.parse(t.finishedAt!)).toBeGreaterThanOrEqual(Date.parse(t.startedAt!));
    expect(condition(tenant, CONDITION.purged)?.message).toMatch(/set back to active it starts empty/);
  });

  it('says so with Events and metrics, removes the children as archived does, and keeps the Tenant', async () => {
    expect(await eventOf(PURGED, 'PurgeStarted')).toMatchObject({ type: 'Normal' });
    expect((await eventOf(PURGED, 'PurgeCompleted')).message).toBe(
      `deleted ${ITEMS + 1} items from ${ORDERS.table}, ${PROFILES.table}`,
    );
    await waitUntil('the Deployment to be removed', deploymentGone(PURGED), { timeoutMs: 30_000 });
    const tenant = await readTenant(PURGED);
    expect(tenant?.spec?.state).toBe('purged');
    expect(condition(tenant!, CONDITION.ready)?.reason).toBe('Archived');
    const metrics = await purger!.metrics();
    expect(metricValue(metrics, 'landlord_purge_items_deleted_total')).toBe(ITEMS + 1);
    expect(metricValue(metrics, 'landlord_purges_total', { result: 'completed' })).toBe(1);
    expect(purger!.logs.some((l) => l.tenant === PURGED && l.reason === 'PurgeCompleted')).toBe(true);
  });

  it('purged → active: the children are made again and the tenant starts empty', async () => {
    await updateRow(table, PURGED, { state: 'active' });
    await waitForCondition(custom, PURGED, { type: CONDITION.ready, status: 'True' }, 60_000);
    expect((await deploymentOf(PURGED)).spec?.replicas).toBe(1);
    expect(await orders(PURGED)).toBe(0);
    expect(await profiles(PURGED)).toBe(0);
    expect(await neighbourCounts()).toEqual(neighboursBefore);
  });
});

describe('the purge delay', () => {
  beforeAll(async () => {
    await startPurger([ORDERS_SPEC, PROFILES_SPEC], { LANDLORD_PURGER_DELAY: '20s' }).ready();
  });
  afterAll(stopPurger);

  it('purged: Purged=False PurgeScheduled saying when; back to active before then: cancelled, and nothing is ever deleted', async () => {
    await updateRow(table, DELAYED, { state: 'purged' });
    const scheduled = await purgedCondition(DELAYED, 'False', 'PurgeScheduled');
    const { startsAt, scheduledAt } = scheduled.status!.purge!;
    expect(Date.parse(startsAt) - Date.parse(scheduledAt)).toBe(20_000);
    expect(condition(scheduled, CONDITION.purged)?.message).toContain(`will be deleted from ${startsAt}`);
    await updateRow(table, DELAYED, { state: 'active' });
    const cancelled = await purgedCondition(DELAYED, 'False', 'PurgeCancelled');
    expect(cancelled.status?.purge?.phase).toBe('Cancelled');
    expect(condition(cancelled, CONDITION.purged)?.message).toMatch(/0 items had been deleted/);
    expect((await eventOf(DELAYED, 'PurgeCancelled')).type).toBe('Warning');
    await pastTime(startsAt);
    expect(await orders(DELAYED)).toBe(ITEMS);
    expect(await profiles(DELAYED)).toBe(1);
    expect((await purgeOf(DELAYED))?.phase).toBe('Cancelled');
    expect(await eventsFor(DELAYED, 'PurgeStarted')).toEqual([]);
  });

  it('deleted: true while the purge is scheduled: the Tenant goes, the data stays', async () => {
    await updateRow(table, DELETED, { state: 'purged' });
    const scheduled = await purgedCondition(DELETED, 'False', 'PurgeScheduled');
    await updateRow(table, DELETED, { deleted: true });
    await waitUntil('the Tenant to be deleted', async () => (await readTenant(DELETED)) === undefined, {
      timeoutMs: 60_000,
    });
    await pastTime(scheduled.status!.purge!.startsAt);
    expect(await orders(DELETED)).toBe(ITEMS);
    expect(await profiles(DELETED)).toBe(1);
    expect(await neighbourCounts()).toEqual(neighboursBefore);
  });
});

describe('a purger killed mid-purge', () => {
  it('SIGKILLed three times while deleting 6,000 items at 200 items/s: each restart goes on, and it finishes with only that partition gone', async () => {
    const env = { LANDLORD_PURGER_RATE: '200' };
    startPurger([ORDERS_SPEC], env);
    await purger!.ready();
    await updateRow(table, KILLED, { state: 'purged' });
    let seen = 0;
    for (let kill = 1; kill <= 3; kill++) {
      seen = await waitUntil(
        `status.purge to show more than ${seen} items deleted (kill ${kill})`,
        async () => {
          const deleted = (await purgeOf(KILLED))?.tables[0]?.deleted ?? 0;
          return deleted > seen ? deleted : undefined;
        },
        { timeoutMs: 120_000, intervalMs: 250 },
      );
      expect((await purgeOf(KILLED))?.phase).toBe('Running');
      expect(await orders(KILLED)).toBeLessThan(KILLED_ITEMS);
      purger!.kill('SIGKILL');
      await purger!.exited;
      startPurger([ORDERS_SPEC], env);
      await purger!.ready();
    }
    const tenant = await purgedCondition(KILLED, 'True', 'Purged');
    expect(await orders(KILLED)).toBe(0);
    // Counts go on from status across restarts; what a killed process deleted after its last
    // progress write is not counted, so the total can only fall short, never exceed.
    const deleted = tenant.status!.purge!.tables[0]!.deleted;
    expect(deleted).toBeGreaterThan(seen);
    expect(deleted).toBeLessThanOrEqual(KILLED_ITEMS);
    expect(await neighbourCounts()).toEqual(neighboursBefore);
    const others = ALL.filter((n) => ![PURGED, KILLED].includes(n));
    const expected = (NEIGHBOURS.length + others.length) * ITEMS;
    expect(await countTable(dynamo, ORDERS.table)).toBe(expected);
    await stopPurger();
  });
});

describe('a failing table', () => {
  beforeAll(async () => {
    await startPurger([ORDERS_SPEC, LATE_SPEC], { LANDLORD_PURGER_CONCURRENCY: '1' }).ready();
  });
  afterAll(stopPurger);

  it('a configured table that does not exist: PurgeFailed naming it on that Tenant; another tenant still completes', async () => {
    await updateRow(table, FAILING, { state: 'purged' });
    const failed = await purgedCondition(FAILING, 'False', 'PurgeFailed');
    expect(condition(failed, CONDITION.purged)?.message).toMatch(
      new RegExp(`^could not purge ${LATE.table}: .*ResourceNotFound`, 'i'),
    );
    expect(failed.status?.purge?.phase).toBe('Failed');
    expect(failed.status?.purge?.tables).toEqual([
      expect.objectContaining({ table: ORDERS.table, phase: 'Completed', deleted: ITEMS }),
      expect.objectContaining({ table: LATE.table, phase: 'Failed', deleted: 0 }),
    ]);
    expect((await eventOf(FAILING, 'PurgeFailed')).type).toBe('Warning');
    // The failed purge holds no slot (concurrency 1) and no lock: once the table exists, the next
    // tenant's purge runs to the end while the failed one waits for a change.
    await createDataTable(dynamo, LATE);
    await updateRow(table, HEALTHY, { state: 'purged' });
    const done = await purgedCondition(HEALTHY, 'True', 'Purged');
    expect(done.status?.purge?.tables.map((t) => t.phase)).toEqual(['Completed', 'Completed']);
    expect(await orders(HEALTHY)).toBe(0);
    expect((await purgeOf(FAILING))?.phase).toBe('Failed');
    expect(await neighbourCounts()).toEqual(neighboursBefore);
  });
});

describe('no data tables configured', () => {
  beforeAll(async () => {
    await startPurger([]).ready();
  });
  afterAll(stopPurger);

  it('purged: Purged=False NoDataTables and nothing deleted; completed purges keep their record; back to active withdraws it', async () => {
    await updateRow(table, NO_TABLES, { state: 'purged' });
    const held = await purgedCondition(NO_TABLES, 'False', 'NoDataTables');
    expect(held.status?.purge).toBeUndefined();
    expect(condition(held, CONDITION.purged)?.message).toMatch(/LANDLORD_PURGER_TABLES.*no data is deleted/);
    expect(await orders(NO_TABLES)).toBe(ITEMS);
    expect(await profiles(NO_TABLES)).toBe(1);
    // Every Tenant has been looked at by now (the first resync), the purged and completed ones too.
    const tenants = (await custom.listClusterCustomObject({
      group: GROUP,
      version: VERSION,
      plural: PLURAL,
    })) as { items: unknown[] };
    await waitUntil(
      'the purger to have reconciled every Tenant',
      async () => metricValue(await purger!.metrics(), 'landlord_reconcile_total') >= tenants.items.length,
      { timeoutMs: 30_000 },
    );
    expect((await purgeOf(KILLED))?.phase).toBe('Completed');
    expect(condition((await readTenant(KILLED))!, CONDITION.purged)?.reason).toBe('Purged');
    await updateRow(table, NO_TABLES, { state: 'active' });
    await purgedCondition(NO_TABLES, 'False', 'PurgeCancelled');
    expect(await orders(NO_TABLES)).toBe(ITEMS);
  });
});
