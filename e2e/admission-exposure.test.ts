// Issue 40, the admission rules (config/admission, docs/exposure.md) on the real API server: in a
// PerTenant tenant's namespace, made through sync and the operator, the tenant's own group
// (`--as-group <name>-devs`, bound to `edit` by the class) cannot open a way in from outside (a
// NodePort or LoadBalancer Service, externalIPs) nor route a host it does not hold (another
// tenant's, none at all, a wildcard, a default backend, a Gateway API route without hostnames or of
// a kind without them); a ClusterIP Service and an Ingress or HTTPRoute for its own host pass. The
// same user may do all of it in a namespace that is not a tenant's. The policies are the objects
// config/admission ships (the chart renders the same, e2e/helm.test.ts), in force before the
// tenants exist, so the operator makes them through the rules; the Gateway API CRDs come from their
// pinned release (harness/gateway-api.ts), installed after the policies. The hosts a tenant holds
// are the operator's own landlord.dev/hosts annotation, from its class's `expose` and its row's
// `hosts`. The policies and the CRDs are removed in afterAll, so the files that run later on this
// control plane meet neither (e2e/expose.test.ts needs a cluster without the Gateway API).
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOSTS_ANNOTATION } from '../api/exposure.js';
import { LABEL, type Tenant } from '../api/tenant.js';
import { installGatewayApiCrds, removeGatewayApiCrds } from '../harness/gateway-api.js';
import { waitUntil } from '../harness/wait.js';
import { config } from './support/deploy.js';
import { clients, envValue, uniqueName } from './support/env.js';
import { createClass, deleteClass, ready } from './support/escape.js';
import { kubectl } from './support/kubectl.js';
import { allWrites, componentEnv, startLandlord, type LandlordProcess } from './support/landlord.js';
import {
  createTable,
  deleteSyncedTenants,
  putRow,
  startSync,
  updateRow,
  verbatimRow,
} from './support/sync.js';

const { core, custom } = clients();
const id = uniqueName('adm');
const className = `${id}-class`;
/** A PerTenant class without `expose`: its tenants hold no host. */
const unexposedClass = `${id}-unexposed`;
const table = `${id}-table`;
const [tenantA, tenantB, tenantC] = [`${id}-a`, `${id}-b`, `${id}-c`];
const plain = `${id}-plain`;
const hostOf = (tenant: string): string => `${tenant}.apps.example.com`;
let operator: LandlordProcess;
let sync: LandlordProcess;
let manifests: string;

/** Writes `body` to a file and runs kubectl `verb` on it with `flags` (impersonation, namespace). */
async function kubectlOn(verb: string[], flags: string[], body: object): Promise<string> {
  const file = join(manifests, `${uniqueName('m')}.json`);
  await writeFile(file, JSON.stringify(body));
  return kubectl(...verb, '-f', file, ...flags);
}

/** The impersonation of a member of the tenant's team: user `dev` in group `<tenant>-devs`. */
const asDevOf = (tenant: string): string[] => ['--as=dev', `--as-group=${tenant}-devs`];

/** Creates `body` in `namespace` as a member of `tenant`'s team: undefined when allowed, else kubectl's error. */
async function createAsDev(tenant: string, namespace: string, body: object): Promise<string | undefined> {
  try {
    await kubectlOn(['create'], [...asDevOf(tenant), '-n', namespace], body);
    return undefined;
  } catch (err) {
    return String((err as { stderr?: string }).stderr ?? err);
  }
}

const service = (name: string, spec: object): object => ({
  apiVersion: 'v1',
  kind: 'Service',
  metadata: { name },
  spec: { ports: [{ port: 80, targetPort: 8080 }], selector: { app: 'web' }, ...spec },
});

const BACKEND = { service: { name: 'web', port: { number: 80 } } };
const PATHS = { paths: [{ path: '/', pathType: 'Prefix', backend: BACKEND }] };

const ingress = (name: string, spec: object): object => ({
  apiVersion: 'networking.k8s.io/v1',
  kind: 'Ingress',
  metadata: { name },
  spec: { ingressClassName: 'nginx', ...spec },
});

const ingressFor = (name: string, host: string): object => ingress(name, { rules: [{ host, http: PATHS }] });

const httpRoute = (name: string, hostnames?: string[]): object => ({
  apiVersion: 'gateway.networking.k8s.io/v1',
  kind: 'HTTPRoute',
  metadata: { name },
  spec: {
    parentRefs: [{ name: 'public', namespace: 'gateways' }],
    ...(hostnames === undefined ? {} : { hostnames }),
    rules: [{ backendRefs: [{ name: 'web', port: 80 }] }],
  },
});

const tcpRoute = (name: string): object => ({
  apiVersion: 'gateway.networking.k8s.io/v1',
  kind: 'TCPRoute',
  metadata: { name },
  spec: {
    parentRefs: [{ name: 'public', namespace: 'gateways' }],
    rules: [{ backendRefs: [{ name: 'web', port: 5432 }] }],
  },
});

const namespaceOf = (tenant: Tenant): string => tenant.status!.namespace!;
const namespaces: Record<string, string> = {};

/**
 * The policies take effect a moment after they are written (the API server loads them from its
 * own watch): until an admin's dry-run NodePort is refused in a tenant namespace.
 */
async function policiesInForce(namespace: string): Promise<void> {
  await waitUntil(
    'the admission policies to be in force',
    async () => {
      try {
        await kubectlOn(
          ['create', '--dry-run=server'],
          ['-n', namespace],
          service('probe', { type: 'NodePort' }),
        );
        return undefined;
      } catch {
        return true;
      }
    },
    { timeoutMs: 60_000 },
  );
}

/**
 * The built-in `edit` holds no Gateway API rights (their CRDs ship no aggregated roles): a cluster
 * that lets teams make routes adds a ClusterRole like this one, which the controller-manager
 * aggregates into `edit` (docs/exposure.md).
 */
const routesRole = {
  apiVersion: 'rbac.authorization.k8s.io/v1',
  kind: 'ClusterRole',
  metadata: { name: `${id}-routes`, labels: { 'rbac.authorization.k8s.io/aggregate-to-edit': 'true' } },
  rules: [
    {
      apiGroups: ['gateway.networking.k8s.io'],
      resources: ['httproutes', 'grpcroutes', 'tlsroutes', 'tcproutes', 'udproutes'],
      verbs: ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete'],
    },
  ],
};

async function routesAggregatedIntoEdit(): Promise<void> {
  await waitUntil(
    'edit to include Gateway API routes',
    async () => {
      const out = await kubectl('get', 'clusterrole', 'edit', '-o', 'json');
      return out.includes('tcproutes') || undefined;
    },
    { timeoutMs: 60_000 },
  );
}

beforeAll(async () => {
  manifests = await mkdtemp(join(tmpdir(), 'landlord-admission-'));
  // The policies first, before any tenant exists: the operator makes the tenants through them.
  await Promise.all([
    kubectl('apply', '--server-side', '-k', config('admission')),
    createClass(custom, className, {
      namespace: { mode: 'PerTenant', nameTemplate: 'tenant-{name}' },
      rbac: [{ group: '{name}-devs', clusterRole: 'edit' }],
      expose: { port: 8080, host: '{name}.apps.example.com', ingressClassName: 'nginx' },
      allowedDomains: ['apps.example.com'],
    }),
    createClass(custom, unexposedClass, {
      namespace: { mode: 'PerTenant', nameTemplate: 'tenant-{name}' },
      rbac: [{ group: '{name}-devs', clusterRole: 'edit' }],
    }),
    createTable(table),
  ]);
  operator = startLandlord(
    'operator',
    componentEnv({ LANDLORD_LOG_LEVEL: 'info', LANDLORD_OPERATOR_RESYNC_SECONDS: '10' }),
  );
  await operator.ready();
  // A holds its templated host and a custom one, B its templated host, C none (its class exposes nothing).
  await putRow(table, { ...verbatimRow(tenantA), class: className, hosts: [`www.${hostOf(tenantA)}`] });
  await putRow(table, { ...verbatimRow(tenantB), class: className });
  await putRow(table, { ...verbatimRow(tenantC), class: unexposedClass });
  sync = startSync(table, { LANDLORD_SYNC_RESYNC_SECONDS: '5' });
  for (const name of [tenantA, tenantB, tenantC]) namespaces[name] = namespaceOf(await ready(custom, name));
  // Not a tenant's: the same user gets the same `edit` here by hand.
  await core.createNamespace({ body: { metadata: { name: plain } } });
  await kubectl(
    'create',
    'rolebinding',
    'devs-edit',
    '-n',
    plain,
    '--clusterrole=edit',
    `--group=${tenantA}-devs`,
  );
  await policiesInForce(namespaces[tenantA]!);
  // The Gateway API CRDs last: the route policies, written while their kinds did not exist, cover
  // them as soon as they do.
  await installGatewayApiCrds(envValue('KUBECONFIG'));
  await kubectlOn(['apply', '--server-side'], [], routesRole);
  await routesAggregatedIntoEdit();
});

afterAll(async () => {
  await sync?.stop();
  await deleteSyncedTenants(table).catch(() => undefined);
  expect(await operator?.stop()).toBe(0);
  await deleteClass(custom, className);
  await deleteClass(custom, unexposedClass);
  await core.deleteNamespace({ name: plain }).catch(() => undefined);
  await kubectl('delete', 'clusterrole', `${id}-routes`, '--ignore-not-found');
  await kubectl('delete', '-k', config('admission'), '--ignore-not-found');
  await removeGatewayApiCrds(envValue('KUBECONFIG'));
  await rm(manifests, { recursive: true, force: true });
});

describe('the policies as the API server holds them', () => {
  it('type-checks every expression against the schemas of the kinds it checks, without a warning', async () => {
    interface Status {
      metadata: { name: string; generation: number };
      status?: { observedGeneration?: number; typeChecking?: { expressionWarnings?: unknown[] } };
    }
    const policies = await waitUntil(
      'every policy to be type-checked',
      async () => {
        const list = JSON.parse(
          await kubectl(
            'get',
            'validatingadmissionpolicies',
            '-l',
            'app.kubernetes.io/name=landlord',
            '-o',
            'json',
          ),
        ) as { items: Status[] };
        const done = list.items.every((p) => p.status?.observedGeneration === p.metadata.generation);
        return done && list.items.length > 0 ? list.items : undefined;
      },
      { timeoutMs: 60_000 },
    );
    expect(policies.map((p) => p.metadata.name).sort()).toEqual([
      'landlord-tenant-external-secrets',
      'landlord-tenant-hostless-routes',
      'landlord-tenant-ingresses',
      'landlord-tenant-managed-objects',
      'landlord-tenant-pods',
      'landlord-tenant-routes',
      'landlord-tenant-services',
      'landlord-tenant-source-stamp',
    ]);
    for (const policy of policies) expect(policy.status?.typeChecking?.expressionWarnings ?? []).toEqual([]);
  });
});

describe('the setting the rules read: a tenant namespace, its label and its hosts', () => {
  it('labels each tenant namespace with its tenant, which the bindings select', async () => {
    for (const name of [tenantA, tenantB, tenantC]) {
      const ns = await core.readNamespace({ name: namespaces[name]! });
      expect(ns.metadata?.labels?.[LABEL.tenant]).toBe(name);
    }
  });

  it("keeps the hosts annotation through the operator's resync passes, without a write for it", async () => {
    // Every write: new children are created by POST, changed ones applied.
    const applies = (): Promise<number> => allWrites(operator);
    const before = await applies();
    const seen = operator.logs.length;
    const passes = (): number => operator.logs.slice(seen).filter((l) => l.msg === 'resync complete').length;
    await waitUntil('two resync passes', () => Promise.resolve(passes() >= 2 || undefined), {
      timeoutMs: 60_000,
    });
    const ns = await core.readNamespace({ name: namespaces[tenantA]! });
    expect(ns.metadata?.annotations?.[HOSTS_ANNOTATION]).toBe(`${hostOf(tenantA)},www.${hostOf(tenantA)}`);
    expect(await applies()).toBe(before);
  });

  it('leaves the team unable to change it: `edit` cannot patch its namespace', async () => {
    const error = await kubectl(
      'annotate',
      'namespace',
      namespaces[tenantA]!,
      `${HOSTS_ANNOTATION}=${hostOf(tenantB)}`,
      '--overwrite',
      ...asDevOf(tenantA),
    ).then(
      () => undefined,
      (err: { stderr?: string }) => err.stderr,
    );
    expect(error).toContain('forbidden');
  });
});

describe("in a tenant namespace, as the tenant's group", () => {
  const ns = (): string => namespaces[tenantA]!;

  it.each([
    ['NodePort', 'NodePort'],
    ['LoadBalancer', 'LoadBalancer'],
  ])('refuses a Service of type %s', async (_, type) => {
    const error = await createAsDev(tenantA, ns(), service(`svc-${type.toLowerCase()}`, { type }));
    expect(error).toContain(
      `services "svc-${type.toLowerCase()}" is forbidden: ValidatingAdmissionPolicy 'landlord-tenant-services' ` +
        "with binding 'landlord-tenant-services' denied request: ",
    );
    expect(error).toContain(
      `Service svc-${type.toLowerCase()}: type ${type} is not allowed in a tenant namespace`,
    );
  });

  it('refuses a Service with externalIPs, naming them', async () => {
    const error = await createAsDev(tenantA, ns(), service('svc-ext', { externalIPs: ['203.0.113.7'] }));
    expect(error).toContain('Service svc-ext: spec.externalIPs (203.0.113.7) is not allowed');
  });

  it('allows a ClusterIP Service', async () => {
    expect(await createAsDev(tenantA, ns(), service('web', {}))).toBeUndefined();
  });

  it("refuses an Ingress for another tenant's host, naming it and the hosts it holds", async () => {
    const error = await createAsDev(tenantA, ns(), ingressFor('steal', hostOf(tenantB)));
    expect(error).toContain("ValidatingAdmissionPolicy 'landlord-tenant-ingresses'");
    expect(error).toContain(
      `Ingress steal: host ${hostOf(tenantB)} is not one this tenant holds (namespace annotation ` +
        `landlord.dev/hosts: ${hostOf(tenantA)}, www.${hostOf(tenantA)})`,
    );
  });

  it('refuses an Ingress rule without a host', async () => {
    const error = await createAsDev(tenantA, ns(), ingress('no-host', { rules: [{ http: PATHS }] }));
    expect(error).toContain('Ingress no-host: every rule needs a host');
  });

  it('refuses a wildcard Ingress, even under its own domain', async () => {
    const error = await createAsDev(tenantA, ns(), ingressFor('wild', `*.${hostOf(tenantA)}`));
    expect(error).toContain(`Ingress wild: wildcard host *.${hostOf(tenantA)} is not allowed`);
  });

  it('refuses a default backend, which answers for every host', async () => {
    const body = ingress('catch-all', {
      defaultBackend: BACKEND,
      rules: [{ host: hostOf(tenantA), http: PATHS }],
    });
    const error = await createAsDev(tenantA, ns(), body);
    expect(error).toContain('Ingress catch-all: spec.defaultBackend is not allowed');
  });

  it('refuses a tls host it does not hold, even beside a rule for its own', async () => {
    const body = ingress('tls-steal', {
      rules: [{ host: hostOf(tenantA), http: PATHS }],
      tls: [{ hosts: [hostOf(tenantA)] }, { hosts: [hostOf(tenantB)], secretName: 'x' }],
    });
    const error = await createAsDev(tenantA, ns(), body);
    expect(error).toContain(`Ingress tls-steal: host ${hostOf(tenantB)} is not one this tenant holds`);
  });

  it('allows an Ingress for its own hosts, tls included', async () => {
    const body = ingress('own', {
      rules: [
        { host: hostOf(tenantA), http: PATHS },
        { host: `www.${hostOf(tenantA)}`, http: PATHS },
      ],
      tls: [{ hosts: [hostOf(tenantA), `www.${hostOf(tenantA)}`], secretName: 'own-tls' }],
    });
    expect(await createAsDev(tenantA, ns(), body)).toBeUndefined();
  });

  it('refuses an HTTPRoute without hostnames, which would take every host of its listener', async () => {
    const error = await createAsDev(tenantA, ns(), httpRoute('no-hostnames'));
    expect(error).toContain("ValidatingAdmissionPolicy 'landlord-tenant-routes'");
    expect(error).toContain('HTTPRoute no-hostnames: spec.hostnames must list the hosts it serves');
  });

  it("refuses an HTTPRoute for another tenant's host or a wildcard, and allows one for its own", async () => {
    expect(await createAsDev(tenantA, ns(), httpRoute('steal-route', [hostOf(tenantB)]))).toContain(
      `HTTPRoute steal-route: hostname ${hostOf(tenantB)} is not one this tenant holds`,
    );
    expect(await createAsDev(tenantA, ns(), httpRoute('wild-route', ['*.apps.example.com']))).toContain(
      'HTTPRoute wild-route: wildcard hostname *.apps.example.com is not allowed',
    );
    expect(await createAsDev(tenantA, ns(), httpRoute('own-route', [hostOf(tenantA)]))).toBeUndefined();
  });

  it('holds a GRPCRoute to the same rules', async () => {
    const grpc = (name: string, hostnames?: string[]): object => ({
      ...httpRoute(name, hostnames),
      kind: 'GRPCRoute',
    });
    expect(await createAsDev(tenantA, ns(), grpc('grpc-any'))).toContain(
      'GRPCRoute grpc-any: spec.hostnames must list the hosts it serves',
    );
    expect(await createAsDev(tenantA, ns(), grpc('grpc-own', [hostOf(tenantA)]))).toBeUndefined();
  });

  it('refuses a TCPRoute, which has no hostnames at all', async () => {
    const error = await createAsDev(tenantA, ns(), tcpRoute('db'));
    expect(error).toContain("ValidatingAdmissionPolicy 'landlord-tenant-hostless-routes'");
    expect(error).toContain('TCPRoute db is not allowed in a tenant namespace');
  });

  it('turns a Service that edits its type to NodePort away', async () => {
    const error = await kubectl(
      'patch',
      'service',
      'web',
      '-n',
      ns(),
      '--type=merge',
      '-p',
      '{"spec":{"type":"NodePort"}}',
      ...asDevOf(tenantA),
    ).then(
      () => undefined,
      (err: { stderr?: string }) => err.stderr,
    );
    expect(error).toContain('Service web: type NodePort is not allowed');
  });
});

describe('a namespace whose tenant holds no host', () => {
  it('refuses an Ingress for any host, saying it holds none', async () => {
    const error = await createAsDev(tenantC, namespaces[tenantC]!, ingressFor('any', hostOf(tenantC)));
    expect(error).toContain(
      `Ingress any: host ${hostOf(tenantC)} is not one this tenant holds (namespace annotation landlord.dev/hosts: none)`,
    );
  });

  it('lets an Ingress made while the host was held be relabelled after it goes, but not edited', async () => {
    const ns = namespaces[tenantA]!;
    const custom = `www.${hostOf(tenantA)}`;
    expect(await createAsDev(tenantA, ns, ingressFor('was-held', custom))).toBeUndefined();
    // The row lets the custom host go: the operator takes it off the namespace's annotation.
    await updateRow(table, tenantA, { hosts: [] });
    await waitUntil(
      `${custom} to leave the annotation of ${ns}`,
      async () => {
        const annotations = (await core.readNamespace({ name: ns })).metadata?.annotations;
        return annotations?.[HOSTS_ANNOTATION] === hostOf(tenantA) || undefined;
      },
      { timeoutMs: 60_000 },
    );
    // An update that leaves spec alone (a label, a controller removing its finalizer) passes ...
    await kubectl('label', 'ingress', 'was-held', '-n', ns, 'team=a', ...asDevOf(tenantA));
    // ... and one that changes it meets every rule again.
    const error = await kubectl(
      'patch',
      'ingress',
      'was-held',
      '-n',
      ns,
      '--type=json',
      '-p',
      '[{"op":"replace","path":"/spec/ingressClassName","value":"other"}]',
      ...asDevOf(tenantA),
    ).then(
      () => undefined,
      (err: { stderr?: string }) => err.stderr,
    );
    expect(error).toContain(`Ingress was-held: host ${custom} is not one this tenant holds`);
    // Deleting is always allowed.
    await kubectl('delete', 'ingress', 'was-held', '-n', ns, ...asDevOf(tenantA));
  });
});

describe('in a namespace that is not a tenant’s, the same user', () => {
  it('may create all of it: the rules touch tenant namespaces only', async () => {
    const bodies = [
      service('np', { type: 'NodePort' }),
      service('lb', { type: 'LoadBalancer' }),
      service('ext', { externalIPs: ['203.0.113.7'] }),
      ingressFor('other-host', hostOf(tenantB)),
      ingress('no-host', { rules: [{ http: PATHS }] }),
      ingressFor('wild', '*.apps.example.com'),
      httpRoute('no-hostnames'),
    ];
    for (const body of bodies) expect(await createAsDev(tenantA, plain, body)).toBeUndefined();
  });
});
