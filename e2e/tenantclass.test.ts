// TenantClass with sync and the operator against the real control plane and moto: a row's `class`
// becomes spec.class and status.class; a class's limit refuses a row and raising it applies the row
// (the class edit reaches the Tenant, with no resync to help: the resync is 10 minutes here); rows
// without a class take the default class; a missing class (ClassNotFound), two default classes
// (AmbiguousDefaultClass) and a deleted class in use are refusals that apply and delete nothing.
// Shared classes only (PerTenant namespaces have their own file). The default class set here
// concerns every Tenant without a class in the cluster, so it lives only as long as its tests.
import type { V1Deployment } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONDITION, GROUP, VERSION, type Tenant } from '../api/tenant.js';
import {
  CLASS_API_VERSION,
  CLASS_KIND,
  CLASS_PLURAL,
  DEFAULT_CLASS_ANNOTATION,
  type TenantClass,
  type TenantClassSpec,
} from '../api/tenantclass.js';
import { clients, uniqueName } from './support/env.js';
import { kubectl } from './support/kubectl.js';
import {
  componentEnv,
  metricValue,
  startLandlord,
  type LandlordProcess,
  OPERATOR_WRITE_RESOURCES,
  writeRequests,
} from './support/landlord.js';
import { waitUntil } from '../harness/wait.js';
import {
  createTable,
  deleteSyncedTenants,
  eventsWritten,
  putRow,
  readTenant,
  startSync,
  verbatimRow,
} from './support/sync.js';
import { condition, waitForCondition } from './support/tenants.js';

const { apps, custom } = clients();
const table = uniqueName('classes');
const p = uniqueName('tc');
const classes = { group: GROUP, version: VERSION, plural: CLASS_PLURAL };
const SMALL = `${p}-small`;
const DEFAULT = `${p}-default`;
const SECOND_DEFAULT = `${p}-default-2`;
let sync: LandlordProcess;
let operator: LandlordProcess;

/** The seed row with `replicas` and, when given, a class. */
function classRow(name: string, tenantClass?: string, replicas = 1): Record<string, unknown> {
  const base = verbatimRow(name);
  const spec = String(base.spec).replace('"replicas":1', `"replicas":${replicas}`);
  return { ...base, spec, ...(tenantClass === undefined ? {} : { class: tenantClass }) };
}

async function createClass(name: string, spec: TenantClassSpec, isDefault = false): Promise<void> {
  const body: TenantClass = {
    apiVersion: CLASS_API_VERSION,
    kind: CLASS_KIND,
    metadata: { name, annotations: isDefault ? { [DEFAULT_CLASS_ANNOTATION]: 'true' } : {} },
    spec,
  };
  await custom.createClusterCustomObject({ ...classes, body });
}

const deleteClass = (name: string): Promise<unknown> =>
  custom.deleteClusterCustomObject({ ...classes, name }).catch(() => undefined);

const deploymentOf = (name: string): Promise<V1Deployment> =>
  apps.readNamespacedDeployment({ name: `${name}-app`, namespace: 'default' });

const ready = (name: string): Promise<Tenant> =>
  waitForCondition(custom, name, { type: CONDITION.ready, status: 'True' }, 90_000);

const refused = (name: string, reason: string): Promise<Tenant> =>
  waitForCondition(custom, name, { type: CONDITION.applied, status: 'False', reason }, 90_000);

/** Waits until status.class says `name` (status.class is written with the conditions). */
async function underClass(tenant: string, name: string): Promise<Tenant> {
  const seen = await ready(tenant);
  expect(seen.status?.class).toBe(name);
  return seen;
}

/** Write requests the operator made, from its own metrics. */
async function operatorWrites(): Promise<number> {
  return writeRequests(operator, OPERATOR_WRITE_RESOURCES);
}

/** Reconciles the operator finished, whatever their result. */
async function reconciles(): Promise<number> {
  const text = await operator.metrics();
  return ['success', 'error', 'requeue', 'refused']
    .map((result) => metricValue(text, 'landlord_reconcile_total', { result }))
    .reduce((a, b) => a + b, 0);
}

/** The refusal is told three ways: the condition (already seen), a Warning Event and a log line. */
async function expectTold(name: string, reason: string): Promise<void> {
  await operator.waitForLog((l) => l.tenant === name && l.reason === reason);
  const events = await eventsWritten(name, reason);
  expect(events.map((e) => e.type)).toContain('Warning');
}

/** The running Deployment is exactly as it was: nothing applied, nothing pruned. */
async function untouched(name: string, before: V1Deployment): Promise<void> {
  const now = await deploymentOf(name);
  expect(now.metadata?.uid).toBe(before.metadata?.uid);
  expect(now.metadata?.generation).toBe(before.metadata?.generation);
}

beforeAll(async () => {
  await createTable(table);
  await createClass(SMALL, { namespace: { mode: 'Shared' }, limits: { maxReplicas: 2 } });
  sync = startSync(table, { LANDLORD_SYNC_RESYNC_SECONDS: '5' });
  operator = startLandlord(
    'operator',
    componentEnv({ LANDLORD_OPERATOR_RESYNC_SECONDS: '600', LANDLORD_LOG_LEVEL: 'info' }),
  );
  await Promise.all([sync.ready(), operator.ready()]);
});

afterAll(async () => {
  expect(await sync.stop()).toBe(0);
  expect(await operator.stop()).toBe(0);
  await deleteSyncedTenants(table);
  await Promise.all([SMALL, DEFAULT, SECOND_DEFAULT].map(deleteClass));
});

describe('a row that names a class', () => {
  it('becomes spec.class, and the operator reports it in status.class and kubectl get -o wide', async () => {
    const name = `${p}-named`;
    await putRow(table, classRow(name, SMALL));
    const tenant = await underClass(name, SMALL);
    expect(tenant.spec?.class).toBe(SMALL);
    const wide = await kubectl('get', 'tenants', name, '-o', 'wide');
    expect(wide.split('\n')[0]).toMatch(/CLASS\s+NAMESPACE/);
    expect(wide).toContain(SMALL);
  });

  it("is held to the class's limits, and raising the limit applies it (the class edit reaches the Tenant)", async () => {
    const name = `${p}-three`;
    await putRow(table, classRow(name, SMALL, 3));
    const tenant = await refused(name, 'LimitExceeded');
    expect(condition(tenant, CONDITION.applied)?.message).toContain('maxReplicas of 2');
    await expect(deploymentOf(name)).rejects.toMatchObject({ code: 404 });
    await kubectl(
      'patch',
      'tenantclass',
      SMALL,
      '--type',
      'merge',
      '-p',
      '{"spec":{"limits":{"maxReplicas":5}}}',
    );
    await underClass(name, SMALL);
    expect((await deploymentOf(name)).spec?.replicas).toBe(3);
  });

  it('a class edit that changes no child reaches its Tenants without a single write', async () => {
    await underClass(`${p}-named`, SMALL);
    const [writesBefore, reconcilesBefore] = [await operatorWrites(), await reconciles()];
    await kubectl(
      'patch',
      'tenantclass',
      SMALL,
      '--type',
      'merge',
      '-p',
      '{"spec":{"limits":{"maxConfigMaps":40}}}',
    );
    await operator.waitForLog(
      (l) => l.msg === 'TenantClass changed; reconciling its tenants' && l.tenants === 2,
    );
    await waitUntil(
      'both Tenants of the class reconciled',
      async () => (await reconciles()) >= reconcilesBefore + 2,
      {
        timeoutMs: 30_000,
      },
    );
    expect(await operatorWrites()).toBe(writesBefore);
  });

  it('naming a class that does not exist: ClassNotFound, and the running children stay as they were', async () => {
    const name = `${p}-named`;
    const before = await deploymentOf(name);
    await putRow(table, classRow(name, `${p}-missing`, 2));
    const tenant = await refused(name, 'ClassNotFound');
    expect(condition(tenant, CONDITION.applied)?.message).toContain(`${p}-missing, which does not exist`);
    expect(tenant.status?.class).toBe(SMALL);
    await expectTold(name, 'ClassNotFound');
    await untouched(name, before);
    await putRow(table, classRow(name, SMALL));
    await underClass(name, SMALL);
  });
});

describe('rows without a class', () => {
  const first = `${p}-plain`;
  const later = `${p}-later`;

  it('take the class annotated as the default', async () => {
    await createClass(DEFAULT, { namespace: { mode: 'Shared' } }, true);
    await putRow(table, classRow(first));
    const tenant = await underClass(first, DEFAULT);
    expect(tenant.spec?.class).toBeUndefined();
    expect(await kubectl('get', 'tc', DEFAULT)).toMatch(
      new RegExp(`${DEFAULT}\\s+Shared\\s+baseline\\s+true`),
    );
  });

  it('with two default classes: AmbiguousDefaultClass for a new tenant; one that has its class keeps it', async () => {
    await createClass(SECOND_DEFAULT, { namespace: { mode: 'Shared' } }, true);
    await putRow(table, classRow(later));
    const tenant = await refused(later, 'AmbiguousDefaultClass');
    expect(condition(tenant, CONDITION.applied)?.message).toContain(`${DEFAULT}, ${SECOND_DEFAULT}`);
    await expectTold(later, 'AmbiguousDefaultClass');
    await expect(deploymentOf(later)).rejects.toMatchObject({ code: 404 });
    expect((await readTenant(first))?.status?.class).toBe(DEFAULT);
  });

  it('one default again (the annotation removed): the waiting tenant takes it', async () => {
    const annotation = `${DEFAULT_CLASS_ANNOTATION}-`;
    await kubectl('annotate', 'tenantclass', SECOND_DEFAULT, annotation);
    await underClass(later, DEFAULT);
  });

  it('the default class deleted while in use: ClassNotFound, nothing deleted, no move to another class', async () => {
    const before = await deploymentOf(first);
    await kubectl('annotate', 'tenantclass', SECOND_DEFAULT, `${DEFAULT_CLASS_ANNOTATION}=true`);
    await deleteClass(DEFAULT);
    const tenant = await refused(first, 'ClassNotFound');
    expect(condition(tenant, CONDITION.applied)?.message).toContain(
      `TenantClass ${DEFAULT}, the default class`,
    );
    expect(tenant.status?.class).toBe(DEFAULT);
    await expectTold(first, 'ClassNotFound');
    await untouched(first, before);
    expect((await deploymentOf(first)).status?.readyReplicas).toBe(1);
  });

  it('recreating the class brings the tenant back under it', async () => {
    await createClass(DEFAULT, { namespace: { mode: 'Shared' } });
    await underClass(first, DEFAULT);
  });
});

describe('a named class deleted while in use', () => {
  it('is reported on its Tenants, and deletes nothing', async () => {
    const name = `${p}-three`;
    const before = await deploymentOf(name);
    await deleteClass(SMALL);
    await refused(name, 'ClassNotFound');
    await untouched(name, before);
  });
});
