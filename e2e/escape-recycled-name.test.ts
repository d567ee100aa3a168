// Issue 55, attack 5: a recycled name inherits a secret. Per-tenant sources ("{name}-db") used to be
// found by name alone, so a new customer signing up under a deleted tenant's name got the former
// customer's password. A per-tenant source is now copied only to the Tenant whose uid it carries
// (landlord.dev/tenant-uid). On the real control plane: the honest tenant gets its copy; it is
// deleted and its namespace goes, the source stays behind; a new Tenant of the same name (another
// uid) gets no copy and SecretsReady=False, SecretSourceNotBound, naming what to set and no value;
// once the platform writes the new customer's values and binds the source to the new uid, the copy
// appears.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANNOTATION, CONDITION, type Tenant } from '../api/tenant.js';
import { waitUntil } from '../harness/wait.js';
import { gone } from './support/deploy.js';
import { clients, uniqueName } from './support/env.js';
import { createClass, deleteClass, tenantOf } from './support/escape.js';
import { componentEnv, startLandlord, type LandlordProcess } from './support/landlord.js';
import { eventsWritten } from './support/sync.js';
import { condition, createTenant, deleteTenant, readTenant, waitForCondition } from './support/tenants.js';

const { core, custom } = clients();
const id = uniqueName('recycle');
const SOURCES = `${id}-src`;
const CLASS = `${id}-pt`;
/** The tenant name the former customer had and the new one signs up under. */
const NAME = `${id}-acme`;
const SOURCE = `${NAME}-db`;
const FORMER = `former-${Math.random().toString(36).slice(2, 12)}`;
const NEW = `new-${Math.random().toString(36).slice(2, 12)}`;
let operator: LandlordProcess;

/** What the platform's provisioning writes: the customer's values, bound to its Tenant's uid. */
async function provision(password: string, tenantUid: string): Promise<void> {
  const body = {
    metadata: { name: SOURCE, namespace: SOURCES, annotations: { [ANNOTATION.tenantUid]: tenantUid } },
    stringData: { password },
  };
  try {
    await core.createNamespacedSecret({ namespace: SOURCES, body });
  } catch {
    await core.replaceNamespacedSecret({ namespace: SOURCES, name: SOURCE, body });
  }
}

/** The password of the tenant's copy, read in its namespace; undefined when there is none. */
const copied = (): Promise<string | undefined> =>
  core
    .readNamespacedSecret({ name: 'db', namespace: NAME })
    .then((s) => Buffer.from(s.data?.password ?? '', 'base64').toString())
    .catch(() => undefined);

beforeAll(async () => {
  await core.createNamespace({ body: { metadata: { name: SOURCES } } });
  await createClass(custom, CLASS, {
    namespace: { mode: 'PerTenant', nameTemplate: '{name}' },
    networkIsolation: 'None',
    secrets: [{ name: 'db', from: { namespace: SOURCES, name: '{name}-db' } }],
  });
  operator = startLandlord('operator', componentEnv({ LANDLORD_SECRET_SOURCE_NAMESPACES: SOURCES }));
  await operator.ready();
});

afterAll(async () => {
  expect(await operator.stop()).toBe(0);
  await deleteTenant(custom, NAME).catch(() => undefined);
  await deleteClass(custom, CLASS);
  await core.deleteNamespace({ name: SOURCES }).catch(() => undefined);
});

describe('a tenant name reused after its Tenant was deleted', () => {
  let former: Tenant;

  it('honest path: the tenant whose uid the source carries gets the copy in its namespace', async () => {
    former = await createTenant(custom, tenantOf(NAME, CLASS));
    await provision(FORMER, former.metadata.uid!);
    await waitForCondition(custom, NAME, { type: CONDITION.secretsReady, status: 'True' }, 120_000);
    expect(await copied()).toBe(FORMER);
  });

  it('the attack: a new Tenant of the same name gets no copy of the source left behind', async () => {
    await deleteTenant(custom, NAME);
    await waitUntil('the former tenant’s namespace gone', () => gone(core.readNamespace({ name: NAME })), {
      timeoutMs: 180_000,
      intervalMs: 1_000,
    });
    // The platform forgot the source: it still holds the former customer's password.
    const left = await core.readNamespacedSecret({ name: SOURCE, namespace: SOURCES });
    expect(left.metadata?.annotations?.[ANNOTATION.tenantUid]).toBe(former.metadata.uid);
    const recycled = await createTenant(custom, tenantOf(NAME, CLASS));
    expect(recycled.metadata.uid).not.toBe(former.metadata.uid);
    const refused = await waitForCondition(
      custom,
      NAME,
      { type: CONDITION.secretsReady, status: 'False', reason: 'SecretSourceNotBound' },
      120_000,
    );
    const message = condition(refused, CONDITION.secretsReady)?.message ?? '';
    expect(message).toContain(`${SOURCES}/${SOURCE}`);
    expect(message).toContain(`${ANNOTATION.tenantUid}: ${recycled.metadata.uid}`);
    expect(message).not.toContain(FORMER);
    expect((await eventsWritten(NAME, 'SecretSourceNotBound')).map((e) => e.type)).toContain('Warning');
    // The rest of the tenant is made; its namespace holds no copy of the former customer's Secret.
    await waitForCondition(custom, NAME, { type: CONDITION.applied, status: 'True' }, 120_000);
    expect(await copied()).toBeUndefined();
  });

  it('once the platform binds the source to the new uid, with the new values, the copy appears', async () => {
    const recycled = await readTenant(custom, NAME);
    await provision(NEW, recycled.metadata.uid!);
    await waitForCondition(custom, NAME, { type: CONDITION.secretsReady, status: 'True' }, 120_000);
    expect(await copied()).toBe(NEW);
  });
});
