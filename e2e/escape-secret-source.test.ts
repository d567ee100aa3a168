// Issue 55, class 4: a row takes a secret source namespace. Under a "{name}" class a row named
// like a namespace in LANDLORD_SECRET_SOURCE_NAMESPACES would get that namespace (one the platform
// has made, or one it will make), and its team would then write the Secrets landlord copies into
// every other tenant. A Shared row would run pods there that mount every source. The honest path
// first: a tenant of the class gets its copy. Then each attack is refused with its reason, nothing
// is made in the source namespace, and the honest tenant's copy stays as it was.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gone } from './support/deploy.js';
import { clients, uniqueName } from './support/env.js';
import { createClass, deleteClass, ready, refusedWith, tenantOf } from './support/escape.js';
import { componentEnv, startLandlord, type LandlordProcess } from './support/landlord.js';
import { createTenant, deleteTenant } from './support/tenants.js';

const { core, apps, custom } = clients();
const id = uniqueName('srcns');
const SOURCES = `${id}-src`;
/** Listed in the setting, not made yet: the platform will make it later. */
const LATER = `${id}-later`;
const [perTenantClass, sharedClass] = [`${id}-pt`, `${id}-sh`];
const honest = `${id}-a`;
let operator: LandlordProcess;

const copyOf = (namespace: string): Promise<string | undefined> =>
  core
    .readNamespacedSecret({ name: 'shared', namespace })
    .then((s) => s.metadata?.resourceVersion)
    .catch(() => undefined);

beforeAll(async () => {
  await core.createNamespace({ body: { metadata: { name: SOURCES } } });
  await core.createNamespacedSecret({
    namespace: SOURCES,
    body: { metadata: { name: 'shared' }, stringData: { key: 'not-a-real-key' } },
  });
  await createClass(custom, perTenantClass, {
    namespace: { mode: 'PerTenant', nameTemplate: '{name}' },
    networkIsolation: 'None',
    secrets: [{ name: 'shared', from: { namespace: SOURCES, name: 'shared' } }],
  });
  await createClass(custom, sharedClass, { namespace: { mode: 'Shared' } });
  const env = componentEnv({ LANDLORD_SECRET_SOURCE_NAMESPACES: `${SOURCES},${LATER}` });
  operator = startLandlord('operator', env);
  await operator.ready();
});

afterAll(async () => {
  expect(await operator.stop()).toBe(0);
  const tenants = [honest, SOURCES, LATER, `${id}-sh`];
  await Promise.all(tenants.map((name) => deleteTenant(custom, name).catch(() => undefined)));
  await Promise.all([perTenantClass, sharedClass].map((name) => deleteClass(custom, name)));
  await core.deleteNamespace({ name: SOURCES }).catch(() => undefined);
});

describe('a secret source namespace', () => {
  it('honest path: a tenant of the class gets its namespace and the copy', async () => {
    await createTenant(custom, tenantOf(honest, perTenantClass));
    await ready(custom, honest);
    expect(await copyOf(honest)).toBeDefined();
  });

  it('a row named like a source namespace the platform has not made yet does not get it', async () => {
    await createTenant(custom, tenantOf(LATER, perTenantClass));
    const message = await refusedWith(custom, LATER, 'NamespaceReserved');
    expect(message).toContain('secret source namespace');
    expect(await gone(core.readNamespace({ name: LATER }))).toBe(true);
  });

  it('a row named like an existing source namespace takes nothing in it', async () => {
    const before = (await core.readNamespace({ name: SOURCES })).metadata?.resourceVersion;
    await createTenant(custom, tenantOf(SOURCES, perTenantClass));
    await refusedWith(custom, SOURCES, 'NamespaceReserved');
    const after = await core.readNamespace({ name: SOURCES });
    expect(after.metadata?.resourceVersion).toBe(before);
    expect(after.metadata?.ownerReferences ?? []).toEqual([]);
  });

  it('a Shared row cannot run pods in a source namespace, where they could mount every source', async () => {
    const name = `${id}-sh`;
    await createTenant(custom, tenantOf(name, sharedClass, SOURCES));
    const message = await refusedWith(custom, name, 'NamespaceNotAllowed');
    expect(message).toContain('secret source namespace');
    const deployments = await apps.listNamespacedDeployment({ namespace: SOURCES });
    expect(deployments.items).toEqual([]);
  });

  it("leaves the honest tenant's copy as it was", async () => {
    const before = await copyOf(honest);
    await ready(custom, honest);
    expect(await copyOf(honest)).toBe(before);
  });
});
