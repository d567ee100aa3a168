// Issue 55, attack 10: a tenant team's own ExternalSecret. Where External Secrets Operator's chart
// is installed, its roles aggregate ExternalSecrets, PushSecrets and SecretStores into `edit`, and a
// ClusterSecretStore without `conditions` serves every namespace: a team could write an
// ExternalSecret naming another tenant's remote key and read it. Two things stop it
// (docs/isolation.md, "A team's own ExternalSecret"): the shipped admission policy
// landlord-tenant-external-secrets lets only the holder of the RBAC verb `provision` (the
// operator's ClusterRole) write those kinds in tenant namespaces, and the store's `conditions`
// (docs/secrets.md) serve only namespaces labelled as a tenant's, where that policy holds.
// Real parts: ESO's controller built from its pinned module (as e2e/external-secrets-engine.test.ts
// runs it) with its fake provider as the store, the shipped policies and RBAC, the operator as its
// own ServiceAccount (the honest path goes through the policy), and the team as an impersonated
// member of `<tenant>-devs`, which the class binds to `edit`. ESO's aggregated roles are not in this
// cluster, so a Role in the tenant's namespace grants the team ESO's kinds as ESO's chart would.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { V1Secret } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONDITION, LABEL, type Tenant } from '../api/tenant.js';
import { removeCrds } from '../harness/crd-removal.js';
import {
  externalSecretsCrdFiles,
  startExternalSecrets,
  type ExternalSecretsProcess,
} from '../harness/external-secrets.js';
import { waitUntil } from '../harness/wait.js';
import { asServiceAccount, config, SYSTEM } from './support/deploy.js';
import { clients, e2eEnv, envValue, uniqueName } from './support/env.js';
import { createClass, deleteClass, tenantOf } from './support/escape.js';
import { installExternalSecretsCrds } from './support/external-secrets.js';
import { kubectl, kubectlAttempt } from './support/kubectl.js';
import { startLandlord, type LandlordProcess } from './support/landlord.js';
import { canI, serviceAccountKubeconfig, serviceAccountUser } from './support/service-account.js';
import { createTenant, deleteTenant, waitForCondition } from './support/tenants.js';

const { core, custom } = clients();
const id = uniqueName('xs');
const className = `${id}-class`;
const STORE = `${id}-store`;
const POLICY = 'landlord-tenant-external-secrets';
const [tenantA, tenantB] = [`${id}-a`, `${id}-b`];
/** A namespace that is not a tenant's, where the team gets the same rights by hand. */
const plain = `${id}-plain`;
const CANARY = `canary-${Math.random().toString(36).slice(2, 14)}`;
/** ESO's CRDs are large: the first apply of them all can take a while on a loaded machine. */
const namespaces: Record<string, string> = {};
let eso: ExternalSecretsProcess;
let operator: LandlordProcess;
let manifests: string;

const remoteKey = (tenant: string): string => `tenants/${tenant}/payments`;
const apiKeyOf = (tenant: string): string => `${CANARY}-${tenant}`;

/** The platform's store, fenced as docs/secrets.md writes it: namespaces labelled as a tenant's only. */
const store = {
  apiVersion: 'external-secrets.io/v1',
  kind: 'ClusterSecretStore',
  metadata: { name: STORE },
  spec: {
    conditions: [{ namespaceSelector: { matchExpressions: [{ key: LABEL.tenant, operator: 'Exists' }] } }],
    provider: {
      fake: {
        data: [tenantA, tenantB].map((t) => ({
          key: remoteKey(t),
          value: JSON.stringify({ 'api-key': apiKeyOf(t) }),
        })),
      },
    },
  },
};

/** What ESO's chart aggregates into `edit`, granted here in one namespace by hand. */
const esoEditRole = {
  apiVersion: 'rbac.authorization.k8s.io/v1',
  kind: 'ClusterRole',
  metadata: { name: `${id}-eso-edit` },
  rules: [
    {
      apiGroups: ['external-secrets.io'],
      resources: ['externalsecrets', 'secretstores', 'pushsecrets'],
      verbs: ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete'],
    },
  ],
};

/** The impersonation of a member of tenant A's team: user `dev` in group `<tenant>-devs`. */
const asDev = ['--as=dev', `--as-group=${tenantA}-devs`];

/** An ExternalSecret that takes every property of `key` from the platform's store. */
const externalSecret = (name: string, key: string): object => ({
  apiVersion: 'external-secrets.io/v1',
  kind: 'ExternalSecret',
  metadata: { name },
  spec: {
    secretStoreRef: { kind: 'ClusterSecretStore', name: STORE },
    refreshInterval: '5s',
    target: { name },
    dataFrom: [{ extract: { key } }],
  },
});

/** A store of the team's own: no `auth`, so the provider would use ESO's own cloud identity. */
const ownStore = {
  apiVersion: 'external-secrets.io/v1',
  kind: 'SecretStore',
  metadata: { name: 'own' },
  spec: { provider: { aws: { service: 'SecretsManager', region: 'eu-west-1' } } },
};

/** Pushes the tenant's Secret over another tenant's key in the platform's store. */
const pushSecret = (key: string): object => ({
  apiVersion: 'external-secrets.io/v1alpha1',
  kind: 'PushSecret',
  metadata: { name: 'push' },
  spec: {
    secretStoreRefs: [{ kind: 'ClusterSecretStore', name: STORE }],
    selector: { secret: { name: 'payments' } },
    data: [{ match: { secretKey: 'api-key', remoteRef: { remoteKey: key } } }],
  },
});

/** Runs kubectl `verb` on `body` with `flags`: undefined when allowed, else kubectl's error. */
const attempt = (verb: string[], body: object, flags: string[] = []): Promise<string | undefined> =>
  kubectlAttempt(manifests, verb, body, flags);

const asTeam = (namespace: string, body: object): Promise<string | undefined> =>
  attempt(['create'], body, [...asDev, '-n', namespace]);

/** The Secret named `name` in `namespace`, or undefined while there is none. */
const secretIn = (namespace: string, name: string): Promise<V1Secret | undefined> =>
  core.readNamespacedSecret({ namespace, name }).catch(() => undefined);

const decoded = (secret: V1Secret | undefined, key: string): string | undefined =>
  secret?.data?.[key] === undefined ? undefined : Buffer.from(secret.data[key], 'base64').toString();

const refusal = (kind: string, name: string): RegExp =>
  new RegExp(`${kind} ${name}: in a tenant namespace only the landlord\\s+operator writes`);

/** The policy is in force when the team's dry-run ExternalSecret in A's namespace is refused by it. */
async function policyInForce(): Promise<void> {
  await waitUntil(
    'the ExternalSecret policy to be in force',
    async () => {
      const refused = await attempt(
        ['create', '--dry-run=server'],
        externalSecret('probe', remoteKey(tenantA)),
        [...asDev, '-n', namespaces[tenantA]!],
      );
      return (refused !== undefined && refusal('ExternalSecret', 'probe').test(refused)) || undefined;
    },
    { timeoutMs: 60_000 },
  );
}

/** Tenant A's team gets ESO's kinds in `namespace`, as ESO's aggregated roles would give them. */
async function grantEsoKinds(namespace: string): Promise<void> {
  await kubectl(
    ...['create', 'rolebinding', `${id}-eso-edit`, '-n', namespace],
    ...[`--clusterrole=${esoEditRole.metadata.name}`, `--group=${tenantA}-devs`],
  );
}

beforeAll(async () => {
  manifests = await mkdtemp(join(tmpdir(), 'landlord-xs-'));
  // ESO's CRDs before the operator: it asks for ESO's API once, at start-up.
  await installExternalSecretsCrds();
  await Promise.all([
    kubectl('apply', '--server-side', '-k', config('admission')),
    kubectl('apply', '--server-side', '-k', config('rbac')),
    attempt(['apply', '--server-side'], esoEditRole).then((e) => expect(e).toBeUndefined()),
    attempt(['create'], store).then((e) => expect(e).toBeUndefined()),
    createClass(custom, className, {
      namespace: { mode: 'PerTenant', nameTemplate: 'tenant-{name}' },
      rbac: [{ group: '{name}-devs', clusterRole: 'edit' }],
      secrets: [
        {
          name: 'payments',
          externalSecret: {
            storeRef: { kind: 'ClusterSecretStore', name: STORE },
            remoteKey: 'tenants/{name}/payments',
            refreshInterval: '5s',
          },
        },
      ],
    }),
  ]);
  eso = await startExternalSecrets(envValue('KUBECONFIG'), join(e2eEnv().LANDLORD_E2E_RUN_DIR!, 'logs'));
  const kubeconfig = await serviceAccountKubeconfig(SYSTEM, 'landlord-operator');
  operator = startLandlord(
    'operator',
    asServiceAccount(kubeconfig, { LANDLORD_LEADER_ELECTION: 'false', LANDLORD_LOG_LEVEL: 'info' }),
  );
  await operator.ready();
  await core.createNamespace({ body: { metadata: { name: plain } } });
  await grantEsoKinds(plain);
}, 900_000);

afterAll(async () => {
  for (const name of [tenantA, tenantB]) await deleteTenant(custom, name).catch(() => undefined);
  expect(await operator?.stop()).toBe(0);
  await deleteClass(custom, className);
  await core.deleteNamespace({ name: plain }).catch(() => undefined);
  await kubectl('delete', 'clusterrole', esoEditRole.metadata.name, '--ignore-not-found');
  await kubectl('delete', 'clustersecretstore', STORE, '--ignore-not-found');
  await kubectl('delete', '-k', config('admission'), '--ignore-not-found');
  await eso?.process.stop();
  await removeCrds(envValue('KUBECONFIG'), await externalSecretsCrdFiles());
  await rm(manifests, { recursive: true, force: true });
}, 600_000);

describe('the honest path: a class entry, written by the operator as its ServiceAccount', () => {
  it('gives each tenant its own key through ESO, and both Tenants say SecretsReady=True', async () => {
    for (const name of [tenantA, tenantB]) await createTenant(custom, tenantOf(name, className));
    for (const name of [tenantA, tenantB]) {
      const tenant: Tenant = await waitForCondition(
        custom,
        name,
        { type: CONDITION.secretsReady, status: 'True' },
        180_000,
      );
      namespaces[name] = tenant.status!.namespace!;
      const secret = await waitUntil(
        `${name}'s payments Secret`,
        () => secretIn(namespaces[name]!, 'payments'),
        { timeoutMs: 60_000, abortIf: esoRunning },
      );
      expect(decoded(secret, 'api-key')).toBe(apiKeyOf(name));
    }
    await grantEsoKinds(namespaces[tenantA]!);
    await policyInForce();
  });

  it('the verb the policy asks for is the operator’s alone; RBAC lets the team write ESO’s kinds', async () => {
    const provision = ['provision', 'externalsecrets.external-secrets.io'];
    expect(await canI(serviceAccountUser(SYSTEM, 'landlord-operator'), provision)).toBe(true);
    expect(await canI(serviceAccountUser(SYSTEM, 'landlord-sync'), provision)).toBe(false);
    expect(await canI('dev', [...provision, `--as-group=${tenantA}-devs`])).toBe(false);
    for (const kind of ['externalsecrets', 'secretstores', 'pushsecrets'])
      expect(
        await canI('dev', [
          'create',
          `${kind}.external-secrets.io`,
          '-n',
          namespaces[tenantA]!,
          `--as-group=${tenantA}-devs`,
        ]),
      ).toBe(true);
  });
});

describe('the policy as the API server holds it, with ESO installed', () => {
  it("type-checks against ESO's schemas without a warning", async () => {
    interface Status {
      metadata: { generation: number };
      status?: { observedGeneration?: number; typeChecking?: { expressionWarnings?: unknown[] } };
    }
    const policy = await waitUntil(
      'the policy to be type-checked',
      async () => {
        const out = await kubectl('get', 'validatingadmissionpolicy', POLICY, '-o', 'json');
        const live = JSON.parse(out) as Status;
        return live.status?.observedGeneration === live.metadata.generation ? live : undefined;
      },
      { timeoutMs: 60_000 },
    );
    expect(policy.status?.typeChecking?.expressionWarnings ?? []).toEqual([]);
  });
});

describe("tenant A's team, with ESO's kinds in its namespace and the shipped policy", () => {
  it("cannot write an ExternalSecret naming B's remote key: refused, saying why", async () => {
    const refused = await asTeam(namespaces[tenantA]!, externalSecret('steal', remoteKey(tenantB)));
    expect(refused).toMatch(refusal('ExternalSecret', 'steal'));
    expect(refused).toContain(`ValidatingAdmissionPolicy '${POLICY}'`);
    expect(refused).toContain('dev lacks the RBAC verb provision on externalsecrets.external-secrets.io');
    // Not even one for its own key: the class's entry is the way.
    expect(await asTeam(namespaces[tenantA]!, externalSecret('mine', remoteKey(tenantA)))).toMatch(
      refusal('ExternalSecret', 'mine'),
    );
    expect(await secretIn(namespaces[tenantA]!, 'steal')).toBeUndefined();
  });

  // The operator's own ExternalSecret is also one of landlord's objects, which the managed-objects
  // policy keeps landlord's: whichever of the two policies the API server asks first refuses it.
  it("cannot point the operator's ExternalSecret at B's key", async () => {
    const patch = { spec: { dataFrom: [{ extract: { key: remoteKey(tenantB) } }] } };
    let refused: string | undefined;
    try {
      await kubectl(
        ...['patch', 'externalsecret', 'payments', '-n', namespaces[tenantA]!, '--type=merge'],
        ...['-p', JSON.stringify(patch), ...asDev],
      );
    } catch (err) {
      refused = String((err as { stderr?: string }).stderr ?? err);
    }
    const byManaged = /landlord-tenant-managed-objects.*only landlord may update an object labelled/;
    expect([refusal('ExternalSecret', 'payments'), byManaged].some((r) => r.test(refused ?? ''))).toBe(true);
    expect(decoded(await secretIn(namespaces[tenantA]!, 'payments'), 'api-key')).toBe(apiKeyOf(tenantA));
  });

  it('cannot make a SecretStore of its own', async () => {
    const refused = await asTeam(namespaces[tenantA]!, ownStore);
    expect(refused).toMatch(refusal('SecretStore', 'own'));
    expect(refused).toContain('lacks the RBAC verb provision on secretstores.external-secrets.io');
  });

  it("cannot push its Secret over B's key in the platform's store", async () => {
    const refused = await asTeam(namespaces[tenantA]!, pushSecret(remoteKey(tenantB)));
    expect(refused).toMatch(refusal('PushSecret', 'push'));
    expect(refused).toContain('lacks the RBAC verb provision on pushsecrets.external-secrets.io');
  });
});

describe("outside the tenants' namespaces: the store's conditions", () => {
  it("the policy admits the team's ExternalSecret there, and ESO refuses to serve it from the store", async () => {
    expect(await asTeam(plain, externalSecret('steal', remoteKey(tenantB)))).toBeUndefined();
    const said = await waitUntil(
      "ESO's refusal of the store in a namespace its conditions leave out",
      async () => {
        const events = await core.listNamespacedEvent({
          namespace: plain,
          fieldSelector: 'involvedObject.kind=ExternalSecret,involvedObject.name=steal',
        });
        return events.items.map((e) => e.message ?? '').find((m) => m.includes('denied by spec.condition'));
      },
      { timeoutMs: 120_000, abortIf: esoRunning },
    );
    expect(said).toContain(`using cluster store "${STORE}" is not allowed from namespace "${plain}"`);
    expect(await secretIn(plain, 'steal')).toBeUndefined();
  });
});

function esoRunning(): void {
  if (!eso.process.running) throw new Error(`external-secrets exited; its log is ${eso.process.logFile}`);
}
