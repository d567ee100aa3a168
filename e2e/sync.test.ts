// sync against the real control plane and moto with a stream: rows become Tenants, edits flow
// through the stream, refusals are visible, deletions happen, and an unchanged table costs nothing.
// One file because the cases share one table, stream and sync process, in the order a table lives.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANNOTATION, LABEL, type Tenant } from '../api/tenant.js';
import { tableIdentity } from '../sync/identity.js';
import { SYNC_LOG } from '../sync/reasons.js';
import { waitUntil } from '../harness/wait.js';
import { uniqueName } from './support/env.js';
import { kubectl } from './support/kubectl.js';
import { verbDelta, writesByVerb, type LandlordProcess } from './support/landlord.js';
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
  tenantWrites,
  updateRow,
  verbatimRow,
} from './support/sync.js';

const table = uniqueName('sync-main');
let sync: LandlordProcess;

const image = (tenant: Tenant | undefined): string | undefined =>
  tenant?.spec?.deployment?.spec?.template.spec?.containers[0]?.image;

/** Waits for the Tenant to exist and pass the check. */
function tenantWhere(
  name: string,
  check: (t: Tenant) => boolean,
  what: string,
  timeoutMs = 30_000,
): Promise<Tenant> {
  return waitUntil(
    `Tenant ${name}: ${what}`,
    async () => {
      const tenant = await readTenant(name);
      return tenant !== undefined && check(tenant) ? tenant : undefined;
    },
    { timeoutMs, intervalMs: 100 },
  );
}

const synced = (name: string): Promise<Tenant> =>
  tenantWhere(name, (t) => syncedCondition(t)?.status === 'True', 'Synced=True');

/** The Tenant's field managers as manager/operation/subresource. */
const managers = (t: Tenant): string[] =>
  (t.metadata.managedFields ?? []).map((m) => `${m.manager}/${m.operation}/${m.subresource ?? ''}`).sort();

const gone = (name: string, timeoutMs = 30_000): Promise<boolean> =>
  waitUntil(`Tenant ${name} to be gone`, async () => (await readTenant(name)) === undefined, {
    timeoutMs,
    intervalMs: 100,
  });

/** The spec of the row, as the Tenant must carry it. */
function expectVerbatimSpec(tenant: Tenant, name: string): void {
  const deployment = tenant.spec?.deployment;
  expect(deployment?.metadata?.name).toBe(`${name}-app`);
  expect(deployment?.metadata?.namespace).toBe('default');
  expect(image(tenant)).toBe('nginx:latest');
  const configMaps = tenant.spec?.configMaps ?? [];
  expect(configMaps.map((cm) => cm.metadata?.name)).toEqual([`${name}-config`]);
  expect(configMaps[0]?.data).toEqual({ 'config.json': '{"key": "value"}' });
}

/** Labels, annotations and status sync owns on every Tenant it makes. */
function expectOwnedMetadata(tenant: Tenant): void {
  const { labels = {}, annotations = {} } = tenant.metadata;
  expect(labels).toMatchObject({
    [LABEL.managedBy]: 'landlord-sync',
    [LABEL.sourceTable]: tableIdentity(table).sourceLabel,
  });
  const hash = annotations[ANNOTATION.rowHash];
  expect(hash).toMatch(/^[0-9a-f]{32}$/);
  expect(annotations[ANNOTATION.table]).toBe(table);
  const condition = syncedCondition(tenant);
  expect(condition).toMatchObject({
    status: 'True',
    reason: 'RowSynced',
    observedGeneration: tenant.metadata.generation,
  });
  expect(condition?.message).toContain(table);
  expect(tenant.status?.sync).toMatchObject({ table, rowHash: hash });
}

beforeAll(async () => {
  await createTable(table);
  sync = startSync(table, { LANDLORD_SYNC_RESYNC_SECONDS: '3' });
  await sync.ready();
});

afterAll(async () => {
  expect(await sync.stop()).toBe(0);
  await deleteSyncedTenants(table);
});

describe('a row becomes a Tenant', () => {
  const name = uniqueName('tenant');

  it('turns the issue’s row, put verbatim, into a Tenant with its spec, labels, annotations and Synced=True', async () => {
    await putRow(table, verbatimRow(name));
    const tenant = await synced(name);
    expectVerbatimSpec(tenant, name);
    expectOwnedMetadata(tenant);
    await sync.waitForLog((l) => l.msg === SYNC_LOG.created && l.tenant === name);
    const printed = await kubectl(
      'get',
      'tenants',
      name,
      '--no-headers',
      '-o',
      'custom-columns=SYNCED:.status.conditions[?(@.type=="Synced")].status',
    );
    expect(printed.trim()).toBe('True');
  });

  it('applies an UpdateItem through the stream', async () => {
    const before = await synced(name);
    const spec = String(verbatimRow(name).spec).replace('nginx:latest', 'nginx:1.28');
    const started = performance.now();
    await updateRow(table, name, { spec });
    const after = await tenantWhere(name, (t) => image(t) === 'nginx:1.28', 'the new image');
    const latencyMs = performance.now() - started;
    console.log(`sync: UpdateItem → Tenant spec updated in ${latencyMs.toFixed(0)} ms (stream)`);
    expect(after.metadata.uid).toBe(before.metadata.uid);
    expect(after.metadata.annotations?.[ANNOTATION.rowHash]).not.toBe(
      before.metadata.annotations?.[ANNOTATION.rowHash],
    );
    const status = await tenantWhere(
      name,
      (t) => syncedCondition(t)?.observedGeneration === t.metadata.generation,
      'Synced for the new generation',
    );
    expect(status.status?.sync?.rowHash).toBe(after.metadata.annotations?.[ANNOTATION.rowHash]);
    expect(Date.parse(status.status!.sync!.lastChangedTime)).toBeGreaterThanOrEqual(
      Date.parse(before.status!.sync!.lastChangedTime),
    );
    // sync announces no creation or update: the row hash and time are in status.sync, and the
    // operator's Created/Updated Events name the children. Its Events are Warnings only.
    await sync.waitForLog((l) => l.msg === SYNC_LOG.updated && l.tenant === name);
    const normal = (await eventsFor(name)).filter((e) => e.type === 'Normal');
    expect(normal.map((e) => `${e.source?.component} ${e.reason}`)).toEqual([]);
  });

  it("removes what an edited row drops: a Tenant made by POST hands its fields to sync's apply first", async () => {
    const dropper = `${table}-drops`;
    const withDelay = JSON.parse(String(row(dropper).spec)) as { spec: Record<string, unknown> };
    withDelay.spec.minReadySeconds = 5;
    await putRow(table, { ...row(dropper), spec: JSON.stringify(withDelay), class: 'dropped-class' });
    const created = await synced(dropper);
    expect(created.spec?.class).toBe('dropped-class');
    expect(managers(created)).toContain('landlord-sync/Update/');
    const writes = await writesByVerb(sync, 'tenants');

    // The whole row again, without its class and minReadySeconds.
    await putRow(table, row(dropper, 'nginx:1.28'));
    const edited = await tenantWhere(dropper, (t) => image(t) === 'nginx:1.28', 'the new image');
    // Without the hand-over, the create's Update entry would keep the class on the Tenant.
    expect(edited.spec?.class).toBeUndefined();
    expect(edited.spec?.deployment?.spec?.minReadySeconds).toBeUndefined();
    expect(managers(edited).filter((m) => m.startsWith('landlord-sync/'))).toEqual([
      'landlord-sync/Apply/',
      'landlord-sync/Apply/status',
    ]);
    // The row's Deployment is one field of sync's entry (the CRD marks it atomic), however large.
    const entry = edited.metadata.managedFields?.find((m) => m.manager === 'landlord-sync' && !m.subresource);
    const fields = entry?.fieldsV1 as { 'f:spec'?: Record<string, unknown> } | undefined;
    expect(fields?.['f:spec']?.['f:deployment']).toEqual({});
    // The first apply costs one read and one patch more; the next costs the apply alone.
    expect(verbDelta(writes, await writesByVerb(sync, 'tenants'))).toEqual({ apply: 1, patch: 1 });
  });

  it('refuses invalid JSON in spec: Synced=False naming the attribute, the last valid spec kept, one Event', async () => {
    const before = await synced(name);
    await updateRow(table, name, { spec: '{"apiVersion": "apps/v1", "kind": ' });
    const refused = await tenantWhere(name, (t) => syncedCondition(t)?.status === 'False', 'Synced=False');
    expect(syncedCondition(refused)?.reason).toBe('InvalidRecord');
    expect(syncedCondition(refused)?.message).toMatch(/^spec: /);
    expect(refused.spec).toEqual(before.spec);
    expect(refused.metadata.generation).toBe(before.metadata.generation);
    expect(refused.metadata.annotations?.[ANNOTATION.rowHash]).toBe(
      before.metadata.annotations?.[ANNOTATION.rowHash],
    );
    await sync.waitForLog((l) => l.msg === SYNC_LOG.refused && l.tenant === name && l.attribute === 'spec');
    // Scans that read the same refused row again neither write nor record anything more.
    await moreScans(sync, 2);
    const events = await eventsFor(name, 'InvalidRecord');
    expect(events.length).toBe(1);
    expect(events[0]?.count).toBe(1);
    expect(events[0]?.type).toBe('Warning');
    expect(events[0]?.message).toBe(syncedCondition(refused)?.message);
    expect(sync.logs.filter((l) => l.msg === SYNC_LOG.refused && l.tenant === name)).toHaveLength(1);
  });

  it('syncs again once the row is fixed', async () => {
    await putRow(table, row(name, 'nginx:1.29'));
    const fixed = await tenantWhere(
      name,
      (t) => image(t) === 'nginx:1.29' && syncedCondition(t)?.status === 'True',
      'the fixed row synced',
    );
    expect(fixed.spec?.configMaps).toEqual([]);
  });

  it('deletes the Tenant for deleted: true', async () => {
    await updateRow(table, name, { deleted: true });
    await gone(name);
    await sync.waitForLog((l) => l.msg === SYNC_LOG.deletedByRow && l.tenant === name);
  });
});

describe('the table is the source of truth', () => {
  it('prunes the Tenant of a row deleted from the table', async () => {
    const name = uniqueName('pruned');
    await putRow(table, row(name));
    await synced(name);
    await deleteRow(table, name);
    await gone(name);
    await sync.waitForLog((l) => l.msg === SYNC_LOG.deletedGone && l.tenant === name);
  });

  it('brings back a Tenant deleted with kubectl while its row exists', async () => {
    const name = uniqueName('back');
    await putRow(table, row(name));
    const first = await synced(name);
    await kubectl('delete', 'tenant', name, '--wait=true');
    const again = await tenantWhere(
      name,
      (t) => t.metadata.uid !== first.metadata.uid && syncedCondition(t)?.status === 'True',
      'recreated',
    );
    expect(image(again)).toBe('nginx:1.27');
  });

  it('puts back a spec edited with kubectl', async () => {
    const name = uniqueName('edited');
    await putRow(table, row(name));
    const first = await synced(name);
    await kubectl(
      'patch',
      'tenant',
      name,
      '--type=json',
      '-p',
      JSON.stringify([{ op: 'replace', path: '/spec/deployment/spec/replicas', value: 3 }]),
    );
    const restored = await tenantWhere(
      name,
      (t) =>
        t.metadata.generation! > first.metadata.generation! + 1 &&
        syncedCondition(t)?.observedGeneration === t.metadata.generation,
      'the row’s spec applied again',
    );
    expect(restored.spec?.deployment?.spec?.replicas).toBe(1);
    expect(restored.metadata.uid).toBe(first.metadata.uid);
  });
});

describe('rows sync refuses', () => {
  it('makes a Tenant without a spec for a new row that is invalid, so kubectl shows why', async () => {
    const name = uniqueName('never-valid');
    await putRow(table, { name, spec: '{"kind": "Deployment"', deleted: false });
    const refused = await tenantWhere(name, (t) => syncedCondition(t)?.status === 'False', 'Synced=False');
    expect(refused.spec?.deployment).toBeUndefined();
    expect(syncedCondition(refused)).toMatchObject({ reason: 'InvalidRecord' });
    expect(syncedCondition(refused)?.message).toMatch(/^spec: invalid JSON/);
    const printed = await kubectl('get', 'tenants', name, '--no-headers');
    expect(printed).toMatch(new RegExp(`^${name}\\s+False`));
  });

  it('reports a spec the API server rejects (a namespace over 63 characters) as ApplyRejected, once', async () => {
    const name = uniqueName('rejected');
    // sync refuses a missing name itself (sync/row/limits.ts); the Tenant's schema alone limits the namespace.
    const spec = JSON.stringify({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: `${name}-app`, namespace: 'n'.repeat(64) },
    });
    await putRow(table, { name, spec, deleted: false });
    const refused = await tenantWhere(name, (t) => syncedCondition(t)?.status === 'False', 'Synced=False');
    expect(syncedCondition(refused)?.reason).toBe('ApplyRejected');
    expect(syncedCondition(refused)?.message).toContain('metadata.namespace');
    expect(refused.spec?.deployment).toBeUndefined();
    await moreScans(sync, 2);
    expect(sync.logs.filter((l) => l.msg === SYNC_LOG.rejected && l.tenant === name)).toHaveLength(1);
    expect((await eventsFor(name, 'ApplyRejected')).length).toBe(1);
  });

  it('skips a row whose name cannot name a Tenant, says so once, and keeps syncing the rest', async () => {
    const bad = `Bad_Name_${uniqueName('x')}`;
    const good = uniqueName('good');
    await putRow(table, row(bad));
    await putRow(table, row(good));
    await synced(good);
    const line = await sync.waitForLog((l) => l.msg === SYNC_LOG.invalidName && l.rawName === bad);
    expect(String(line.problem)).toMatch(/^name: .* is not a DNS-1123 label/);
    await moreScans(sync, 2);
    expect(sync.logs.filter((l) => l.msg === SYNC_LOG.invalidName && l.rawName === bad)).toHaveLength(1);
    const metrics = await sync.metrics();
    expect(metrics).toMatch(/^landlord_sync_invalid_rows\{[^}]*\} [1-9]/m);
    await deleteRow(table, bad);
  });
});

describe('steady state', () => {
  const names = Array.from({ length: 10 }, () => uniqueName('steady'));

  it('makes no Tenant writes across two full resyncs of an unchanged table', async () => {
    for (const name of names) await putRow(table, row(name));
    for (const name of names) await synced(name);
    await moreScans(sync, 1);
    const before = await tenantWrites(sync);
    await moreScans(sync, 2);
    expect(await tenantWrites(sync)).toBe(before);
  });

  it('makes none after a restart either: the row hashes on the Tenants say all is current', async () => {
    const uids = new Map(
      (await Promise.all(names.map(readTenant))).map((t) => [t?.metadata.name, t?.metadata.uid]),
    );
    expect(await sync.stop()).toBe(0);
    sync = startSync(table, { LANDLORD_SYNC_RESYNC_SECONDS: '3' });
    await moreScans(sync, 2);
    expect(await tenantWrites(sync)).toBe(0);
    for (const name of names) expect((await readTenant(name))?.metadata.uid).toBe(uids.get(name));
  });
});
