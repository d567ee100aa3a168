// Tenant lifecycle (issue 13; the purger has e2e/purger.test.ts) with sync and the operator running
// against the real control plane and moto: every transition of the row's `state` with the
// conditions, Events and children it leaves; an unknown state refused; `deleted: true` from
// suspended and archived; and a Tenant paused by hand, whose hand edits survive resyncs while sync
// keeps its spec current.
import type { CoreV1Event, V1Deployment } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANNOTATION, CONDITION, type Tenant } from '../api/tenant.js';
import { waitUntil } from '../harness/wait.js';
import { clients, uniqueName } from './support/env.js';
import { kubectl } from './support/kubectl.js';
import {
  componentEnv,
  startLandlord,
  type LandlordProcess,
  OPERATOR_WRITE_RESOURCES,
  writeRequests,
} from './support/landlord.js';
import {
  createTable,
  deleteSyncedTenants,
  eventsFor,
  eventsWritten,
  putRow,
  readTenant,
  moreScans,
  startSync,
  syncedCondition,
  tenantWrites,
  updateRow,
  verbatimRow,
} from './support/sync.js';
import { condition, waitForCondition } from './support/tenants.js';

const { apps, core, custom } = clients();
const table = uniqueName('lifecycle');
const prefix = uniqueName('lc');
const RUNNING = `${prefix}-running`;
const FROM_SUSPENDED = `${prefix}-del-suspended`;
const FROM_ARCHIVED = `${prefix}-del-archived`;
const PAUSED = `${prefix}-paused`;
let sync: LandlordProcess;
let operator: LandlordProcess;

/** The issue's seed row with 2 replicas (not the default 1, so a restore shows), and a state. */
function tenantRow(name: string, state?: string, image = 'nginx:latest'): Record<string, unknown> {
  const base = verbatimRow(name);
  const spec = String(base.spec).replace('"replicas":1', '"replicas":2').replace('nginx:latest', image);
  return { ...base, spec, ...(state === undefined ? {} : { state }) };
}

const deploymentOf = (name: string): Promise<V1Deployment> =>
  apps.readNamespacedDeployment({ name: `${name}-app`, namespace: 'default' });

const configMapOf = (name: string) =>
  core.readNamespacedConfigMap({ name: `${name}-config`, namespace: 'default' });

const gone = (read: () => Promise<unknown>) => () =>
  read().then(
    () => false,
    (err: { code?: number }) => err.code === 404,
  );

/** Both children of the tenant are gone: what archiving (and purging) leaves. */
async function childrenRemoved(name: string): Promise<void> {
  await waitUntil(
    'the Deployment to be removed',
    gone(() => deploymentOf(name)),
    { timeoutMs: 30_000 },
  );
  await waitUntil(
    'the ConfigMap to be removed',
    gone(() => configMapOf(name)),
    { timeoutMs: 30_000 },
  );
}

const ready = (name: string, status: 'True' | 'False', reason?: string): Promise<Tenant> =>
  waitForCondition(custom, name, { type: CONDITION.ready, status, reason });

/** The Events of this reason on the Tenant, once at least one has been written. */
function eventsOf(name: string, reason: string): Promise<CoreV1Event[]> {
  return eventsWritten(name, reason, 15_000);
}

/** How many times an Event of this reason was recorded: Events fold repeats into a count. */
const timesRecorded = (events: CoreV1Event[]): number => events.reduce((n, e) => n + (e.count ?? 1), 0);

/** The tenant's row in `kubectl get tenants`, by column name. */
async function columns(name: string): Promise<Record<string, string>> {
  const [header = '', line = ''] = (await kubectl('get', 'tenants', name)).trim().split('\n');
  const starts = [...header.matchAll(/\S+/g)].map((m) => m.index);
  const names = header.split(/\s+/);
  return Object.fromEntries(names.map((column, i) => [column, line.slice(starts[i], starts[i + 1]).trim()]));
}

/** Write requests the operator made, from its own metrics. */
async function operatorWrites(): Promise<number> {
  return writeRequests(operator, OPERATOR_WRITE_RESOURCES);
}

/** Resolves after the operator logs a complete resync that started after this call. */
async function operatorResync(): Promise<void> {
  const since = Date.now();
  await operator.waitForLog(
    (l) => l.msg === 'resync complete' && Date.parse(String(l.time)) - Number(l.durationMs) > since,
    30_000,
  );
}

beforeAll(async () => {
  await createTable(table);
  sync = startSync(table, { LANDLORD_SYNC_RESYNC_SECONDS: '5' });
  operator = startLandlord('operator', componentEnv({ LANDLORD_OPERATOR_RESYNC_SECONDS: '10' }));
  await Promise.all([sync.ready(), operator.ready()]);
  await putRow(table, tenantRow(RUNNING));
  await putRow(table, tenantRow(FROM_SUSPENDED, 'suspended'));
  await putRow(table, tenantRow(FROM_ARCHIVED, 'archived'));
  await putRow(table, tenantRow(PAUSED));
});

afterAll(async () => {
  expect(await sync.stop()).toBe(0);
  expect(await operator.stop()).toBe(0);
  await deleteSyncedTenants(table);
});

describe('the row states', () => {
  it('active (no state attribute): runs, and kubectl shows STATE active', async () => {
    await ready(RUNNING, 'True');
    expect((await deploymentOf(RUNNING)).spec?.replicas).toBe(2);
    expect(await columns(RUNNING)).toMatchObject({ READY: 'True', REASON: 'Ready', STATE: 'active' });
  });

  it('active → suspended: the Deployment at 0 replicas and otherwise as the row says, ConfigMaps kept, Ready=False Suspended, one Event', async () => {
    const before = await deploymentOf(RUNNING);
    await updateRow(table, RUNNING, { state: 'suspended' });
    const tenant = await ready(RUNNING, 'False', 'Suspended');
    expect(tenant.spec?.state).toBe('suspended');
    expect(tenant.status?.state).toBe('suspended');
    expect(condition(tenant, CONDITION.ready)?.message).toMatch(
      /runs 0 replicas .*set the row's state to active/,
    );
    const after = await deploymentOf(RUNNING);
    expect(after.spec?.replicas).toBe(0);
    expect(after.metadata?.uid).toBe(before.metadata?.uid);
    expect(after.spec?.template).toEqual(before.spec?.template);
    expect((await configMapOf(RUNNING)).data).toEqual({ 'config.json': '{"key": "value"}' });
    const shown = { READY: 'False', REASON: 'Suspended', REPLICAS: '0/0', STATE: 'suspended' };
    await waitUntil(
      'kubectl get tenants to show the tenant suspended, its pods gone',
      async () => {
        const cells = await columns(RUNNING);
        return Object.entries(shown).every(([column, value]) => cells[column] === value);
      },
      { timeoutMs: 30_000 },
    );
    expect((await eventsOf(RUNNING, 'Suspended'))[0]).toMatchObject({ type: 'Normal', count: 1 });
  });

  it("suspended → active: the row's replicas back, Ready=True, a Resumed Event", async () => {
    await updateRow(table, RUNNING, { state: 'active' });
    const tenant = await ready(RUNNING, 'True');
    expect(tenant.status?.state).toBeUndefined();
    expect((await deploymentOf(RUNNING)).spec?.replicas).toBe(2);
    expect((await eventsOf(RUNNING, 'Resumed'))[0]?.message).toBe(
      'resumed from suspended: the Deployment and ConfigMaps are applied as the row says',
    );
  });

  it('active → archived: the Deployment and ConfigMap are removed, the Tenant stays with Ready=False Archived', async () => {
    await updateRow(table, RUNNING, { state: 'archived' });
    const tenant = await ready(RUNNING, 'False', 'Archived');
    expect(tenant.status).toMatchObject({ state: 'archived', configMaps: [] });
    expect(tenant.status).not.toHaveProperty('deployment');
    expect(condition(tenant, CONDITION.available)).toMatchObject({ status: 'False', reason: 'Archived' });
    await childrenRemoved(RUNNING);
    expect(await readTenant(RUNNING)).toBeDefined();
    expect((await eventsOf(RUNNING, 'Archived'))[0]).toMatchObject({ type: 'Normal', count: 1 });
  });

  it('archived → active: the children are made again', async () => {
    await updateRow(table, RUNNING, { state: 'active' });
    await ready(RUNNING, 'True');
    expect((await deploymentOf(RUNNING)).spec?.replicas).toBe(2);
    expect((await configMapOf(RUNNING)).data).toEqual({ 'config.json': '{"key": "value"}' });
  });

  it("active → purged: as archived, and the Tenant says the data is the purger's to delete", async () => {
    await updateRow(table, RUNNING, { state: 'purged' });
    const tenant = await ready(RUNNING, 'False', 'Archived');
    expect(tenant.status?.state).toBe('purged');
    expect(condition(tenant, CONDITION.ready)?.message).toMatch(
      /state is purged: .* removed as for archived, and the purger .* deletes the tenant's data after its delay/,
    );
    await childrenRemoved(RUNNING);
    const [requested] = await eventsOf(RUNNING, 'PurgeRequested');
    expect(requested?.type).toBe('Normal');
    expect(requested?.message).toMatch(/the purger, where installed, deletes the tenant's data/);
  });

  it('purged → active: the children are made again', async () => {
    await updateRow(table, RUNNING, { state: 'active' });
    await ready(RUNNING, 'True');
    expect((await deploymentOf(RUNNING)).spec?.replicas).toBe(2);
  });

  it('an unknown state: Synced=False InvalidRecord naming the allowed values, the running Deployment untouched', async () => {
    const before = await deploymentOf(RUNNING);
    await updateRow(table, RUNNING, { state: 'Archived' });
    const refused = await waitUntil(
      'Synced=False',
      async () => {
        const t = await readTenant(RUNNING);
        return syncedCondition(t)?.status === 'False' ? t : undefined;
      },
      { timeoutMs: 30_000 },
    );
    expect(syncedCondition(refused)).toMatchObject({
      reason: 'InvalidRecord',
      message:
        'state: "Archived" is not a state; allowed: active, suspended, archived, purged (absent: active)',
    });
    expect(refused.spec?.state).toBe('active');
    expect(condition(refused, CONDITION.ready)?.status).toBe('True');
    const after = await deploymentOf(RUNNING);
    expect(after.metadata?.generation).toBe(before.metadata?.generation);
    expect(after.spec?.replicas).toBe(2);
  });

  it('announced each transition once, however many resyncs passed', async () => {
    await operatorResync();
    for (const reason of ['Suspended', 'Archived', 'PurgeRequested'])
      expect(timesRecorded(await eventsFor(RUNNING, reason)), reason).toBe(1);
    // Resumed three times, from suspended, archived and purged: three messages, each once.
    const resumed = await eventsFor(RUNNING, 'Resumed');
    expect(resumed.map((e) => [e.message?.split(':')[0], e.count ?? 1]).sort()).toEqual([
      ['resumed from archived', 1],
      ['resumed from purged', 1],
      ['resumed from suspended', 1],
    ]);
  });
});

describe('paused by hand', () => {
  it('annotated landlord.dev/paused=true: Ready=False Paused, Applied=Unknown, a Paused Event', async () => {
    await ready(PAUSED, 'True');
    await kubectl('annotate', 'tenant', PAUSED, `${ANNOTATION.paused}=true`);
    const tenant = await ready(PAUSED, 'False', 'Paused');
    expect(condition(tenant, CONDITION.applied)).toMatchObject({ status: 'Unknown', reason: 'Paused' });
    expect(condition(tenant, CONDITION.ready)?.message).toMatch(/remove the annotation to resume/);
    expect((await eventsOf(PAUSED, 'Paused'))[0]).toMatchObject({ type: 'Normal' });
  });

  it('a hand edit and a new row both leave the children alone across a resync; sync keeps the spec and the annotation', async () => {
    await kubectl('scale', 'deployment', `${PAUSED}-app`, '-n', 'default', '--replicas=3');
    await updateRow(table, PAUSED, { spec: tenantRow(PAUSED, undefined, 'nginx:1.28').spec });
    const updated = await waitUntil(
      'sync to apply the new spec',
      async () => {
        const t = await readTenant(PAUSED);
        return t?.spec?.deployment?.spec?.template.spec?.containers[0]?.image === 'nginx:1.28'
          ? t
          : undefined;
      },
      { timeoutMs: 30_000 },
    );
    expect(updated.metadata.annotations?.[ANNOTATION.paused]).toBe('true');
    // The operator reports on the new generation, still paused.
    await ready(PAUSED, 'False', 'Paused');
    await operatorResync();
    const deployment = await deploymentOf(PAUSED);
    expect(deployment.spec?.replicas).toBe(3);
    expect(deployment.spec?.template.spec?.containers[0]?.image).toBe('nginx:latest');
    expect((await readTenant(PAUSED))?.metadata.annotations?.[ANNOTATION.paused]).toBe('true');
  });
});

describe('steady state', () => {
  it('costs no writes with tenants active, refused, suspended, archived and paused', async () => {
    await ready(FROM_SUSPENDED, 'False', 'Suspended');
    await ready(FROM_ARCHIVED, 'False', 'Archived');
    const writes = async (): Promise<number> => (await operatorWrites()) + (await tenantWrites(sync));
    // Let rollouts and Events settle, then count across a whole resync of each component.
    await waitUntil(
      'sync and the operator to stop writing',
      async () => {
        const before = await writes();
        await new Promise((resolve) => setTimeout(resolve, 3_000));
        return (await writes()) === before;
      },
      { timeoutMs: 60_000, intervalMs: 0 },
    );
    const before = await writes();
    await Promise.all([operatorResync(), moreScans(sync, 2)]);
    expect(await writes()).toBe(before);
  });
});

describe('unpaused', () => {
  it('without the annotation, the operator repairs the hand edit and applies the new spec', async () => {
    await kubectl('annotate', 'tenant', PAUSED, `${ANNOTATION.paused}-`);
    await ready(PAUSED, 'True');
    const deployment = await deploymentOf(PAUSED);
    expect(deployment.spec?.replicas).toBe(2);
    expect(deployment.spec?.template.spec?.containers[0]?.image).toBe('nginx:1.28');
    expect((await eventsOf(PAUSED, 'Unpaused'))[0]).toMatchObject({ type: 'Normal', count: 1 });
  });
});

describe('deleted: true', () => {
  it('takes a suspended Tenant away, with its Deployment and ConfigMap', async () => {
    await ready(FROM_SUSPENDED, 'False', 'Suspended');
    await updateRow(table, FROM_SUSPENDED, { deleted: true });
    await waitUntil('the Tenant to be gone', async () => (await readTenant(FROM_SUSPENDED)) === undefined, {
      timeoutMs: 30_000,
    });
    await waitUntil(
      'the Deployment to be collected',
      gone(() => deploymentOf(FROM_SUSPENDED)),
      { timeoutMs: 90_000 },
    );
    await waitUntil(
      'the ConfigMap to be collected',
      gone(() => configMapOf(FROM_SUSPENDED)),
      { timeoutMs: 90_000 },
    );
  });

  it('takes an archived Tenant away', async () => {
    await ready(FROM_ARCHIVED, 'False', 'Archived');
    expect(await gone(() => deploymentOf(FROM_ARCHIVED))()).toBe(true);
    await updateRow(table, FROM_ARCHIVED, { deleted: true });
    await waitUntil('the Tenant to be gone', async () => (await readTenant(FROM_ARCHIVED)) === undefined, {
      timeoutMs: 30_000,
    });
  });
});
