// sync never takes over a Tenant it did not make from its own table (issue 12): a row named like a
// Tenant made with kubectl, or like one another table's sync made, is reported (log line, metric, one
// Warning Event) and left as it is: spec, labels and the operator's children stay, and neither
// `deleted: true` nor a vanished row deletes it. A row of its own next to them syncs as usual.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONDITION, LABEL, type Tenant } from '../api/tenant.js';
import { waitUntil } from '../harness/wait.js';
import { createMetrics } from '../runtime/metrics.js';
import { ApiError, KubeApi } from '../runtime/kube/api.js';
import { tableIdentity } from '../sync/identity.js';
import { TenantWriter } from '../sync/tenant-writer.js';
import { SYNC_EVENT, SYNC_LOG } from '../sync/reasons.js';
import { clients, kubeConfig, uniqueName } from './support/env.js';
import { componentEnv, metricValue, startLandlord, type LandlordProcess } from './support/landlord.js';
import {
  createTable,
  deleteRow,
  deleteSyncedTenants,
  eventsFor,
  moreScans,
  putRow,
  readTenant,
  row,
  startSync,
  syncedCondition,
  updateRow,
} from './support/sync.js';
import { createTenant, deleteTenant, tenantManifest } from './support/tenants.js';

const { apps, custom } = clients();
const table = uniqueName('own');
const otherTable = uniqueName('own-other');
const byHand = uniqueName('by-hand');
const byOther = uniqueName('by-other');
const mine = uniqueName('mine');
const replaced = uniqueName('replaced');
let sync: LandlordProcess;
let otherSync: LandlordProcess;
let operator: LandlordProcess;

const image = async (name: string): Promise<string | undefined> => {
  const deployment = await apps.readNamespacedDeployment({ name: `${name}-app`, namespace: 'default' });
  return deployment.spec?.template.spec?.containers[0]?.image;
};

const ready = (t: Tenant | undefined): boolean =>
  t?.status?.conditions?.find((c) => c.type === CONDITION.ready)?.status === 'True';

/** What must not move on a Tenant sync leaves alone: who it is, its spec, its marks, who wrote it. */
const untouched = (t: Tenant | undefined) => ({
  uid: t?.metadata.uid,
  generation: t?.metadata.generation,
  labels: t?.metadata.labels,
  annotations: t?.metadata.annotations,
  spec: t?.spec,
  synced: syncedCondition(t),
  managers: t?.metadata.managedFields
    ?.map((m) => `${m.manager}/${m.operation}/${m.subresource ?? ''}`)
    .sort(),
});

const notOwnedEvents = (name: string) => eventsFor(name, SYNC_EVENT.notOwned);

beforeAll(async () => {
  await Promise.all([createTable(table), createTable(otherTable)]);
  // A Tenant made with kubectl, and one made by another table's sync, both running under the operator.
  await createTenant(custom, tenantManifest(byHand, 'default', 0));
  await putRow(otherTable, row(byOther, 'nginx:1.26'));
  operator = startLandlord('operator', componentEnv());
  otherSync = startSync(otherTable, { LANDLORD_SYNC_RESYNC_SECONDS: '2' });
  await waitUntil(
    'both foreign Tenants Ready',
    async () => ready(await readTenant(byHand)) && ready(await readTenant(byOther)),
    { timeoutMs: 90_000 },
  );
  sync = startSync(table, { LANDLORD_SYNC_RESYNC_SECONDS: '2' });
  await sync.ready();
});

afterAll(async () => {
  expect(await sync.stop()).toBe(0);
  expect(await otherSync.stop()).toBe(0);
  expect(await operator.stop()).toBe(0);
  await deleteTenant(custom, byHand).catch(() => undefined);
  await deleteTenant(custom, replaced).catch(() => undefined);
  await Promise.all([deleteSyncedTenants(table), deleteSyncedTenants(otherTable)]);
});

describe.each([
  { who: 'made with kubectl', name: () => byHand, cause: 'unmarked', image: 'nginx:1.27' },
  { who: "made by another table's sync", name: () => byOther, cause: 'otherTable', image: 'nginx:1.26' },
])('a row named like a Tenant $who', ({ name: nameOf, cause, image: keptImage }) => {
  let name: string;
  let before: ReturnType<typeof untouched>;

  beforeAll(async () => {
    name = nameOf();
    before = untouched(await readTenant(name));
    await putRow(table, row(name, 'nginx:9.9'));
  });

  it('is reported: a log line naming it, the metric, one Warning Event on the Tenant', async () => {
    const line = await sync.waitForLog((l) => l.msg === SYNC_LOG.notOwned && l.tenant === name);
    expect(line).toMatchObject({ level: 'warn', cause });
    if (cause === 'otherTable') expect(line.otherTable).toBe(otherTable);
    const event = await waitUntil('a NotOwnedBySync Event', async () => (await notOwnedEvents(name))[0], {
      timeoutMs: 30_000,
    });
    expect(event?.type).toBe('Warning');
    expect(event?.message).toContain(table);
    expect(event?.message).toContain('neither updated nor deleted');
    expect(
      metricValue(await sync.metrics(), 'landlord_sync_not_owned_total', { cause }),
    ).toBeGreaterThanOrEqual(1);
  });

  it('is not applied to: spec, labels, annotations, status and field managers as they were', async () => {
    await moreScans(sync, 2);
    expect(untouched(await readTenant(name))).toEqual(before);
    expect(await image(name)).toBe(keptImage);
  });

  it('is reported once, not once per resync', async () => {
    await moreScans(sync, 2);
    const events = await notOwnedEvents(name);
    expect(events).toHaveLength(1);
    expect(events[0]?.count ?? 1).toBe(1);
    expect(sync.logs.filter((l) => l.msg === SYNC_LOG.notOwned && l.tenant === name)).toHaveLength(1);
  });

  it('is not deleted by deleted: true, nor when the row vanishes; its children stay', async () => {
    await updateRow(table, name, { deleted: true });
    await moreScans(sync, 3);
    expect(untouched(await readTenant(name))).toEqual(before);
    await deleteRow(table, name);
    await moreScans(sync, 3);
    expect(untouched(await readTenant(name))).toEqual(before);
    expect(await image(name)).toBe(keptImage);
    expect(ready(await readTenant(name))).toBe(true);
    expect(sync.logs.filter((l) => String(l.msg).startsWith('deleted tenant') && l.tenant === name)).toEqual(
      [],
    );
  });
});

describe('beside them', () => {
  it('a row of its own is synced as usual, with this table marks', async () => {
    await putRow(table, row(mine));
    const tenant = await waitUntil(
      `Tenant ${mine} Synced and Ready`,
      async () => {
        const t = await readTenant(mine);
        return syncedCondition(t)?.status === 'True' && ready(t) ? t : undefined;
      },
      { timeoutMs: 60_000 },
    );
    expect(tenant.metadata.labels?.[LABEL.sourceTable]).toBe(tableIdentity(table).sourceLabel);
  });

  it('the name is taken up once the Tenant made by hand is gone', async () => {
    await putRow(table, row(byHand, 'nginx:9.9'));
    await deleteTenant(custom, byHand);
    await waitUntil(
      `sync to make its own Tenant ${byHand}`,
      async () => {
        const t = await readTenant(byHand);
        return t?.metadata.labels?.[LABEL.sourceTable] === tableIdentity(table).sourceLabel && ready(t);
      },
      { timeoutMs: 60_000 },
    );
    expect(await image(byHand)).toBe('nginx:9.9');
  });
});

describe("sync's writes, against a Tenant replaced behind its back by one made with kubectl", () => {
  const writer = new TenantWriter(new KubeApi(kubeConfig()), tableIdentity(table), createMetrics('sync'));
  const rowSpec = tenantManifest(replaced, 'default', 0).spec!;
  let own: Tenant;
  let other: Tenant;

  const status = (err: unknown): number | undefined => (err instanceof ApiError ? err.status : undefined);
  /** What a write would change (the operator may add its status meanwhile: that is not sync's). */
  const written = (t: Tenant | undefined) => {
    const { uid, generation, labels, annotations } = t?.metadata ?? {};
    return { uid, generation, labels, annotations, spec: t?.spec };
  };

  beforeAll(async () => {
    own = await writer.create(replaced, rowSpec, 'h1');
    await deleteTenant(custom, replaced);
    await waitUntil(
      'the Tenant sync made to be gone',
      async () => (await readTenant(replaced)) === undefined,
      {
        timeoutMs: 30_000,
      },
    );
    other = await createTenant(custom, tenantManifest(replaced, 'default', 1));
    expect(other.metadata.uid).not.toBe(own.metadata.uid);
  });

  it('an apply naming the uid sync made is refused, and changes nothing', async () => {
    const err = await writer.apply(replaced, rowSpec, 'h2', own).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Error);
    expect(String(err)).toContain('was replaced');
    expect(written(await readTenant(replaced))).toEqual(written(other));
  });

  it('a create (a POST) is refused with 409, and changes nothing', async () => {
    const err = await writer.create(replaced, rowSpec, 'h2').catch((e: unknown) => e);
    expect(status(err)).toBe(409);
    expect(written(await readTenant(replaced))).toEqual(written(other));
  });

  it('a delete of the object sync read before is refused: uid and resourceVersion preconditions', async () => {
    expect(status(await writer.delete(own).catch((e: unknown) => e))).toBe(409);
    const stale = {
      ...other,
      metadata: { ...other.metadata, resourceVersion: own.metadata.resourceVersion },
    };
    expect(status(await writer.delete(stale).catch((e: unknown) => e))).toBe(409);
    expect((await readTenant(replaced))?.metadata.uid).toBe(other.metadata.uid);
  });
});
