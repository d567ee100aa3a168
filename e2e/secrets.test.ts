// A PerTenant class's secrets (issue 39), on the real control plane: a shared and a per-tenant
// (templated) copy reach 200 tenants whose pods reference them; an edit of the shared source
// reaches every copy with one apply each (after a one-time hand-over of what the create wrote) and none for copies already equal; a class edit that
// leaves the secrets equal writes none; a missing source, a deleted one, a removed entry, a
// hand-made Secret of the same name, a per-tenant source not bound to its Tenant's uid, a kube-system
// source and a Shared class each get their own reason; and a canary value appears nowhere the run printed.
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { V1Secret } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANNOTATION, CONDITION, GROUP, LABEL, VERSION, type Tenant } from '../api/tenant.js';
import { CLASS_PLURAL, type TenantClassSpec } from '../api/tenantclass.js';
import { removeCrds } from '../harness/crd-removal.js';
import { repoRoot } from '../harness/paths.js';
import { externalSecretCrdFile } from '../harness/external-secrets.js';
import { waitForCount, waitUntil } from '../harness/wait.js';
import { clients, envValue, uniqueName } from './support/env.js';
import { kubectl } from './support/kubectl.js';
import {
  componentEnv,
  startLandlord,
  verbDelta,
  writesByVerb,
  type LandlordProcess,
} from './support/landlord.js';
import {
  condition,
  createTenant,
  deleteTenantsLabelled,
  readTenant,
  readyTenants,
  tenantManifest,
  waitForCondition,
} from './support/tenants.js';
import { createTable, putRow } from './support/sync.js';

const { core, custom } = clients();
const exec = promisify(execFile);
/** What a failed run of the CLI rejects with: its output is still what it printed. */
type ExecError = { stdout: string; stderr: string };
const id = uniqueName('sec');
const SOURCES = `${id}-src`;
const MAIN = `${id}-main`;
const SMALL = `${id}-small`;
const OUTSIDE = `${id}-outside`;
const SHARED_CLASS = `${id}-shared`;
const EXTERNAL = `${id}-ext`;
const ESO_CRD = 'externalsecrets.external-secrets.io';
const TENANTS = 200;
const FILE_LABEL = 'e2e.landlord.dev/file';
const CANARY = `canary-${Math.random().toString(36).slice(2, 14)}`;
const CANARY_2 = `${CANARY}-rotated`;
const classes = { group: GROUP, version: VERSION, plural: CLASS_PLURAL };
const STALL = { stallMs: 180_000, intervalMs: 1_000 };
let operator: LandlordProcess;

const b64 = (text: string): string => Buffer.from(text).toString('base64');

const perTenant = (secrets: TenantClassSpec['secrets'], extra: TenantClassSpec = {}): TenantClassSpec => ({
  namespace: { mode: 'PerTenant', nameTemplate: '{name}' },
  networkIsolation: 'None',
  secrets,
  ...extra,
});

const MAIN_SECRETS: TenantClassSpec['secrets'] = [
  { name: 'shared', from: { namespace: SOURCES, name: 'shared' } },
  { name: 'db', from: { namespace: SOURCES, name: '{name}-db' } },
];

/** A tenant whose pods read the shared copy (envFrom) and the per-tenant one (a volume, a key). */
function tenantOf(name: string, className: string, secretNames?: { env: string; volume: string }): Tenant {
  const tenant = tenantManifest(name, 'default', 0);
  tenant.metadata.labels = { [FILE_LABEL]: id };
  tenant.spec = { ...tenant.spec, class: className };
  if (secretNames !== undefined) {
    const pod = tenant.spec.deployment!.spec!.template.spec!;
    pod.volumes = [{ name: 'db', secret: { secretName: secretNames.volume } }];
    pod.containers[0] = {
      ...pod.containers[0]!,
      envFrom: [{ secretRef: { name: secretNames.env } }],
      env: [{ name: 'PASSWORD', valueFrom: { secretKeyRef: { name: secretNames.volume, key: 'password' } } }],
      volumeMounts: [{ name: 'db', mountPath: '/db', readOnly: true }],
    };
  }
  return tenant;
}

const names = (count: number): string[] =>
  Array.from({ length: count }, (_, i) => `${id}-t${String(i).padStart(3, '0')}`);

/** A source; a per-tenant one carries its Tenant's uid, as the platform's provisioning writes it. */
async function putSource(name: string, data: Record<string, string>, tenantUid?: string): Promise<void> {
  const annotations = tenantUid === undefined ? undefined : { [ANNOTATION.tenantUid]: tenantUid };
  const body: V1Secret = { metadata: { name, namespace: SOURCES, annotations }, type: 'Opaque', data };
  try {
    await core.createNamespacedSecret({ namespace: SOURCES, body });
  } catch {
    await core.replaceNamespacedSecret({ namespace: SOURCES, name, body });
  }
}

async function createClass(name: string, spec: TenantClassSpec): Promise<void> {
  await custom.createClusterCustomObject({
    ...classes,
    body: { apiVersion: `${GROUP}/${VERSION}`, kind: 'TenantClass', metadata: { name }, spec },
  });
}

async function patchClass(name: string, spec: TenantClassSpec): Promise<void> {
  await kubectl('patch', 'tenantclass', name, '--type', 'merge', '-p', JSON.stringify({ spec }));
}

/** Every copy the operator made for this file's tenants, by "namespace/name". */
async function copies(): Promise<Map<string, V1Secret>> {
  const list = await core.listSecretForAllNamespaces({ labelSelector: LABEL.tenant });
  const mine = list.items.filter((s) => s.metadata?.namespace?.startsWith(`${id}-`) === true);
  return new Map(mine.map((s) => [`${s.metadata!.namespace}/${s.metadata!.name}`, s]));
}

async function readyCount(prefix: string): Promise<number> {
  const ready = await readyTenants(custom, `${FILE_LABEL}=${id}`);
  return ready.filter((t) => t.metadata.name!.startsWith(prefix)).length;
}

const secretWrites = (): Promise<Record<string, number>> => writesByVerb(operator, 'secrets');

/** Reads the counters until they hold still: the last reconciles may still be under way. */
async function settledSecretWrites(): Promise<Record<string, number>> {
  let last = '';
  return waitUntil(
    "the operator's Secret writes to hold still",
    async () => {
      const now = await secretWrites();
      const same = JSON.stringify(now) === last;
      last = JSON.stringify(now);
      return same ? now : undefined;
    },
    { timeoutMs: 120_000, intervalMs: 4_000 },
  );
}

const percentile = (sorted: readonly number[], p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

beforeAll(async () => {
  // ESO's own CRD, from its pinned module: the API server validates what the operator writes. The
  // operator asks for the API at start-up, so it goes first.
  await kubectl('apply', '--server-side', '-f', await externalSecretCrdFile());
  await kubectl('wait', '--for=condition=Established', `crd/${ESO_CRD}`, '--timeout=60s');
  await core.createNamespace({ body: { metadata: { name: SOURCES } } });
  await putSource('shared', { token: b64(CANARY) });
  await createClass(MAIN, perTenant(MAIN_SECRETS));
  await createClass(SMALL, perTenant([{ name: 'shared', from: { namespace: SOURCES, name: 'shared' } }]));
  await createClass(OUTSIDE, perTenant([{ name: 'token', from: { namespace: 'kube-system', name: 'x' } }]));
  await createClass(
    EXTERNAL,
    perTenant([
      {
        name: 'payments',
        externalSecret: {
          storeRef: { kind: 'ClusterSecretStore', name: 'aws' },
          remoteKey: 'tenants/{name}/payments',
          refreshInterval: '30m',
        },
      },
    ]),
  );
  await createClass(SHARED_CLASS, {
    namespace: { mode: 'Shared' },
    secrets: [{ name: 'shared', from: { namespace: SOURCES, name: 'shared' } }],
  });
  operator = startLandlord(
    'operator',
    componentEnv({ LANDLORD_SECRET_SOURCE_NAMESPACES: SOURCES, LANDLORD_LOG_LEVEL: 'debug' }),
  );
  await operator.ready();
  const tenants = names(TENANTS).map((n) => tenantOf(n, MAIN, { env: 'shared', volume: 'db' }));
  // The platform binds each tenant's own source to its Tenant's uid once the Tenant exists.
  for (let i = 0; i < tenants.length; i += 20) {
    const made = await Promise.all(tenants.slice(i, i + 20).map((t) => createTenant(custom, t)));
    await Promise.all(
      made.map(({ metadata: { name, uid } }) =>
        putSource(`${name}-db`, { password: b64(`${CANARY}-${name}`) }, uid),
      ),
    );
  }
  await waitForCount(
    `${TENANTS} tenants Ready, their pods reading both copies`,
    () => readyCount(`${id}-t`),
    TENANTS,
    { ...STALL, abortIf: operator.assertRunning },
  );
}, 1_800_000);

afterAll(async () => {
  expect(await operator.stop()).toBe(0);
  await deleteTenantsLabelled(custom, `${FILE_LABEL}=${id}`);
  for (const name of [MAIN, SMALL, OUTSIDE, SHARED_CLASS, EXTERNAL])
    await custom.deleteClusterCustomObject({ ...classes, name });
  await core.deleteNamespace({ name: SOURCES });
  await removeCrds(envValue('KUBECONFIG'), [await externalSecretCrdFile()]);
}, 600_000);

describe(`secrets copied to ${TENANTS} PerTenant tenants`, () => {
  it('gives each tenant the shared copy and its own, owned by the Tenant, with the source type and data', async () => {
    const all = await copies();
    expect(all.size).toBe(2 * TENANTS);
    const name = names(1)[0]!;
    const shared = all.get(`${name}/shared`)!;
    const db = all.get(`${name}/db`)!;
    expect(Buffer.from(shared.data!.token!, 'base64').toString()).toBe(CANARY);
    expect(Buffer.from(db.data!.password!, 'base64').toString()).toBe(`${CANARY}-${name}`);
    expect(shared.type).toBe('Opaque');
    expect(shared.metadata!.labels![LABEL.tenant]).toBe(name);
    expect(shared.metadata!.ownerReferences).toMatchObject([{ kind: 'Tenant', name, controller: true }]);
    const tenant = await readTenant(custom, name);
    expect(condition(tenant, CONDITION.secretsReady)).toMatchObject({
      status: 'True',
      reason: 'SecretsReady',
    });
  });

  it('updates every shared copy after a source edit, one apply each (after the one-time hand-over), none for the per-tenant copies', async () => {
    const before = await settledSecretWrites();
    const edited = Date.now();
    await putSource('shared', { token: b64(CANARY_2) });
    const updatedAt = new Map<string, number>();
    await waitForCount(
      `${TENANTS} shared copies holding the edited source`,
      async () => {
        const all = await copies();
        for (const [key, secret] of all) {
          if (!key.endsWith('/shared') || updatedAt.has(key)) continue;
          if (secret.data?.token === b64(CANARY_2)) updatedAt.set(key, Date.now() - edited);
        }
        return updatedAt.size;
      },
      TENANTS,
      { ...STALL, intervalMs: 250, abortIf: operator.assertRunning },
    );
    const writes = verbDelta(before, await settledSecretWrites());
    const times = [...updatedAt.values()].sort((a, b) => a - b);
    console.log(
      `secrets: source edit reached ${TENANTS} copies: p50 ${percentile(times, 50)} ms, p99 ${percentile(times, 99)} ms, last ${times.at(-1)} ms; Secret writes ${JSON.stringify(writes)}`,
    );
    // One apply per shared copy. Each is changed for the first time since its create, so it first
    // hands the create's fields to the operator's Apply entry: one JSON patch each, once.
    expect(writes).toEqual({ apply: TENANTS, patch: TENANTS });
  });

  it('puts back a copy deleted by hand (the metadata-only watch sees it go)', async () => {
    const name = names(TENANTS).at(-1)!;
    const before = (await copies()).get(`${name}/shared`)!;
    await core.deleteNamespacedSecret({ namespace: name, name: 'shared' });
    const back = await waitUntil(
      'the copy put back',
      async () => {
        const copy = (await copies()).get(`${name}/shared`);
        return copy !== undefined && copy.metadata?.uid !== before.metadata?.uid ? copy : undefined;
      },
      { timeoutMs: 60_000 },
    );
    expect(back.data).toEqual(before.data);
  });

  it('writes no Secret for a class edit that leaves the secrets equal', async () => {
    const before = await settledSecretWrites();
    await patchClass(MAIN, { limits: { maxReplicas: 40 } });
    await waitUntil(
      'the class edit to reach its tenants',
      async () => (await readTenant(custom, names(TENANTS).at(-1)!)).status?.observedGeneration !== undefined,
      { timeoutMs: 60_000 },
    );
    // The rollout spreads the reconciles at 50 per second: 200 take about 4 s.
    await new Promise((resolve) => setTimeout(resolve, 8_000));
    expect(verbDelta(before, await settledSecretWrites())).toEqual({});
  });

  it("refuses a pod template that references a Secret the class does not give, such as another tenant's", async () => {
    const [first, second] = names(2);
    const tenant = tenantOf(`${id}-guess`, MAIN, { env: 'shared', volume: `${second}-db` });
    const made = await createTenant(custom, tenant);
    await putSource(`${id}-guess-db`, { password: b64(`${CANARY}-guess`) }, made.metadata.uid);
    const refused = await waitForCondition(custom, `${id}-guess`, {
      type: CONDITION.applied,
      status: 'False',
    });
    expect(condition(refused, CONDITION.applied)).toMatchObject({ reason: 'ReferenceNotAllowed' });
    expect(condition(refused, CONDITION.applied)?.message).toContain(`${second}-db`);
    expect(first).toBeDefined();
  });
});

describe('a source that is missing, then created, then deleted', () => {
  it('reports SecretSourceNotFound, SecretSourceNotBound until the source carries its uid, then SecretsReady without a restart, and keeps the copy when it goes', async () => {
    const name = `${id}-late`;
    const made = await createTenant(custom, tenantOf(name, MAIN));
    const missing = await waitForCondition(custom, name, {
      type: CONDITION.secretsReady,
      status: 'False',
      reason: 'SecretSourceNotFound',
    });
    expect(condition(missing, CONDITION.secretsReady)?.message).toContain(`${SOURCES}/${name}-db`);
    // The Deployment is applied all the same.
    await waitForCondition(custom, name, { type: CONDITION.applied, status: 'True' });
    // Provisioned but not bound yet: nothing is copied from it.
    await putSource(`${name}-db`, { password: b64(`${CANARY}-late`) });
    await waitForCondition(custom, name, {
      type: CONDITION.secretsReady,
      status: 'False',
      reason: 'SecretSourceNotBound',
    });
    expect((await copies()).has(`${name}/db`)).toBe(false);
    await putSource(`${name}-db`, { password: b64(`${CANARY}-late`) }, made.metadata.uid);
    await waitForCondition(custom, name, { type: CONDITION.secretsReady, status: 'True' });
    expect((await copies()).has(`${name}/db`)).toBe(true);
    await core.deleteNamespacedSecret({ namespace: SOURCES, name: `${name}-db` });
    await waitForCondition(custom, name, {
      type: CONDITION.secretsReady,
      status: 'False',
      reason: 'SecretSourceNotFound',
    });
    const kept = (await copies()).get(`${name}/db`);
    expect(Buffer.from(kept!.data!.password!, 'base64').toString()).toBe(`${CANARY}-late`);
  });
});

describe('entries added and removed, and a Secret someone made by hand', () => {
  it('refuses to overwrite the hand-made Secret (Conflict) and prunes the copies of a removed entry', async () => {
    const [mine, theirs] = [`${id}-s1`, `${id}-s2`];
    for (const name of [mine, theirs]) await createTenant(custom, tenantOf(name, SMALL));
    for (const name of [mine, theirs])
      await waitForCondition(custom, name, { type: CONDITION.secretsReady, status: 'True' });
    const handMade: V1Secret = {
      metadata: { name: 'extra', namespace: theirs },
      data: { mine: b64('hand') },
    };
    await core.createNamespacedSecret({ namespace: theirs, body: handMade });
    await patchClass(SMALL, {
      secrets: [
        { name: 'shared', from: { namespace: SOURCES, name: 'shared' } },
        { name: 'extra', from: { namespace: SOURCES, name: 'shared' } },
      ],
    });
    await waitUntil('the extra copy', async () => (await copies()).has(`${mine}/extra`), {
      timeoutMs: 60_000,
    });
    const conflict = await waitForCondition(custom, theirs, {
      type: CONDITION.applied,
      status: 'False',
      reason: 'Conflict',
    });
    expect(condition(conflict, CONDITION.applied)?.message).toContain('extra');
    const untouched = await core.readNamespacedSecret({ namespace: theirs, name: 'extra' });
    expect(untouched.data).toEqual({ mine: b64('hand') });
    expect(untouched.metadata?.ownerReferences).toBeUndefined();
    // The entry goes: the copy goes with it; the hand-made Secret stays.
    await patchClass(SMALL, { secrets: [{ name: 'shared', from: { namespace: SOURCES, name: 'shared' } }] });
    await waitUntil('the extra copy pruned', async () => !(await copies()).has(`${mine}/extra`), {
      timeoutMs: 60_000,
    });
    expect((await core.readNamespacedSecret({ namespace: theirs, name: 'extra' })).data).toEqual({
      mine: b64('hand'),
    });
  });
});

describe('classes that may not copy', () => {
  it('refuses a kube-system source with SecretSourceNotAllowed, the rest applied', async () => {
    const name = `${id}-ks`;
    await createTenant(custom, tenantOf(name, OUTSIDE));
    const tenant = await waitForCondition(custom, name, {
      type: CONDITION.secretsReady,
      status: 'False',
      reason: 'SecretSourceNotAllowed',
    });
    expect(condition(tenant, CONDITION.secretsReady)?.message).toContain('kube-system/x');
    await waitForCondition(custom, name, { type: CONDITION.applied, status: 'True' });
    expect([...(await copies()).keys()].filter((k) => k.startsWith(`${name}/`))).toEqual([]);
  });

  it('refuses a Shared class with secrets on its tenants (SecretsNotAllowed)', async () => {
    const name = `${id}-sh`;
    await createTenant(custom, tenantOf(name, SHARED_CLASS));
    await waitForCondition(custom, name, {
      type: CONDITION.applied,
      status: 'False',
      reason: 'SecretsNotAllowed',
    });
  });
});

describe('externalSecret entries, with the ExternalSecret CRD installed (no ESO running)', () => {
  const esPath = { group: 'external-secrets.io', version: 'v1', plural: 'externalsecrets' };

  it('writes a per-tenant ExternalSecret for each tenant and reports its Ready in SecretsReady', async () => {
    const tenants = [`${id}-e1`, `${id}-e2`];
    for (const name of tenants) await createTenant(custom, tenantOf(name, EXTERNAL));
    for (const name of tenants) {
      const waiting = await waitForCondition(custom, name, {
        type: CONDITION.secretsReady,
        status: 'False',
        reason: 'ExternalSecretNotReady',
      });
      expect(condition(waiting, CONDITION.secretsReady)?.message).toContain(
        `ExternalSecret ${name}/payments`,
      );
      const es = (await custom.getNamespacedCustomObject({
        ...esPath,
        namespace: name,
        name: 'payments',
      })) as {
        metadata: { ownerReferences?: { kind: string; name: string; controller?: boolean }[] };
        spec: Record<string, unknown>;
      };
      expect(es.metadata.ownerReferences).toMatchObject([{ kind: 'Tenant', name, controller: true }]);
      expect(es.spec).toMatchObject({
        secretStoreRef: { kind: 'ClusterSecretStore', name: 'aws' },
        refreshInterval: '30m',
        target: { name: 'payments' },
        dataFrom: [{ extract: { key: `tenants/${name}/payments` } }],
      });
    }
    // What ESO writes once it has read the store: the Tenant follows without anything restarted.
    const [first] = tenants;
    const now = new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
    const ready = {
      type: 'Ready',
      status: 'True',
      reason: 'SecretSynced',
      message: 'secret synced',
      lastTransitionTime: now,
    };
    await kubectl(
      'patch',
      'externalsecret',
      'payments',
      '-n',
      first!,
      '--subresource=status',
      '--type=merge',
      '-p',
      JSON.stringify({ status: { conditions: [ready] } }),
    );
    await waitForCondition(custom, first!, { type: CONDITION.secretsReady, status: 'True' });
  });
});

/**
 * `landlord plan` and `landlord validate` on a row of the main class whose sources exist (its own
 * `-db` holds the canary too, not bound: the row has no Tenant yet): what a row writer's CI or an
 * operator's terminal would print.
 */
async function cliOutput(): Promise<string> {
  const row = `${id}-plan-row`;
  const table = `${id}-plan`;
  await putSource(`${row}-db`, { password: b64(`${CANARY}-plan`) });
  const deployment = tenantOf(row, MAIN, { env: 'shared', volume: 'db' }).spec!.deployment;
  const item = {
    name: row,
    class: MAIN,
    spec: JSON.stringify(deployment),
    customizations: '[]',
    deleted: false,
  };
  await createTable(table);
  await putRow(table, item);
  const dir = await mkdtemp(join(tmpdir(), 'landlord-canary-'));
  const rowFile = join(dir, 'row.json');
  const classFile = join(dir, 'classes.json');
  await writeFile(rowFile, JSON.stringify(item));
  await writeFile(classFile, await kubectl('get', 'tenantclass', MAIN, '-o', 'json'));
  const env = componentEnv({ DYNAMODB_TABLE: table, LANDLORD_SECRET_SOURCE_NAMESPACES: SOURCES });
  const landlord = async (...args: string[]): Promise<string> => {
    const bin = join(repoRoot, 'dist', 'cli', 'landlord.js');
    const run = await exec(process.execPath, [bin, ...args], { env }).catch((err: ExecError) => err);
    return `${run.stdout}\n${run.stderr}`;
  };
  const outputs = [
    await landlord('plan'),
    await landlord('plan', '-o', 'json'),
    await landlord('validate', rowFile, '--classes', classFile),
    await landlord('validate', rowFile, '--classes', classFile, '-o', 'json'),
  ];
  await rm(dir, { recursive: true, force: true });
  // The plan saw the row and its copies: the output is about them, names only.
  expect(outputs[0]).toContain(`Secret ${row}`);
  return outputs.join('\n');
}

describe('never leaking a value', () => {
  it('prints the canary nowhere: logs, Events, status, metrics, kubectl, plan and validate', async () => {
    const tenants = (await custom.listClusterCustomObject({
      ...classes,
      plural: 'tenants',
      labelSelector: `${FILE_LABEL}=${id}`,
    })) as { items: Tenant[] };
    const events = await core.listEventForAllNamespaces({});
    const printed = [
      JSON.stringify(operator.logs),
      JSON.stringify(tenants.items.map((t) => t.status)),
      JSON.stringify(events.items.map((e) => e.message)),
      await operator.metrics(),
      await kubectl('describe', 'tenant', names(1)[0]!, `${id}-late`, `${id}-ks`),
      await kubectl('get', 'tenants', '-o', 'wide'),
      await cliOutput(),
    ].join('\n');
    expect(printed.length).toBeGreaterThan(10_000);
    const values = [CANARY, b64(CANARY), b64(CANARY_2), b64(`${CANARY}-plan`)];
    for (const value of values) expect(printed).not.toContain(value);
  });
});
