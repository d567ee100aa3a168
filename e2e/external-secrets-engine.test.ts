// A class's externalSecret entries with External Secrets Operator itself running (issue 39): ESO's
// controller, built from its pinned Go module, against this file's control plane, reading a store
// it can read locally (its `fake` provider, whose keys live in the ClusterSecretStore). Each
// tenant's ExternalSecret asks for its own remote key, so two tenants get two different Secrets;
// the Tenant follows ESO's Ready condition both ways without a restart; a rotation in the store
// reaches the Secret through ESO alone; and the values appear nowhere landlord wrote or printed.
import { join } from 'node:path';
import type { V1Secret } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONDITION, GROUP, VERSION, type Tenant } from '../api/tenant.js';
import { CLASS_PLURAL, type TenantClassSpec } from '../api/tenantclass.js';
import { removeCrds } from '../harness/crd-removal.js';
import {
  externalSecretsCrdFiles,
  startExternalSecrets,
  type ExternalSecretsProcess,
} from '../harness/external-secrets.js';
import { waitUntil } from '../harness/wait.js';
import { clients, e2eEnv, envValue, uniqueName } from './support/env.js';
import { installExternalSecretsCrds } from './support/external-secrets.js';
import { componentEnv, startLandlord, writeRequests, type LandlordProcess } from './support/landlord.js';
import {
  condition,
  createTenant,
  deleteTenantsLabelled,
  readTenant,
  tenantManifest,
  waitForCondition,
} from './support/tenants.js';

const { core, custom } = clients();
const id = uniqueName('eso');
const CLASS = `${id}-class`;
const STORE = `${id}-store`;
const FILE_LABEL = 'e2e.landlord.dev/file';
const CANARY = `canary-${Math.random().toString(36).slice(2, 14)}`;
const classes = { group: GROUP, version: VERSION, plural: CLASS_PLURAL };
const storePath = { group: 'external-secrets.io', version: 'v1', plural: 'clustersecretstores' };
const [FIRST, SECOND, LATE] = [`${id}-a`, `${id}-b`, `${id}-late`];
/** ESO's CRDs are large: the first apply of them all can take a while on a loaded machine. */
let eso: ExternalSecretsProcess;
let operator: LandlordProcess;

const remoteKey = (tenant: string): string => `tenants/${tenant}/payments`;
const apiKeyOf = (tenant: string, version = 1): string => `${CANARY}-${tenant}-v${version}`;

/** The fake provider's keys: each a JSON object, as `dataFrom.extract` reads a key of a real store. */
function storeData(keys: Record<string, string>): { key: string; value: string }[] {
  return Object.entries(keys).map(([tenant, apiKey]) => ({
    key: remoteKey(tenant),
    value: JSON.stringify({ 'api-key': apiKey, account: tenant }),
  }));
}

async function putStore(keys: Record<string, string>): Promise<void> {
  const body = {
    apiVersion: 'external-secrets.io/v1',
    kind: 'ClusterSecretStore',
    metadata: { name: STORE },
    spec: { provider: { fake: { data: storeData(keys) } } },
  };
  try {
    await custom.createClusterCustomObject({ ...storePath, body });
  } catch (err) {
    // It exists already (409): replace it; any other failure is the test's.
    if ((err as { code?: number }).code !== 409) throw err;
    const live = (await custom.getClusterCustomObject({ ...storePath, name: STORE })) as {
      metadata: { resourceVersion: string };
    };
    const replacement = {
      ...body,
      metadata: { ...body.metadata, resourceVersion: live.metadata.resourceVersion },
    };
    await custom.replaceClusterCustomObject({ ...storePath, name: STORE, body: replacement });
  }
}

function tenantOf(name: string): Tenant {
  const tenant = tenantManifest(name, 'default', 0);
  tenant.metadata.labels = { [FILE_LABEL]: id };
  tenant.spec = { ...tenant.spec, class: CLASS };
  // The pods read the Secret ESO makes, by the class's name for it.
  const pod = tenant.spec.deployment!.spec!.template.spec!;
  pod.containers[0] = {
    ...pod.containers[0]!,
    env: [{ name: 'API_KEY', valueFrom: { secretKeyRef: { name: 'payments', key: 'api-key' } } }],
  };
  return tenant;
}

/** The Secret ESO made in the tenant's namespace, or undefined while there is none. */
async function paymentsSecret(namespace: string): Promise<V1Secret | undefined> {
  return core.readNamespacedSecret({ namespace, name: 'payments' }).catch(() => undefined);
}

const decoded = (secret: V1Secret | undefined, key: string): string | undefined =>
  secret?.data?.[key] === undefined ? undefined : Buffer.from(secret.data[key], 'base64').toString();

beforeAll(async () => {
  // ESO's CRDs before the operator: it asks for ESO's API once, at start-up.
  await installExternalSecretsCrds();
  eso = await startExternalSecrets(envValue('KUBECONFIG'), join(e2eEnv().LANDLORD_E2E_RUN_DIR!, 'logs'));
  await putStore({ [FIRST]: apiKeyOf(FIRST), [SECOND]: apiKeyOf(SECOND) });
  const spec: TenantClassSpec = {
    namespace: { mode: 'PerTenant', nameTemplate: '{name}' },
    networkIsolation: 'None',
    secrets: [
      {
        name: 'payments',
        externalSecret: {
          storeRef: { kind: 'ClusterSecretStore', name: STORE },
          remoteKey: 'tenants/{name}/payments',
          // Short, so that a rotation in the store shows within the test.
          refreshInterval: '5s',
        },
      },
    ],
  };
  await custom.createClusterCustomObject({
    ...classes,
    body: { apiVersion: `${GROUP}/${VERSION}`, kind: 'TenantClass', metadata: { name: CLASS }, spec },
  });
  operator = startLandlord('operator', componentEnv());
  await operator.ready();
}, 900_000);

afterAll(async () => {
  expect(await operator.stop()).toBe(0);
  await deleteTenantsLabelled(custom, `${FILE_LABEL}=${id}`);
  await custom.deleteClusterCustomObject({ ...classes, name: CLASS });
  await eso.process.stop();
  await removeCrds(envValue('KUBECONFIG'), await externalSecretsCrdFiles());
}, 600_000);

describe('External Secrets Operator, built from its pinned module, serving a per-tenant remote key', () => {
  it('the store is Ready by ESO itself', async () => {
    await waitUntil(
      `ClusterSecretStore ${STORE} to be Ready`,
      async () => {
        const store = (await custom.getClusterCustomObject({ ...storePath, name: STORE })) as {
          status?: { conditions?: { type: string; status: string }[] };
        };
        return store.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True');
      },
      { timeoutMs: 120_000, abortIf: esoRunning },
    );
  });

  it('gives two tenants each its own Secret from the store, and both Tenants say SecretsReady=True', async () => {
    for (const name of [FIRST, SECOND]) await createTenant(custom, tenantOf(name));
    for (const name of [FIRST, SECOND]) {
      const tenant = await waitForCondition(
        custom,
        name,
        { type: CONDITION.secretsReady, status: 'True' },
        180_000,
      );
      expect(condition(tenant, CONDITION.ready)?.status).toBe('True');
      const secret = await paymentsSecret(tenant.status!.namespace!);
      expect(decoded(secret, 'api-key')).toBe(apiKeyOf(name));
      expect(decoded(secret, 'account')).toBe(name);
      // ESO made it (creationPolicy Owner): it goes with the ExternalSecret landlord owns.
      expect(secret?.metadata?.ownerReferences).toMatchObject([
        { kind: 'ExternalSecret', name: 'payments', controller: true },
      ]);
    }
  });

  it("follows ESO both ways: a key missing from the store is ExternalSecretNotReady with ESO's message, then Ready once added", async () => {
    await createTenant(custom, tenantOf(LATE));
    const waiting = await waitForCondition(
      custom,
      LATE,
      { type: CONDITION.secretsReady, status: 'False', reason: 'ExternalSecretNotReady' },
      180_000,
    );
    const message = condition(waiting, CONDITION.secretsReady)?.message ?? '';
    expect(message).toContain(`ExternalSecret ${LATE}/payments`);
    // Not landlord's guess: ESO read the store and said why (its own message, after "not Ready:").
    const esoSays = await waitUntil(
      `${LATE}'s SecretsReady to carry ESO's own message`,
      async () => {
        const text = condition(await readTenant(custom, LATE), CONDITION.secretsReady)?.message ?? '';
        return text.includes('not Ready:') ? text : undefined;
      },
      { timeoutMs: 120_000 },
    );
    console.log(`${LATE} before its key exists: ${esoSays}`);
    expect(await paymentsSecret(LATE)).toBeUndefined();
    await putStore({ [FIRST]: apiKeyOf(FIRST), [SECOND]: apiKeyOf(SECOND), [LATE]: apiKeyOf(LATE) });
    await waitForCondition(custom, LATE, { type: CONDITION.secretsReady, status: 'True' }, 180_000);
    expect(decoded(await paymentsSecret(LATE), 'api-key')).toBe(apiKeyOf(LATE));
  });

  it('a rotation in the store reaches the tenant through ESO, and landlord writes no Secret for it', async () => {
    const before = await writeRequests(operator, ['secrets', 'externalsecrets']);
    await putStore({ [FIRST]: apiKeyOf(FIRST, 2), [SECOND]: apiKeyOf(SECOND), [LATE]: apiKeyOf(LATE) });
    await waitUntil(
      `${FIRST}'s Secret to carry the rotated key`,
      async () => decoded(await paymentsSecret(FIRST), 'api-key') === apiKeyOf(FIRST, 2) || undefined,
      { timeoutMs: 120_000, intervalMs: 1_000 },
    );
    expect(decoded(await paymentsSecret(SECOND), 'api-key')).toBe(apiKeyOf(SECOND));
    expect(await writeRequests(operator, ['secrets', 'externalsecrets'])).toBe(before);
    expect(condition(await readTenant(custom, FIRST), CONDITION.secretsReady)?.status).toBe('True');
  });

  it('the values appear nowhere landlord wrote or printed: logs, Tenant status, Events, metrics', async () => {
    const tenants = await Promise.all([FIRST, SECOND, LATE].map((n) => readTenant(custom, n)));
    const events = await core.listEventForAllNamespaces({ fieldSelector: 'involvedObject.kind=Tenant' });
    const printed = [
      JSON.stringify(operator.logs),
      JSON.stringify(tenants.map((t) => t.status)),
      JSON.stringify(events.items.map((e) => [e.reason, e.message])),
      await operator.metrics(),
    ].join('\n');
    expect(printed).toContain(FIRST);
    expect(printed).not.toContain(CANARY);
  });
});

function esoRunning(): void {
  if (!eso.process.running) throw new Error(`external-secrets exited; its log is ${eso.process.logFile}`);
}
