// sync and the operator together, as issue 4 asks to show: the seed row, put verbatim, becomes a
// Deployment and a ConfigMap; an edit reaches the Deployment; a refused edit leaves it running;
// deleted: true takes the Tenant and its children away.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONDITION, type Tenant } from '../api/tenant.js';
import { waitUntil } from '../harness/wait.js';
import { clients, uniqueName } from './support/env.js';
import type { LandlordProcess } from './support/landlord.js';
import {
  createTable,
  deleteSyncedTenants,
  putRow,
  readTenant,
  startSyncAndOperator,
  syncedCondition,
  updateRow,
  verbatimRow,
} from './support/sync.js';

const { apps, core } = clients();
const table = uniqueName('sync-op');
const name = uniqueName('tenant');
let sync: LandlordProcess;
let operator: LandlordProcess;

const notFound = (read: () => Promise<unknown>) => () =>
  read().then(
    () => false,
    (err: { code?: number }) => err.code === 404,
  );

const readDeployment = () => apps.readNamespacedDeployment({ name: `${name}-app`, namespace: 'default' });

beforeAll(async () => {
  await createTable(table);
  ({ sync, operator } = await startSyncAndOperator(table, { LANDLORD_SYNC_RESYNC_SECONDS: '5' }));
});

afterAll(async () => {
  expect(await sync.stop()).toBe(0);
  expect(await operator.stop()).toBe(0);
  await deleteSyncedTenants(table);
});

describe('the seed row with the operator', () => {
  it('gives a Tenant, a Deployment <name>-app and a ConfigMap <name>-config in default', async () => {
    await putRow(table, verbatimRow(name));
    const tenant = await waitUntil(
      `Tenant ${name} Ready and Synced`,
      async () => {
        const t = await readTenant(name);
        const ready = t?.status?.conditions?.find((c) => c.type === CONDITION.ready);
        return ready?.status === 'True' && syncedCondition(t)?.status === 'True' ? t : undefined;
      },
      { timeoutMs: 90_000 },
    );
    const deployment = await readDeployment();
    expect(deployment.spec?.template.spec?.containers[0]?.image).toBe('nginx:latest');
    expect(deployment.metadata?.ownerReferences?.[0]).toMatchObject({
      kind: 'Tenant',
      name,
      uid: tenant.metadata.uid,
    });
    const configMap = await core.readNamespacedConfigMap({ name: `${name}-config`, namespace: 'default' });
    expect(configMap.data).toEqual({ 'config.json': '{"key": "value"}' });
  });

  it('applies an UpdateItem to the Deployment', async () => {
    const spec = String(verbatimRow(name).spec).replace('nginx:latest', 'nginx:1.28');
    const started = performance.now();
    await updateRow(table, name, { spec });
    await waitUntil(
      'the Deployment to carry the new image',
      async () => (await readDeployment()).spec?.template.spec?.containers[0]?.image === 'nginx:1.28',
      { timeoutMs: 30_000, intervalMs: 50 },
    );
    console.log(
      `sync+operator: UpdateItem → Deployment updated in ${(performance.now() - started).toFixed(0)} ms`,
    );
  });

  it('refuses invalid JSON in spec with Synced=False and leaves the running Deployment untouched', async () => {
    const before = await readDeployment();
    await updateRow(table, name, { spec: '{"apiVersion": "apps/v1", ' });
    const refused: Tenant = await waitUntil(
      'Synced=False',
      async () => {
        const t = await readTenant(name);
        return syncedCondition(t)?.status === 'False' ? t : undefined;
      },
      { timeoutMs: 30_000 },
    );
    expect(syncedCondition(refused)?.reason).toBe('InvalidRecord');
    expect(refused.status?.conditions?.find((c) => c.type === CONDITION.ready)?.status).toBe('True');
    const after = await readDeployment();
    expect(after.metadata?.generation).toBe(before.metadata?.generation);
    expect(after.spec?.template.spec?.containers[0]?.image).toBe('nginx:1.28');
  });

  it('takes the Tenant and its children away for deleted: true', async () => {
    await updateRow(table, name, { deleted: true });
    await waitUntil('the Tenant to be gone', async () => (await readTenant(name)) === undefined, {
      timeoutMs: 30_000,
    });
    await waitUntil('the Deployment to be garbage-collected', notFound(readDeployment), {
      timeoutMs: 90_000,
    });
    await waitUntil(
      'the ConfigMap to be garbage-collected',
      notFound(() => core.readNamespacedConfigMap({ name: `${name}-config`, namespace: 'default' })),
      { timeoutMs: 90_000 },
    );
  });
});
