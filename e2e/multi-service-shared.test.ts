// A row of several Deployments under a Shared class (issue 58), against the real control plane from
// the table through sync and the operator. A Shared class's tenants share one namespace, and the
// checks that keep neighbours' names and pod labels apart compare one Deployment per tenant, so
// such a row is refused: Applied and Ready False (LimitExceeded) with a message naming the class
// and its limit, a Warning Event saying the same, nothing made. A running tenant whose row turns
// into a list keeps its Deployment as it was, its neighbour is untouched, and the row written back
// as one object is Ready again. One sync and one operator; class, namespace and table removed after.
import type { V1Deployment } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONDITION } from '../api/tenant.js';
import { waitUntil } from '../harness/wait.js';
import { clients, uniqueName } from './support/env.js';
import { createClass, deleteClass, refusedWith } from './support/escape.js';
import { componentEnv, startLandlord, type LandlordProcess } from './support/landlord.js';
import {
  createTable,
  deleteSyncedTenants,
  putRow,
  readTenant,
  startSync,
  updateRow,
} from './support/sync.js';

const { apps, core, custom } = clients();
const table = uniqueName('mshared');
const ns = `${table}-ns`;
const className = `${table}-class`;
const neighbour = `${table}-a`;
const running = `${table}-b`;
const fresh = `${table}-c`;
let sync: LandlordProcess;
let operator: LandlordProcess;

function deployment(name: string, app: string): V1Deployment {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace: ns },
    spec: {
      replicas: 1,
      selector: { matchLabels: { app } },
      template: {
        metadata: { labels: { app } },
        spec: { containers: [{ name: 'app', image: 'nginx:1.27' }] },
      },
    },
  };
}

const rowOf = (name: string, spec: unknown): Record<string, unknown> => ({
  name,
  class: className,
  spec: JSON.stringify(spec),
  customizations: '[]',
});

const ready = (name: string): Promise<unknown> =>
  waitUntil(
    `Tenant ${name} Ready`,
    async () => {
      const t = await readTenant(name);
      const c = t?.status?.conditions?.find((x) => x.type === CONDITION.ready);
      return c?.status === 'True' && c.observedGeneration === t?.metadata.generation ? t : undefined;
    },
    { timeoutMs: 120_000 },
  );

const deploymentsIn = async (): Promise<string[]> =>
  (await apps.listNamespacedDeployment({ namespace: ns })).items.map((d) => d.metadata?.name ?? '').sort();

const versionOf = async (name: string): Promise<string | undefined> =>
  (await apps.readNamespacedDeployment({ name, namespace: ns })).metadata?.resourceVersion;

beforeAll(async () => {
  await core.createNamespace({ body: { metadata: { name: ns } } });
  await createTable(table);
  await createClass(custom, className, { namespace: { mode: 'Shared' } });
  sync = startSync(table, { LANDLORD_SYNC_RESYNC_SECONDS: '5' });
  operator = startLandlord('operator', componentEnv({ LANDLORD_OPERATOR_RESYNC_SECONDS: '10' }));
  await Promise.all([sync.ready(), operator.ready()]);
  await putRow(table, rowOf(neighbour, deployment(`${neighbour}-app`, neighbour)));
  await putRow(table, rowOf(running, deployment(`${running}-app`, running)));
  await Promise.all([ready(neighbour), ready(running)]);
});

afterAll(async () => {
  if ((sync as LandlordProcess | undefined) !== undefined) expect(await sync.stop()).toBe(0);
  if ((operator as LandlordProcess | undefined) !== undefined) expect(await operator.stop()).toBe(0);
  await deleteSyncedTenants(table);
  await deleteClass(custom, className);
  await core.deleteNamespace({ name: ns }).catch(() => undefined);
});

describe('a row of several Deployments under a Shared class', () => {
  it('is refused for a new tenant, naming the class and its limit, and makes nothing', async () => {
    const before = await deploymentsIn();
    await putRow(table, rowOf(fresh, [deployment('web', `${fresh}-web`), deployment('api', `${fresh}-api`)]));
    const message = await refusedWith(custom, fresh, 'LimitExceeded');
    expect(message).toContain(`the tenant class "${className}" is Shared`);
    expect(message).toContain('2 Deployments listed');
    expect(message).toContain('exactly 1 Deployment');
    const tenant = await readTenant(fresh);
    const readyNow = tenant?.status?.conditions?.find((c) => c.type === CONDITION.ready);
    expect(readyNow).toMatchObject({ status: 'False', reason: 'LimitExceeded' });
    expect(await deploymentsIn()).toEqual(before);
  });

  it('keeps a running tenant as it was when its row turns into a list, its neighbour untouched', async () => {
    const kept = {
      running: await versionOf(`${running}-app`),
      neighbour: await versionOf(`${neighbour}-app`),
    };
    const before = await deploymentsIn();
    await updateRow(table, running, {
      spec: JSON.stringify([
        deployment(`${running}-app`, running),
        deployment('worker', `${running}-worker`),
      ]),
    });
    const message = await refusedWith(custom, running, 'LimitExceeded');
    expect(message).toContain(`"${className}"`);
    // Two operator resyncs (10 s each): still nothing written.
    await new Promise((resolve) => setTimeout(resolve, 21_000));
    expect(await deploymentsIn()).toEqual(before);
    expect(await versionOf(`${running}-app`)).toBe(kept.running);
    expect(await versionOf(`${neighbour}-app`)).toBe(kept.neighbour);
    const other = await readTenant(neighbour);
    expect(other?.status?.conditions?.find((c) => c.type === CONDITION.ready)?.status).toBe('True');
  });

  it('is Ready again once the row is one Deployment again', async () => {
    await updateRow(table, running, { spec: JSON.stringify(deployment(`${running}-app`, running)) });
    await ready(running);
    expect(await deploymentsIn()).toEqual([`${neighbour}-app`, `${running}-app`].sort());
  });
});
