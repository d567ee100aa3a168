// Issue 37, classes 1 and 8: which class a row may use. A row picks its class by name, so a class
// the platform made for its own trusted workloads (privileged Pod Security here) is one attribute
// away; its allowedTables lets in only the rows of the tables it lists, by the table sync stamps on
// the Tenant, which a row cannot set. A row that stops naming a class goes back to the default class
// (only the default is kept). With no default class a new tenant waits (NoDefaultClass) instead of
// falling back to the wide-open built-in class, and takes the default class as soon as one is
// annotated, without a restart. Real sync (moto) and operator; every refusal is told on the Tenant,
// in a Warning Event and in a log line naming the tenant, applies and prunes nothing, and the
// neighbour is untouched. Shared classes, children in "default". This file needs no default class
// in the cluster when it starts (the other files remove theirs), and runs the operator without the
// built-in class, as installs do by default.
import type { V1Deployment } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANNOTATION, CONDITION, type Tenant } from '../api/tenant.js';
import { DEFAULT_CLASS_ANNOTATION } from '../api/tenantclass.js';
import { waitUntil } from '../harness/wait.js';
import { clients, uniqueName } from './support/env.js';
import { createClass, deleteClass, patchClass, refusedWith } from './support/escape.js';
import { kubectl } from './support/kubectl.js';
import { componentEnv, startLandlord, type LandlordProcess } from './support/landlord.js';
import {
  createTable,
  deleteSyncedTenants,
  putRow,
  readTenant,
  startSync,
  verbatimRow,
} from './support/sync.js';
import { condition, waitForCondition } from './support/tenants.js';

const { apps, custom } = clients();
const table = uniqueName('choice');
/** A table this file's sync does not read: the one the trusted class is for. */
const platformTable = `${table}-platform`;
const id = uniqueName('cc');
const [standard, trusted, open, late] = ['std', 'trusted', 'open', 'late'].map((s) => `${id}-${s}`) as [
  string,
  string,
  string,
  string,
];
const [waiter, flipper, neighbour, early, plain] = ['wait', 'flip', 'nb', 'early', 'plain'].map(
  (s) => `${id}-${s}`,
) as [string, string, string, string, string];
let sync: LandlordProcess;
let operator: LandlordProcess;

/** The seed row, with a class when given, and any other attributes a hostile writer adds. */
function classRow(
  name: string,
  tenantClass?: string,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return { ...verbatimRow(name), ...(tenantClass === undefined ? {} : { class: tenantClass }), ...extra };
}

const deploymentOf = (name: string): Promise<V1Deployment> =>
  apps.readNamespacedDeployment({ name: `${name}-app`, namespace: 'default' });

/** Waits until the Tenant runs under `className`, chosen as `source`, for the spec sync applied last. */
function underClass(name: string, className: string, source: 'Row' | 'Default'): Promise<Tenant> {
  return waitUntil(
    `Tenant ${name} Ready under TenantClass ${className} (${source})`,
    async () => {
      const tenant = await readTenant(name);
      if (tenant === undefined) return undefined;
      const ready = condition(tenant, CONDITION.ready);
      const current = ready?.status === 'True' && ready.observedGeneration === tenant.metadata.generation;
      const chosen = tenant.status?.class === className && tenant.status.classSource === source;
      return current && chosen ? tenant : undefined;
    },
    { timeoutMs: 120_000, intervalMs: 250 },
  );
}

/** Refused with `reason` on the Tenant, in a Warning Event and in a log line naming the tenant. */
async function told(name: string, reason: string): Promise<string> {
  const message = await refusedWith(custom, name, reason);
  await operator.waitForLog((l) => l.tenant === name && l.reason === reason);
  return message;
}

/** The running Deployment is exactly as it was: nothing applied, nothing pruned. */
async function untouched(name: string, before: V1Deployment): Promise<void> {
  const now = await deploymentOf(name);
  expect(now.metadata?.uid).toBe(before.metadata?.uid);
  expect(now.metadata?.generation).toBe(before.metadata?.generation);
}

beforeAll(async () => {
  await createTable(table);
  await createClass(custom, trusted, {
    namespace: { mode: 'Shared' },
    podSecurity: 'privileged',
    allowedTables: [platformTable],
  });
  await createClass(custom, open, { namespace: { mode: 'Shared' }, podSecurity: 'privileged' });
  sync = startSync(table, { LANDLORD_SYNC_RESYNC_SECONDS: '5' });
  operator = startLandlord(
    'operator',
    componentEnv({ LANDLORD_LOG_LEVEL: 'info', LANDLORD_OPERATOR_BUILT_IN_CLASS: 'false' }),
  );
  await Promise.all([sync.ready(), operator.ready()]);
});

afterAll(async () => {
  expect(await sync.stop()).toBe(0);
  expect(await operator.stop()).toBe(0);
  await deleteSyncedTenants(table);
  await Promise.all([standard, trusted, open, late].map((name) => deleteClass(custom, name)));
});

describe('no default class', () => {
  it('a new row waits with NoDefaultClass (Ready=False) and gets nothing, not the built-in class', async () => {
    await putRow(table, classRow(waiter));
    const message = await told(waiter, 'NoDefaultClass');
    expect(message).toContain('landlord.dev/is-default-class=true');
    expect(message).toContain('LANDLORD_OPERATOR_BUILT_IN_CLASS');
    const tenant = await waitForCondition(custom, waiter, { type: CONDITION.ready, status: 'False' });
    expect(tenant.status?.class).toBeUndefined();
    await expect(deploymentOf(waiter)).rejects.toMatchObject({ code: 404 });
  });

  it('takes the default class as soon as one is annotated, with no restart', async () => {
    await createClass(custom, standard, { namespace: { mode: 'Shared' }, allowedTables: [table] });
    await kubectl('annotate', 'tenantclass', standard, `${DEFAULT_CLASS_ANNOTATION}=true`);
    await underClass(waiter, standard, 'Default');
    expect((await deploymentOf(waiter)).metadata?.name).toBe(`${waiter}-app`);
  });
});

describe('a row flipping its class to one that does not allow its table', () => {
  let before: V1Deployment;
  let neighbourBefore: V1Deployment;

  beforeAll(async () => {
    await putRow(table, classRow(flipper, open));
    await putRow(table, classRow(neighbour, open));
    await Promise.all([underClass(flipper, open, 'Row'), underClass(neighbour, open, 'Row')]);
    [before, neighbourBefore] = await Promise.all([deploymentOf(flipper), deploymentOf(neighbour)]);
  });

  it('is refused with ClassNotAllowed, and its running children stay as they were', async () => {
    await putRow(table, classRow(flipper, trusted));
    const message = await told(flipper, 'ClassNotAllowed');
    expect(message).toContain(`TenantClass ${trusted} does not allow the rows of table ${table}`);
    expect(message).not.toContain(platformTable);
    const tenant = await readTenant(flipper);
    expect(tenant?.status?.class).toBe(open);
    await untouched(flipper, before);
  });

  it('cannot name the allowed table itself: attributes beyond the row format are ignored', async () => {
    const forged = {
      table: platformTable,
      metadata: JSON.stringify({ annotations: { [ANNOTATION.table]: platformTable } }),
      annotations: { [ANNOTATION.table]: platformTable },
    };
    // A new image too, so that sync writes a new generation and the refusal is of this row.
    const spec = String(verbatimRow(flipper).spec).replace('nginx:latest', 'nginx:1.27');
    await putRow(table, classRow(flipper, trusted, { ...forged, spec }));
    await told(flipper, 'ClassNotAllowed');
    expect((await readTenant(flipper))?.metadata.annotations?.[ANNOTATION.table]).toBe(table);
    await untouched(flipper, before);
  });

  it('dropping the class attribute puts the tenant back under the default class, not the one it named', async () => {
    await putRow(table, classRow(flipper));
    const tenant = await underClass(flipper, standard, 'Default');
    expect(tenant.spec?.class).toBeUndefined();
  });

  it('left the neighbour untouched', async () => {
    await untouched(neighbour, neighbourBefore);
    expect((await readTenant(neighbour))?.status?.class).toBe(open);
  });
});

describe('more ways in', () => {
  it('a class created after the row names it is still held to its allowedTables', async () => {
    await putRow(table, classRow(early, late));
    await told(early, 'ClassNotFound');
    await createClass(custom, late, {
      namespace: { mode: 'Shared' },
      podSecurity: 'privileged',
      allowedTables: [platformTable],
    });
    await told(early, 'ClassNotAllowed');
    await expect(deploymentOf(early)).rejects.toMatchObject({ code: 404 });
  });

  it('a default class whose allowedTables leaves the table out: no fallback, and running tenants keep their children', async () => {
    const running = await deploymentOf(waiter);
    await patchClass(custom, standard, 'allowedTables', [platformTable]);
    await putRow(table, classRow(plain));
    await told(plain, 'ClassNotAllowed');
    await expect(deploymentOf(plain)).rejects.toMatchObject({ code: 404 });
    await told(waiter, 'ClassNotAllowed');
    await untouched(waiter, running);
    await patchClass(custom, standard, 'allowedTables', [table, platformTable]);
    await Promise.all([underClass(plain, standard, 'Default'), underClass(waiter, standard, 'Default')]);
    await untouched(waiter, running);
  });
});
