// A class's services.headless against the real control plane: a tenant of two Deployments under an
// exposing class gets its three Services (the route's and each Deployment's) headless, with no
// address taken from the cluster's Service range, and the route's Service still reaches the first
// Deployment's pods through its EndpointSlices. Turning the class's field off replaces each
// Service (a new uid, an allocated ClusterIP, a Replaced Event), since spec.clusterIP is immutable,
// and touches nothing else: the Deployments keep their generation (no pod restarts) and the
// Ingress its resourceVersion; a resync after that replaces nothing again. One operator; its
// class and Tenant are removed in afterAll.
import { DiscoveryV1Api, NetworkingV1Api, type V1Deployment, type V1Service } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Tenant } from '../api/tenant.js';
import { waitUntil } from '../harness/wait.js';
import { EXPOSE_NAMES } from '../operator/exposure/objects.js';
import { OPERATOR_EVENT } from '../operator/reasons.js';
import { clients, uniqueName } from './support/env.js';
import { createClass, deleteClass, patchClass, ready } from './support/escape.js';
import { componentEnv, startLandlord, type LandlordProcess } from './support/landlord.js';
import { eventsWritten } from './support/sync.js';
import { createTenant, deleteTenant, deploymentManifest, tenantManifest } from './support/tenants.js';

const { apps, core, custom, kc } = clients();
const networking = kc.makeApiClient(NetworkingV1Api);
const discovery = kc.makeApiClient(DiscoveryV1Api);
const id = uniqueName('headless');
const CLASS = `${id}-class`;
const TENANT = id;
const DOMAIN = 'apps.example.com';
const SERVICES = [EXPOSE_NAMES.service, 'web', 'worker'];
/** The operator's shortest resync: the test waits two of them to see nothing replaced twice. */
const RESYNC_SECONDS = 10;
let operator: LandlordProcess;

/** A service of the tenant: pods app=<name> listening on `port`, written for "default". */
function deployment(name: string, port: number): V1Deployment {
  const d = deploymentManifest(name, 'default');
  d.spec!.template.spec!.containers[0]!.ports = [{ containerPort: port }];
  return d;
}

function tenant(): Tenant {
  const t = tenantManifest(TENANT, 'default');
  const { configMaps } = t.spec!;
  t.spec = { class: CLASS, deployments: [deployment('web', 8080), deployment('worker', 9000)], configMaps };
  return t;
}

const readService = (name: string): Promise<V1Service> =>
  core.readNamespacedService({ name, namespace: TENANT });
const services = (): Promise<V1Service[]> => Promise.all(SERVICES.map(readService));

/** The three Services once each exists and `test` holds for every one. */
function servicesWhen(what: string, test: (s: V1Service) => boolean): Promise<V1Service[]> {
  return waitUntil(
    `the Services of ${TENANT} ${what}`,
    async () => {
      const found = await services().catch(() => undefined);
      return found?.every(test) === true ? found : undefined;
    },
    { timeoutMs: 60_000, intervalMs: 500 },
  );
}

/** The addresses the EndpointSlices of `service` list, once there are `count`. */
function endpointAddresses(service: string, count: number): Promise<string[]> {
  return waitUntil(
    `${count} address(es) behind ${TENANT}/${service}`,
    async () => {
      const list = await discovery.listNamespacedEndpointSlice({
        namespace: TENANT,
        labelSelector: `kubernetes.io/service-name=${service}`,
      });
      const addresses = list.items.flatMap((s) => (s.endpoints ?? []).flatMap((e) => e.addresses)).sort();
      return addresses.length === count ? addresses : undefined;
    },
    { timeoutMs: 90_000, intervalMs: 500 },
  );
}

const podIps = async (app: string): Promise<string[]> =>
  (await core.listNamespacedPod({ namespace: TENANT, labelSelector: `app=${app}` })).items
    .flatMap((p) => (p.status?.podIP === undefined ? [] : [p.status.podIP]))
    .sort();

beforeAll(async () => {
  await createClass(custom, CLASS, {
    namespace: { mode: 'PerTenant', nameTemplate: '{name}' },
    expose: { port: 8080, host: `{name}.${DOMAIN}`, ingressClassName: 'nginx' },
    allowedDomains: [DOMAIN],
    services: { headless: true },
  });
  operator = startLandlord(
    'operator',
    componentEnv({ LANDLORD_LOG_LEVEL: 'info', LANDLORD_OPERATOR_RESYNC_SECONDS: String(RESYNC_SECONDS) }),
  );
  await operator.ready();
  await createTenant(custom, tenant());
});

afterAll(async () => {
  await deleteTenant(custom, TENANT).catch(() => undefined);
  expect(await operator?.stop()).toBe(0);
  await deleteClass(custom, CLASS);
});

describe('a class whose Services are headless', () => {
  it('makes every Service of the tenant with clusterIP None, the route still reaching the first Deployment', async () => {
    await ready(custom, TENANT);
    const made = await servicesWhen('made', () => true);
    expect(made.map((s) => s.spec?.clusterIP)).toEqual(['None', 'None', 'None']);
    expect(made.map((s) => s.spec?.clusterIPs)).toEqual([['None'], ['None'], ['None']]);
    // No IPAddress names these Services: nothing was taken from the cluster's Service range.
    const addresses = await networking.listIPAddress();
    const parents = addresses.items.map((a) => `${a.spec.parentRef.namespace}/${a.spec.parentRef.name}`);
    expect(parents.filter((p) => p.startsWith(`${TENANT}/`))).toEqual([]);
    const route = await networking.readNamespacedIngress({ name: EXPOSE_NAMES.route, namespace: TENANT });
    expect(route.spec?.rules?.[0]?.http?.paths[0]?.backend.service?.name).toBe(EXPOSE_NAMES.service);
    const web = await waitUntil(
      'a web pod with an IP',
      async () => {
        const ips = await podIps('web');
        return ips.length === 1 ? ips : undefined;
      },
      { timeoutMs: 90_000, intervalMs: 500 },
    );
    expect(await endpointAddresses(EXPOSE_NAMES.service, 1)).toEqual(web);
  });

  it('replaces each Service when the class turns it off, and touches nothing else', async () => {
    const before = await services();
    const deployments = await Promise.all(
      ['web', 'worker'].map((name) => apps.readNamespacedDeployment({ name, namespace: TENANT })),
    );
    const route = await networking.readNamespacedIngress({ name: EXPOSE_NAMES.route, namespace: TENANT });
    await patchClass(custom, CLASS, 'services', { headless: false });
    const after = await servicesWhen('allocated an address', (s) => (s.spec?.clusterIP ?? 'None') !== 'None');
    after.forEach((s, i) => expect(s.metadata?.uid).not.toBe(before[i]!.metadata?.uid));
    const replaced = (await eventsWritten(TENANT, OPERATOR_EVENT.replaced)).map((e) => e.message).join('\n');
    for (const name of SERVICES) expect(replaced).toContain(`Service ${TENANT}/${name}`);
    for (const d of deployments) {
      const now = await apps.readNamespacedDeployment({ name: d.metadata!.name!, namespace: TENANT });
      expect(now.metadata?.generation).toBe(d.metadata?.generation);
    }
    const routeNow = await networking.readNamespacedIngress({ name: EXPOSE_NAMES.route, namespace: TENANT });
    expect(routeNow.metadata?.resourceVersion).toBe(route.metadata?.resourceVersion);
    // Two resyncs later the Services are the same objects: nothing is replaced twice.
    await new Promise((resolve) => setTimeout(resolve, 2 * RESYNC_SECONDS * 1000 + 1000));
    expect((await services()).map((s) => s.metadata?.uid)).toEqual(after.map((s) => s.metadata?.uid));
  });
});
