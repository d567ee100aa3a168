// A TenantClass's expose block against the real control plane (issue 40): a tenant of an Ingress
// class gets a ClusterIP Service whose selector the EndpointSlice controller resolves to the
// tenant's kwok pods, an Ingress for <name>.apps.example.com, status.url and the landlord.dev/hosts
// annotation on its namespace. A gateway class on a cluster without the Gateway API is refused with
// GatewayApiMissing while the Ingress tenant stays Ready; once the pinned Gateway API CRDs
// (harness/gateway-api, v1.6.3) are installed and the operator restarted, the tenant gets an
// HTTPRoute that the CRD's own schema and CEL rules admit. A Shared class with expose and a host
// outside allowedDomains are refused with their reasons. A port edit of the class rewrites only the
// Services; and once converged, a resync writes nothing. One operator at a time, its classes,
// Tenants and the CRDs deleted in afterAll. The control plane may come from a file that installed
// the CRDs (harness/e2e-slots.ts hands slots on), so beforeAll removes them first.
import type { V1Ingress, V1Namespace, V1Service } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONDITION, HOSTS_ANNOTATION, LABEL, type Tenant } from '../api/tenant.js';
import type { ClassExpose, TenantClassSpec } from '../api/tenantclass.js';
import { installGatewayApiCrds, removeGatewayApiCrds } from '../harness/gateway-api.js';
import { waitUntil } from '../harness/wait.js';
import { EXPOSE_NAMES } from '../operator/exposure/objects.js';
import { clients, envValue, uniqueName } from './support/env.js';
import { createClass, deleteClass, patchClass, ready, refusedWith, tenantOf } from './support/escape.js';
import { kubectl } from './support/kubectl.js';
import {
  componentEnv,
  OPERATOR_WRITE_RESOURCES,
  startLandlord,
  verbDelta,
  writeRequests,
  writesByVerb,
  type LandlordProcess,
} from './support/landlord.js';
import { createTenant, deleteTenant, readTenant } from './support/tenants.js';

const { core, custom } = clients();
const id = uniqueName('expose');
const DOMAIN = 'apps.example.com';
const ingressClass = `${id}-ingress`;
const gatewayClass = `${id}-gateway`;
const sharedClass = `${id}-shared`;
const strayClass = `${id}-stray`;
const web = `${id}-web`;
const routed = `${id}-routed`;
const shared = `${id}-shared-t`;
const stray = `${id}-stray-t`;
const RESYNC_SECONDS = 10;
/** What the operator writes for an exposed tenant: its objects, status and Events. */
const WRITES = [...OPERATOR_WRITE_RESOURCES, 'namespaces', 'services', 'ingresses', 'httproutes'];
let operator: LandlordProcess;

const INGRESS: ClassExpose = { port: 8080, host: `{name}.${DOMAIN}`, ingressClassName: 'nginx' };
const GATEWAY: ClassExpose = {
  port: 8080,
  host: `{name}.${DOMAIN}`,
  gateway: { namespace: 'gateways', name: 'public', sectionName: 'https' },
  tls: { secretName: 'apps-wildcard-tls' },
};
const perTenant = (expose: ClassExpose, allowedDomains = [DOMAIN]): TenantClassSpec => ({
  namespace: { mode: 'PerTenant', nameTemplate: '{name}' },
  rbac: [{ group: '{name}-devs', clusterRole: 'edit' }],
  expose,
  allowedDomains,
});

const startOperator = async (): Promise<LandlordProcess> => {
  const started = startLandlord(
    'operator',
    componentEnv({ LANDLORD_LOG_LEVEL: 'info', LANDLORD_OPERATOR_RESYNC_SECONDS: String(RESYNC_SECONDS) }),
  );
  await started.ready();
  return started;
};

beforeAll(async () => {
  await createClass(custom, ingressClass, perTenant(INGRESS));
  await createClass(custom, gatewayClass, perTenant(GATEWAY));
  await createClass(custom, sharedClass, {
    namespace: { mode: 'Shared' },
    expose: INGRESS,
    allowedDomains: [DOMAIN],
  });
  await createClass(custom, strayClass, perTenant({ ...INGRESS, host: '{name}.example.net' }));
  // Started where the Gateway API CRDs do not exist: the gateway class must wait, and only it.
  await removeGatewayApiCrds(envValue('KUBECONFIG'));
  operator = await startOperator();
  for (const [name, className] of [
    [web, ingressClass],
    [routed, gatewayClass],
    [shared, sharedClass],
    [stray, strayClass],
  ] as const) {
    await createTenant(custom, tenantOf(name, className));
  }
  await ready(custom, web);
});

afterAll(async () => {
  // Undefined when it failed to start (the error is the suite's).
  if ((operator as LandlordProcess | undefined) !== undefined) expect(await operator.stop()).toBe(0);
  await Promise.all([web, routed, shared, stray].map((n) => deleteTenant(custom, n).catch(() => undefined)));
  for (const name of [ingressClass, gatewayClass, sharedClass, strayClass]) await deleteClass(custom, name);
  await removeGatewayApiCrds(envValue('KUBECONFIG'));
});

const service = (namespace: string): Promise<V1Service> =>
  core.readNamespacedService({ name: EXPOSE_NAMES.service, namespace });

async function json<T>(...args: string[]): Promise<T> {
  return JSON.parse(await kubectl(...args, '-o', 'json')) as T;
}

/** The addresses of the Service's EndpointSlices, once they list `count` of them. */
function endpointAddresses(namespace: string, count: number): Promise<string[]> {
  return waitUntil(
    `the EndpointSlices of ${namespace}/${EXPOSE_NAMES.service} to list ${count} addresses`,
    async () => {
      const slices = await json<{ items: { endpoints?: { addresses: string[] }[] }[] }>(
        'get',
        'endpointslices',
        '-n',
        namespace,
        '-l',
        `kubernetes.io/service-name=${EXPOSE_NAMES.service}`,
      );
      const addresses = slices.items.flatMap((s) => (s.endpoints ?? []).flatMap((e) => e.addresses)).sort();
      return addresses.length === count ? addresses : undefined;
    },
    { timeoutMs: 90_000, intervalMs: 500 },
  );
}

/** The IPs of the tenant's running pods, once `count` of them have one. */
function podIps(namespace: string, count: number): Promise<string[]> {
  return waitUntil(
    `${count} pods with an IP in ${namespace}`,
    async () => {
      const pods = (await core.listNamespacedPod({ namespace })).items;
      const ips = pods.flatMap((p) => (p.status?.podIP === undefined ? [] : [p.status.podIP])).sort();
      return ips.length === count ? ips : undefined;
    },
    { timeoutMs: 90_000, intervalMs: 500 },
  );
}

describe('a tenant of an Ingress class', () => {
  it("gets a ClusterIP Service whose EndpointSlice lists exactly the tenant's pod IPs", async () => {
    const svc = await service(web);
    expect(svc.spec?.type).toBe('ClusterIP');
    expect(svc.spec?.selector).toEqual({ [LABEL.exposed]: 'app' });
    expect(svc.spec?.ports?.map((p) => [p.port, p.targetPort])).toEqual([[80, 8080]]);
    expect(svc.metadata?.ownerReferences?.[0]).toMatchObject({ kind: 'Tenant', name: web, controller: true });
    const deployment = await json<{ spec: { replicas: number } }>(
      'get',
      'deployment',
      '-n',
      web,
      `${web}-app`,
    );
    const ips = await podIps(web, deployment.spec.replicas);
    expect(await endpointAddresses(web, ips.length)).toEqual(ips);
  });

  it('gets an Ingress of the class for <name>.apps.example.com, status.url and the hosts annotation', async () => {
    const ingress = await json<V1Ingress>('get', 'ingress', '-n', web, EXPOSE_NAMES.route);
    expect(ingress.spec?.ingressClassName).toBe('nginx');
    expect(ingress.spec?.rules?.map((r) => r.host)).toEqual([`${web}.${DOMAIN}`]);
    expect(ingress.spec?.rules?.[0]?.http?.paths[0]?.backend.service).toEqual({
      name: EXPOSE_NAMES.service,
      port: { number: 80 },
    });
    const tenant = await readTenant(custom, web);
    expect(tenant.status?.url).toBe(`http://${web}.${DOMAIN}`);
    const ns: V1Namespace = await core.readNamespace({ name: web });
    expect(ns.metadata?.annotations?.[HOSTS_ANNOTATION]).toBe(`${web}.${DOMAIN}`);
    // The URL column of `kubectl get tn -o wide`.
    const wide = await kubectl('get', 'tn', web, '-o', 'wide');
    expect(wide.split('\n')[0]).toContain('URL');
    expect(wide).toContain(`http://${web}.${DOMAIN}`);
  });
});

describe('classes that cannot expose', () => {
  it('a Shared class with expose is refused on its Tenants with ExposeNotAllowed', async () => {
    expect(await refusedWith(custom, shared, 'ExposeNotAllowed')).toContain(`TenantClass ${sharedClass}`);
  });

  it('a host template outside allowedDomains is refused with HostNotAllowed, and nothing is made', async () => {
    const message = await refusedWith(custom, stray, 'HostNotAllowed');
    expect(message).toContain(`"${stray}.example.net"`);
    expect(await core.readNamespace({ name: stray }).catch(() => undefined)).toBeUndefined();
  });
});

describe('a tenant of a gateway class', () => {
  it('waits with GatewayApiMissing where HTTPRoutes are not served, while the Ingress tenant stays Ready', async () => {
    expect(await refusedWith(custom, routed, 'GatewayApiMissing')).toContain('Gateway API CRDs');
    const tenant = await readTenant(custom, web);
    expect(tenant.status?.conditions?.find((c) => c.type === CONDITION.ready)?.status).toBe('True');
  });

  it('gets an HTTPRoute the Gateway API CRDs admit, once they are installed and the operator restarted', async () => {
    await installGatewayApiCrds(envValue('KUBECONFIG'));
    expect(await operator.stop()).toBe(0);
    operator = await startOperator();
    const tenant: Tenant = await ready(custom, routed);
    expect(tenant.status?.url).toBe(`https://${routed}.${DOMAIN}`);
    const route = await json<{
      spec: { parentRefs: unknown[]; hostnames: string[]; rules: { backendRefs: unknown[] }[] };
    }>('get', 'httproutes.gateway.networking.k8s.io', '-n', routed, EXPOSE_NAMES.route);
    // The CRD's defaults filled in: proof its own schema handled the route.
    expect(route.spec.parentRefs).toEqual([
      {
        group: 'gateway.networking.k8s.io',
        kind: 'Gateway',
        namespace: 'gateways',
        name: 'public',
        sectionName: 'https',
      },
    ]);
    expect(route.spec.hostnames).toEqual([`${routed}.${DOMAIN}`]);
    expect(route.spec.rules[0]?.backendRefs).toEqual([
      { group: '', kind: 'Service', name: EXPOSE_NAMES.service, port: 80, weight: 1 },
    ]);
    const ns = await core.readNamespace({ name: routed });
    expect(ns.metadata?.annotations?.[HOSTS_ANNOTATION]).toBe(`${routed}.${DOMAIN}`);
  });
});

describe('writes', () => {
  it('a converged operator writes nothing over a resync', async () => {
    await ready(custom, routed);
    // Let the last status writes and Events of the restart land first.
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    const before = await writeRequests(operator, WRITES);
    await new Promise((resolve) => setTimeout(resolve, RESYNC_SECONDS * 1000 + 2_000));
    expect(await writeRequests(operator, WRITES)).toBe(before);
  });

  it('a port edit of the class rewrites the Services only: no Ingress, Deployment or namespace write', async () => {
    const before = await writeRequests(operator, ['ingresses', 'deployments', 'namespaces', 'configmaps']);
    const servicesBefore = await writesByVerb(operator, 'services');
    await patchClass(custom, ingressClass, 'expose', { ...INGRESS, port: 9090 });
    await waitUntil(
      'the Service to send port 80 to 9090',
      async () => (await service(web)).spec?.ports?.[0]?.targetPort === 9090,
      { timeoutMs: 60_000, intervalMs: 500 },
    );
    await new Promise((resolve) => setTimeout(resolve, RESYNC_SECONDS * 1000 + 1_000));
    // One apply; the Service's first change since its create also hands the create's fields to the
    // operator's Apply entry (one JSON patch).
    expect(verbDelta(servicesBefore, await writesByVerb(operator, 'services'))).toEqual({
      apply: 1,
      patch: 1,
    });
    expect(await writeRequests(operator, ['ingresses', 'deployments', 'namespaces', 'configmaps'])).toBe(
      before,
    );
  });
});
