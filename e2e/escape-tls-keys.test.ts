// Issue 55, class 11: TLS without sharing a private key. An Ingress class's `expose.tls` named a
// Secret in every tenant namespace, so the platform's wildcard certificate (the README's example)
// sat where every tenant's team (`edit` there) could read its private key and serve it elsewhere.
// TLS now ends at a shared Gateway: the class's HTTPRoutes attach to the HTTPS listener it names,
// whose certificate stays in the platform's namespace, and the CRD refuses an Ingress class's tls
// unless it names each tenant's own Secret. On the real control plane, with the shipped admission
// policies and the pinned Gateway API CRDs (no Gateway controller: what a route attaches to is read
// from the route and the Gateway as written): the honest path first (several tenants converge, each
// route on the HTTPS listener, no key in any tenant namespace, the teams unable to read the
// certificate), then the attacks: a row that mounts the certificate by name, a team's own Gateway or
// ReferenceGrant, a hand-made route that names the Secret or another tenant's host, and the classes
// that would put a shared key in every namespace. Everything it makes is removed in afterAll, the
// Gateway API CRDs too (e2e/expose.test.ts needs a cluster without them).
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { AuthorizationV1Api, type V1Secret } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONDITION, LABEL, type Tenant } from '../api/tenant.js';
import type { ClassExpose, TenantClassSpec } from '../api/tenantclass.js';
import { EXPOSE_TLS_MESSAGE } from '../api/tenantclass-crd.js';
import { installGatewayApiCrds, removeGatewayApiCrds } from '../harness/gateway-api.js';
import { waitUntil } from '../harness/wait.js';
import { EXPOSE_NAMES } from '../operator/exposure/objects.js';
import { config } from './support/deploy.js';
import { clients, envValue, uniqueName } from './support/env.js';
import { createClass, deleteClass, ready, tenantOf } from './support/escape.js';
import { hostsReady } from './support/hosts.js';
import { kubectl, kubectlAttempt } from './support/kubectl.js';
import { componentEnv, startLandlord, type LandlordProcess } from './support/landlord.js';
import { createTenant, deleteTenant, waitForCondition } from './support/tenants.js';

const run = promisify(execFile);
const { apps, core, custom, kc } = clients();
const authz = kc.makeApiClient(AuthorizationV1Api);
const id = uniqueName('tlskeys');
const DOMAIN = `${id}.example.com`;
/** The platform's namespace: the Gateway and its certificate. */
const PLATFORM = `${id}-gateways`;
const CERT = 'wildcard-tls';
const GATEWAY = 'public';
const LISTENER = 'https';
const CLASS = `${id}-web`;
const TENANTS = [`${id}-a`, `${id}-b`, `${id}-c`];
const [FIRST, SECOND] = TENANTS as [string, string];
const MOUNTER = `${id}-mount`;
const MIRROR_CLASS = `${id}-mirror`;
const MIRROR = `${id}-mirrored`;
const ROUTE_API = 'gateway.networking.k8s.io/v1';
let operator: LandlordProcess;
let manifests: string;

const EXPOSE: ClassExpose = {
  port: 8080,
  host: `{name}.${DOMAIN}`,
  gateway: { namespace: PLATFORM, name: GATEWAY, sectionName: LISTENER },
  tls: {},
};

/** A member of a tenant's team: user `dev` in group `<tenant>-devs`, which the class binds to `edit`. */
const asDevOf = (tenant: string): string[] => ['--as=dev', `--as-group=${tenant}-devs`];

/** Runs `verb` on `body` as `tenant`'s team in its namespace: undefined when allowed, else the error. */
const asDev = (tenant: string, verb: string[], body: object): Promise<string | undefined> =>
  kubectlAttempt(manifests, verb, body, [...asDevOf(tenant), '-n', tenant]);

/** Whether the API server would let `tenant`'s team do `verb` on `resource` in `namespace`. */
async function teamMay(
  tenant: string,
  attributes: { verb: string; resource: string; namespace: string; group?: string; name?: string },
): Promise<boolean> {
  const review = await authz.createSubjectAccessReview({
    body: { spec: { user: 'dev', groups: [`${tenant}-devs`], resourceAttributes: attributes } },
  });
  return review.status?.allowed === true;
}

/** A self-signed wildcard certificate for the Gateway's listener, as the platform would hold it. */
async function wildcardCertificate(): Promise<{ crt: string; key: string }> {
  const [crt, key] = [join(manifests, 'tls.crt'), join(manifests, 'tls.key')];
  await run('openssl', [
    'req',
    '-x509',
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:prime256v1',
    '-nodes',
    '-days',
    '1',
    '-subj',
    `/CN=*.${DOMAIN}`,
    '-addext',
    `subjectAltName=DNS:*.${DOMAIN}`,
    '-keyout',
    key,
    '-out',
    crt,
  ]);
  return { crt: await readFile(crt, 'utf8'), key: await readFile(key, 'utf8') };
}

/** The platform's side: the certificate, a GatewayClass and a Gateway whose HTTPS listener serves it. */
async function platformGateway(): Promise<void> {
  await core.createNamespace({ body: { metadata: { name: PLATFORM } } });
  const { crt, key } = await wildcardCertificate();
  await core.createNamespacedSecret({
    namespace: PLATFORM,
    body: {
      metadata: { name: CERT },
      type: 'kubernetes.io/tls',
      stringData: { 'tls.crt': crt, 'tls.key': key },
    },
  });
  const tenantNamespaces = { matchExpressions: [{ key: LABEL.tenant, operator: 'Exists' }] };
  for (const body of [
    {
      apiVersion: ROUTE_API,
      kind: 'GatewayClass',
      metadata: { name: id },
      spec: { controllerName: `example.com/${id}` },
    },
    {
      apiVersion: ROUTE_API,
      kind: 'Gateway',
      metadata: { name: GATEWAY, namespace: PLATFORM },
      spec: {
        gatewayClassName: id,
        listeners: [
          // Plain HTTP for the platform's own routes only: tenants attach to the HTTPS listener.
          { name: 'http', protocol: 'HTTP', port: 80, allowedRoutes: { namespaces: { from: 'Same' } } },
          {
            name: LISTENER,
            protocol: 'HTTPS',
            port: 443,
            hostname: `*.${DOMAIN}`,
            tls: { mode: 'Terminate', certificateRefs: [{ kind: 'Secret', name: CERT }] },
            allowedRoutes: { namespaces: { from: 'Selector', selector: tenantNamespaces } },
          },
        ],
      },
    },
  ]) {
    expect(await kubectlAttempt(manifests, ['create'], body)).toBeUndefined();
  }
}

/**
 * The rights a platform that lets teams make routes aggregates into `edit` (docs/exposure.md): the
 * attacks below are made with them, as the most a team can hold.
 */
const routesRole = {
  apiVersion: 'rbac.authorization.k8s.io/v1',
  kind: 'ClusterRole',
  metadata: { name: `${id}-routes`, labels: { 'rbac.authorization.k8s.io/aggregate-to-edit': 'true' } },
  rules: [
    {
      apiGroups: ['gateway.networking.k8s.io'],
      resources: ['httproutes', 'grpcroutes'],
      verbs: ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete'],
    },
  ],
};

interface ParentRef {
  namespace?: string;
  name: string;
  sectionName?: string;
}

interface HttpRoute {
  metadata: { name: string; namespace: string };
  spec: { parentRefs: ParentRef[]; hostnames: string[] };
}

interface Listener {
  name: string;
  protocol: string;
  hostname?: string;
  tls?: { certificateRefs?: { kind?: string; name: string; namespace?: string }[] };
  allowedRoutes?: { namespaces?: { from?: string; selector?: unknown } };
}

const json = async <T>(...args: string[]): Promise<T> =>
  JSON.parse(await kubectl(...args, '-o', 'json')) as T;

const hostOf = (tenant: string): string => `${tenant}.${DOMAIN}`;

/** The tenant's own route, once the operator made it. */
const routeOf = (tenant: string): Promise<HttpRoute> =>
  waitUntil(
    `HTTPRoute ${tenant}/${EXPOSE_NAMES.route}`,
    () => json<HttpRoute>('get', 'httproute', EXPOSE_NAMES.route, '-n', tenant).catch(() => undefined),
    { timeoutMs: 60_000 },
  );

/** Secrets in `namespace` that hold a private key: of the TLS type, or with a `tls.key` entry. */
async function keysIn(namespace: string): Promise<string[]> {
  const { items } = await core.listNamespacedSecret({ namespace });
  const holdsKey = (s: V1Secret): boolean =>
    s.type === 'kubernetes.io/tls' || Object.keys(s.data ?? {}).includes('tls.key');
  return items.filter(holdsKey).map((s) => s.metadata?.name ?? '');
}

/** The API server's refusal of a class (status and body), or 'accepted' (and the class is removed). */
async function classAnswer(name: string, spec: TenantClassSpec): Promise<string> {
  try {
    await createClass(custom, name, spec);
  } catch (err) {
    const { code, body } = err as { code?: number; body?: unknown };
    return `${code}: ${String(body)}`;
  }
  await deleteClass(custom, name);
  return 'accepted';
}

beforeAll(async () => {
  manifests = await mkdtemp(join(tmpdir(), 'landlord-tls-keys-'));
  // The shipped policies first, then the Gateway API CRDs: the route policies cover them as soon
  // as they exist, and the operator (started after both) serves HTTPRoutes.
  await kubectl('apply', '--server-side', '-k', config('admission'));
  await installGatewayApiCrds(envValue('KUBECONFIG'));
  expect(await kubectlAttempt(manifests, ['apply', '--server-side'], routesRole)).toBeUndefined();
  await platformGateway();
  await createClass(custom, CLASS, {
    namespace: { mode: 'PerTenant', nameTemplate: '{name}' },
    networkIsolation: 'None',
    rbac: [{ group: '{name}-devs', clusterRole: 'edit' }],
    expose: EXPOSE,
    allowedDomains: [DOMAIN],
  });
  operator = startLandlord(
    'operator',
    componentEnv({ LANDLORD_LOG_LEVEL: 'info', LANDLORD_SECRET_SOURCE_NAMESPACES: PLATFORM }),
  );
  await operator.ready();
  for (const name of TENANTS) await createTenant(custom, tenantOf(name, CLASS));
});

afterAll(async () => {
  for (const name of [...TENANTS, MOUNTER, MIRROR]) await deleteTenant(custom, name).catch(() => undefined);
  expect(await operator?.stop()).toBe(0);
  await deleteClass(custom, CLASS);
  await deleteClass(custom, MIRROR_CLASS).catch(() => undefined);
  await core.deleteNamespace({ name: PLATFORM }).catch(() => undefined);
  await kubectl('delete', 'gatewayclass', id, '--ignore-not-found').catch(() => undefined);
  await kubectl('delete', 'clusterrole', `${id}-routes`, '--ignore-not-found');
  await kubectl('delete', '-k', config('admission'), '--ignore-not-found');
  await removeGatewayApiCrds(envValue('KUBECONFIG'));
  await rm(manifests, { recursive: true, force: true });
});

describe('the honest path: TLS at the shared Gateway', () => {
  it('every tenant converges, reached at an https URL', async () => {
    for (const name of TENANTS) {
      const tenant: Tenant = await ready(custom, name);
      expect(tenant.status?.namespace).toBe(name);
      expect(tenant.status?.url).toBe(`https://${hostOf(name)}`);
      await hostsReady(name, 'True', 'HostsHeld');
    }
  });

  it("attaches each route to the Gateway's HTTPS listener, whose certificate is in the platform's namespace", async () => {
    const gateway = await json<{ spec: { listeners: Listener[] } }>(
      'get',
      'gateway',
      GATEWAY,
      '-n',
      PLATFORM,
    );
    const listener = gateway.spec.listeners.find((l) => l.name === LISTENER)!;
    expect(listener.protocol).toBe('HTTPS');
    // Without a namespace, a certificateRef is in the Gateway's own namespace.
    expect(listener.tls?.certificateRefs).toEqual([{ group: '', kind: 'Secret', name: CERT }]);
    expect(listener.allowedRoutes?.namespaces?.from).toBe('Selector');
    for (const name of TENANTS) {
      const route = await routeOf(name);
      expect(route.spec.parentRefs).toEqual([
        expect.objectContaining({ namespace: PLATFORM, name: GATEWAY, sectionName: LISTENER }),
      ]);
      expect(route.spec.hostnames).toEqual([hostOf(name)]);
      // The listener admits the route: its hostname covers the route's, its selector the namespace.
      expect(hostOf(name).endsWith(listener.hostname!.slice(1))).toBe(true);
      const labels = (await core.readNamespace({ name })).metadata?.labels ?? {};
      expect(labels[LABEL.tenant]).toBe(name);
    }
  });

  it("puts no private key in any of the class's tenant namespaces; the platform holds the only one", async () => {
    for (const name of TENANTS) expect(await keysIn(name)).toEqual([]);
    expect(await keysIn(PLATFORM)).toEqual([CERT]);
  });

  it("lets no tenant's team read the certificate, though it reads the Secrets of its own namespace", async () => {
    for (const name of TENANTS) {
      expect(await teamMay(name, { verb: 'get', resource: 'secrets', namespace: name })).toBe(true);
      for (const verb of ['get', 'list', 'watch']) {
        expect(await teamMay(name, { verb, resource: 'secrets', namespace: PLATFORM, name: CERT })).toBe(
          false,
        );
      }
    }
    const read = kubectl('get', 'secret', CERT, '-n', PLATFORM, ...asDevOf(FIRST));
    await expect(read).rejects.toThrow(/Forbidden|forbidden/);
  });
});

describe('the attacks', () => {
  it('a row that mounts the certificate by name reaches only its own namespace, where there is none', async () => {
    // A Secret volume has no namespace: the name resolves in the tenant's own namespace (a class
    // with secrets refuses any other name, ReferenceNotAllowed; this one has none).
    const row = tenantOf(MOUNTER, CLASS);
    row.spec!.deployment!.spec!.template.spec!.volumes = [{ name: 'tls', secret: { secretName: CERT } }];
    await createTenant(custom, row);
    await waitForCondition(custom, MOUNTER, { type: CONDITION.applied, status: 'True' }, 90_000);
    const deployment = await apps.readNamespacedDeployment({ namespace: MOUNTER, name: `${MOUNTER}-app` });
    expect(deployment.spec?.template.spec?.volumes?.map((v) => v.secret?.secretName)).toEqual([CERT]);
    await expect(core.readNamespacedSecret({ namespace: MOUNTER, name: CERT })).rejects.toMatchObject({
      code: 404,
    });
    expect(await keysIn(MOUNTER)).toEqual([]);
  });

  it("a team may not make a Gateway of its own that serves the platform's certificate", async () => {
    const gateway = {
      apiVersion: ROUTE_API,
      kind: 'Gateway',
      metadata: { name: 'mine' },
      spec: {
        gatewayClassName: id,
        listeners: [
          {
            name: 'https',
            protocol: 'HTTPS',
            port: 443,
            tls: { certificateRefs: [{ kind: 'Secret', name: CERT, namespace: PLATFORM }] },
          },
        ],
      },
    };
    expect(await asDev(FIRST, ['create'], gateway)).toMatch(/forbidden/i);
  });

  it('a team may not grant itself the reference: no ReferenceGrant, neither in its namespace nor the platform’s', async () => {
    for (const namespace of [FIRST, PLATFORM]) {
      const attributes = { verb: 'create', resource: 'referencegrants', namespace };
      expect(await teamMay(FIRST, { ...attributes, group: 'gateway.networking.k8s.io' })).toBe(false);
    }
  });

  it('a hand-made route that names the certificate is admitted for its own host, and carries no key', async () => {
    // The schema takes any kind of backend, and the admission rules judge hostnames; a Gateway
    // follows a reference to another namespace only where a ReferenceGrant there allows it, and
    // never serves a Secret as a backend. The route holds a name, never the Secret's data.
    const route = {
      apiVersion: ROUTE_API,
      kind: 'HTTPRoute',
      metadata: { name: 'names-the-cert' },
      spec: {
        parentRefs: [{ namespace: PLATFORM, name: GATEWAY, sectionName: LISTENER }],
        hostnames: [hostOf(FIRST)],
        rules: [{ backendRefs: [{ group: '', kind: 'Secret', name: CERT, namespace: PLATFORM }] }],
      },
    };
    expect(await asDev(FIRST, ['create'], route)).toBeUndefined();
    const made = await kubectl('get', 'httproute', 'names-the-cert', '-n', FIRST, '-o', 'json');
    expect(made).not.toContain('PRIVATE KEY');
    expect(await keysIn(FIRST)).toEqual([]);
    // Its own host: nothing stray to report.
    await hostsReady(FIRST, 'True', 'HostsHeld');
  });

  it("a class whose secrets copy the Gateway's certificate gets no copy: SecretsReady names the shared key", async () => {
    await createClass(custom, MIRROR_CLASS, {
      namespace: { mode: 'PerTenant', nameTemplate: '{name}' },
      networkIsolation: 'None',
      secrets: [{ name: 'wildcard', from: { namespace: PLATFORM, name: CERT } }],
    });
    await createTenant(custom, tenantOf(MIRROR, MIRROR_CLASS));
    const tenant = await waitForCondition(custom, MIRROR, {
      type: CONDITION.secretsReady,
      status: 'False',
      reason: 'SecretSharedPrivateKey',
    });
    const said = tenant.status?.conditions?.find((c) => c.type === CONDITION.secretsReady)?.message;
    expect(said).toContain(`${PLATFORM}/${CERT}`);
    expect(await keysIn(MIRROR)).toEqual([]);
  });

  it("a hand-made route for another tenant's host on the HTTPS listener is refused by admission", async () => {
    const route = {
      apiVersion: ROUTE_API,
      kind: 'HTTPRoute',
      metadata: { name: 'takes-b' },
      spec: {
        parentRefs: [{ namespace: PLATFORM, name: GATEWAY, sectionName: LISTENER }],
        hostnames: [hostOf(SECOND)],
        rules: [{ backendRefs: [{ name: EXPOSE_NAMES.service, port: 80 }] }],
      },
    };
    const refusal = await waitUntil(
      'the route policy to refuse the host',
      async () =>
        (await asDev(FIRST, ['create', '--dry-run=server'], route))?.includes('denied') || undefined,
      { timeoutMs: 60_000 },
    );
    expect(refusal).toBe(true);
    expect(await asDev(FIRST, ['create'], route)).toContain(hostOf(SECOND));
  });
});

describe('a class that would put a shared key in every tenant namespace', () => {
  const INGRESS: ClassExpose = { port: 8080, host: `{name}.${DOMAIN}`, ingressClassName: 'nginx' };
  const exposing = (expose: ClassExpose, secrets: TenantClassSpec['secrets'] = []): TenantClassSpec => ({
    expose,
    secrets,
    allowedDomains: [DOMAIN],
  });

  it('is refused with an Ingress and tls.secretName alone (the old wildcard example), naming the Gateway', async () => {
    const answer = await classAnswer(`${id}-wild`, exposing({ ...INGRESS, tls: { secretName: CERT } }));
    expect(answer).toMatch(/^422: /);
    expect(answer).toContain(EXPOSE_TLS_MESSAGE.ingressSharedKey);
  });

  it('is refused when its TLS Secret is one of its secrets copied from a single source, perTenant or not', async () => {
    const tls = { secretName: 'tenant-tls', perTenant: true };
    const shared = [{ name: 'tenant-tls', from: { namespace: 'platform-secrets', name: CERT } }];
    const answer = await classAnswer(`${id}-copy`, exposing({ ...INGRESS, tls }, shared));
    expect(answer).toMatch(/^422: /);
    expect(answer).toContain(EXPOSE_TLS_MESSAGE.sharedSource);
    const remote = [
      {
        name: 'tenant-tls',
        externalSecret: {
          storeRef: { kind: 'ClusterSecretStore' as const, name: 'vault' },
          remoteKey: 'tls/wild',
        },
      },
    ];
    expect(await classAnswer(`${id}-remote`, exposing({ ...INGRESS, tls }, remote))).toContain(
      EXPOSE_TLS_MESSAGE.sharedSource,
    );
  });

  it('is refused with perTenant at a Gateway', async () => {
    const answer = await classAnswer(`${id}-gwpt`, exposing({ ...EXPOSE, tls: { perTenant: true } }));
    expect(answer).toContain(EXPOSE_TLS_MESSAGE.perTenantAtGateway);
  });

  it("is accepted when each tenant's Secret is its own: perTenant, from a per-tenant source", async () => {
    const tls = { secretName: 'tenant-tls', perTenant: true };
    const own = [{ name: 'tenant-tls', from: { namespace: 'platform-secrets', name: '{name}-tls' } }];
    expect(await classAnswer(`${id}-own`, exposing({ ...INGRESS, tls }, own))).toBe('accepted');
    expect(await classAnswer(`${id}-byo`, exposing({ ...INGRESS, tls }))).toBe('accepted');
  });
});
