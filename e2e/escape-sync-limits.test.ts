// Issue 37, class 6: limits that protect the API server are sync's to enforce, before it writes. A
// row with thousands of empty ConfigMaps, and one over the size limit (small in DynamoDB, over
// 400 KiB as JSON), are refused with InvalidRecord naming the attribute, and the API server counts
// no write to Tenants: nothing of them is sent. Attacks of our own: a Secret among the ConfigMaps,
// and a ConfigMap named kube-root-ca.crt next to two of one name. The Tenants keep their last valid
// spec, and the neighbour is untouched.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Tenant } from '../api/tenant.js';
import { requestCounts, type RequestCounts } from '../harness/apiserver-requests.js';
import { waitUntil } from '../harness/wait.js';
import { SYNC_EVENT, SYNC_REASON } from '../sync/reasons.js';
import { quietCounts } from './support/cluster-settle.js';
import { apiServerAccess, writesTo } from './support/escape.js';
import { uniqueName } from './support/env.js';
import { metricValue, type LandlordProcess } from './support/landlord.js';
import {
  createTable,
  deleteSyncedTenants,
  eventsWritten,
  putRow,
  readTenant,
  row,
  startSync,
  syncedCondition,
  syncedTenants,
} from './support/sync.js';

const table = uniqueName('sync-limits');
const [emptyMaps, oversize, secret, rootCa, neighbour] = ['maps', 'big', 'secret', 'rootca', 'nb'].map(
  (s) => `${table}-${s}`,
) as [string, string, string, string, string];
const attacked = [emptyMaps, oversize, secret, rootCa];
let sync: LandlordProcess;
let before: RequestCounts;
const specs = new Map<string, { generation: number | undefined; resourceVersion: string | undefined }>();

const configMap = (name: string, kind = 'ConfigMap'): Record<string, unknown> => ({
  apiVersion: 'v1',
  kind,
  metadata: { name, namespace: 'default' },
  data: { key: 'value' },
});

beforeAll(async () => {
  await createTable(table);
  for (const name of [...attacked, neighbour]) await putRow(table, row(name));
  sync = startSync(table, { LANDLORD_SYNC_RESYNC_SECONDS: '5' });
  await waitUntil(
    'every Tenant Synced',
    async () =>
      (await syncedTenants(table)).filter((t) => syncedCondition(t)?.status === 'True').length === 5,
    { timeoutMs: 90_000 },
  );
  for (const tenant of await syncedTenants(table)) {
    const { name = '', generation, resourceVersion } = tenant.metadata;
    specs.set(name, { generation, resourceVersion });
  }
  ({ counts: before } = await quietCounts(apiServerAccess(), { timeoutMs: 120_000 }));
});

afterAll(async () => {
  expect(await sync.stop()).toBe(0);
  await deleteSyncedTenants(table);
});

/** Refused by sync: Synced=False InvalidRecord with this message, a Warning Event, and the old spec kept. */
async function refusedBySync(name: string, message: RegExp): Promise<Tenant> {
  const tenant = await waitUntil(
    `${name} refused with InvalidRecord`,
    async () => {
      const t = await readTenant(name);
      return syncedCondition(t)?.reason === SYNC_REASON.invalidRecord ? t : undefined;
    },
    { timeoutMs: 60_000 },
  );
  expect(syncedCondition(tenant)?.status).toBe('False');
  expect(syncedCondition(tenant)?.message).toMatch(message);
  const [event] = await eventsWritten(name, SYNC_EVENT.invalidRecord);
  expect(event?.type).toBe('Warning');
  expect(tenant.metadata.generation).toBe(specs.get(name)?.generation);
  expect(tenant.spec?.configMaps).toEqual([]);
  return tenant;
}

describe('limits sync enforces before it writes', () => {
  it('a row with 5,000 empty ConfigMaps: InvalidRecord naming customizations', async () => {
    await putRow(table, {
      ...row(emptyMaps),
      customizations: JSON.stringify(Array.from({ length: 5000 }, () => ({}))),
    });
    await refusedBySync(
      emptyMaps,
      /^customizations: 5000 ConfigMaps, more than the 50 allowed \(maxConfigMaps; /,
    );
  });

  it('a row over the size limit as JSON (a native map, small in DynamoDB): InvalidRecord naming spec', async () => {
    const deployment = JSON.parse(row(oversize).spec as string) as Record<string, unknown>;
    // 80,000 control characters: 80 KB in DynamoDB, one byte each, but 480 KB as JSON, where each is
    // written \u0001. One string, not tens of thousands of map entries: moto needs seconds per read
    // of such a map, longer than sync's request timeout, which DynamoDB itself never does.
    const padding = '\u0001'.repeat(80_000);
    await putRow(table, { ...row(oversize), spec: { ...deployment, padding } });
    await refusedBySync(
      oversize,
      /^spec: spec and customizations are \d+ bytes of JSON, more than the 409600 allowed/,
    );
  });

  it('attack: a Secret among the ConfigMaps: InvalidRecord naming its kind', async () => {
    const customizations = JSON.stringify([configMap(`${secret}-a`), configMap(`${secret}-b`, 'Secret')]);
    await putRow(table, { ...row(secret), customizations });
    await refusedBySync(secret, /^customizations\[1\]\.kind: must be "ConfigMap", got "Secret"/);
  });

  it('attack: kube-root-ca.crt and two ConfigMaps of one name: InvalidRecord, then the duplicate', async () => {
    await putRow(table, { ...row(rootCa), customizations: JSON.stringify([configMap('kube-root-ca.crt')]) });
    await refusedBySync(
      rootCa,
      /^customizations\[0\]\.metadata\.name: "kube-root-ca\.crt" is written in every namespace/,
    );
    const twice = JSON.stringify([configMap(`${rootCa}-x`), configMap(`${rootCa}-x`)]);
    await putRow(table, { ...row(rootCa), customizations: twice });
    await waitUntil(
      'the duplicate named',
      async () =>
        /customizations\[1\]\.metadata\.name: .* names must be unique/.test(
          syncedCondition(await readTenant(rootCa))?.message ?? '',
        ) || undefined,
      { timeoutMs: 60_000 },
    );
  });

  it('sent nothing: the API server counts no write to Tenants, sync applied nothing, the neighbour is untouched', async () => {
    const after = await requestCounts(apiServerAccess());
    // Only the Synced condition (tenants/status) and the Events were written.
    expect(writesTo(before, after, ['tenants'])).toEqual({});
    const text = await sync.metrics();
    const written = (kind: string): number => metricValue(text, 'landlord_sync_writes_total', { kind });
    // The five Tenants' creates, before the attacks; nothing since.
    expect([written('create'), written('apply')]).toEqual([5, 0]);
    const now = await readTenant(neighbour);
    expect(now?.metadata.resourceVersion).toBe(specs.get(neighbour)?.resourceVersion);
    expect(syncedCondition(now)?.status).toBe('True');
  });
});
