// Several services per tenant (issue 58) against the real control plane, from the table through
// sync and the operator: a row whose spec is a JSON array of two Deployments converges to both,
// each reachable through a Service whose EndpointSlices list exactly its own pods (and the class's
// route Service only the first's); status.workloads and `kubectl describe` list them. An edit of
// one rolls only that Deployment; dropping one from the list deletes it and its Service; a
// seed-format row in the same class keeps the Tenant it always had and costs no write on resync;
// a duplicate name and too many Deployments are refused with Synced=False, the running services
// untouched. One sync and one operator, its class, Tenants and table removed in afterAll.
import type { V1Deployment } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONDITION, type Tenant } from '../api/tenant.js';
import type { ClassExpose } from '../api/tenantclass.js';
import { waitUntil } from '../harness/wait.js';
import { EXPOSE_NAMES } from '../operator/exposure/objects.js';
import { clients, uniqueName } from './support/env.js';
import { createClass, deleteClass } from './support/escape.js';
import { kubectl } from './support/kubectl.js';
import { componentEnv, startLandlord, type LandlordProcess } from './support/landlord.js';
import {
  createTable,
  deleteSyncedTenants,
  moreScans,
  putRow,
  readTenant,
  startSync,
  syncedCondition,
  updateRow,
} from './support/sync.js';

const { apps, core, custom } = clients();
const table = uniqueName('multi');
const className = `${table}-class`;
const shop = uniqueName('shop');
const seed = uniqueName('seed');
const DOMAIN = 'apps.example.com';
const EXPOSE: ClassExpose = { port: 8080, host: `{name}.${DOMAIN}`, ingressClassName: 'nginx' };
let sync: LandlordProcess;
let operator: LandlordProcess;

function deployment(name: string, port: number, replicas: number, image = 'nginx:1.27'): V1Deployment {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    // Written for "default", as the seed format is; the class places it in the tenant's namespace.
    metadata: { name, namespace: 'default' },
    spec: {
      replicas,
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name } },
        spec: { containers: [{ name: 'app', image, ports: [{ containerPort: port }] }] },
      },
    },
  };
}

const web = (image?: string): V1Deployment => deployment('web', 8080, 2, image);
const worker = (image?: string): V1Deployment => deployment('worker', 9000, 1, image);
const rowOf = (name: string, spec: unknown): Record<string, unknown> => ({
  name,
  class: className,
  spec: JSON.stringify(spec),
});

const readDeployment = (name: string): Promise<V1Deployment> =>
  apps.readNamespacedDeployment({ name, namespace: shop });

const readyOf = (t: Tenant | undefined) => t?.status?.conditions?.find((c) => c.type === CONDITION.ready);

/** The Tenant once Ready=True for its current generation and Synced=True, checked by `test`. */
async function readyTenant(name: string, test: (t: Tenant) => boolean = () => true): Promise<Tenant> {
  return waitForReady(name, test).catch(async (err: unknown) => {
    // What the Tenant said last, so a timeout says why.
    const t = await readTenant(name);
    throw new Error(`${String(err)}; status: ${JSON.stringify(t?.status?.conditions)}`);
  });
}

function waitForReady(name: string, test: (t: Tenant) => boolean): Promise<Tenant> {
  return waitUntil(
    `Tenant ${name} Ready and Synced`,
    async () => {
      const t = await readTenant(name);
      const ready = readyOf(t);
      const current = ready?.observedGeneration === t?.metadata.generation;
      return ready?.status === 'True' && current && syncedCondition(t)?.status === 'True' && test(t!)
        ? t
        : undefined;
    },
    { timeoutMs: 120_000 },
  );
}

/** The IPs of the pods `app=<app>` in the tenant's namespace, once `count` have one. */
function podIps(app: string, count: number): Promise<string[]> {
  return waitUntil(
    `${count} ${app} pods with an IP`,
    async () => {
      const pods = (await core.listNamespacedPod({ namespace: shop, labelSelector: `app=${app}` })).items;
      const ips = pods.flatMap((p) => (p.status?.podIP === undefined ? [] : [p.status.podIP])).sort();
      return ips.length === count ? ips : undefined;
    },
    { timeoutMs: 90_000, intervalMs: 500 },
  );
}

/** The addresses the EndpointSlices of Service `service` list, once they equal `expected`. */
function endpointsBecome(service: string, expected: string[]): Promise<string[]> {
  return waitUntil(
    `the EndpointSlices of ${shop}/${service} to list ${expected.join(', ')}`,
    async () => {
      const slices = JSON.parse(
        await kubectl(
          'get',
          'endpointslices',
          '-n',
          shop,
          '-l',
          `kubernetes.io/service-name=${service}`,
          '-o',
          'json',
        ),
      ) as { items: { endpoints?: { addresses: string[] }[] }[] };
      const addresses = slices.items.flatMap((s) => (s.endpoints ?? []).flatMap((e) => e.addresses)).sort();
      return JSON.stringify(addresses) === JSON.stringify(expected) ? addresses : undefined;
    },
    { timeoutMs: 90_000, intervalMs: 500 },
  );
}

const gone = (read: () => Promise<unknown>) => async (): Promise<boolean> =>
  read().then(
    () => false,
    (err: { code?: number }) => err.code === 404,
  );

beforeAll(async () => {
  await createTable(table);
  await createClass(custom, className, {
    namespace: { mode: 'PerTenant', nameTemplate: '{name}' },
    expose: EXPOSE,
    allowedDomains: [DOMAIN],
  });
  sync = startSync(table, { LANDLORD_SYNC_RESYNC_SECONDS: '5' });
  operator = startLandlord('operator', componentEnv({ LANDLORD_OPERATOR_RESYNC_SECONDS: '10' }));
  await Promise.all([sync.ready(), operator.ready()]);
});

afterAll(async () => {
  if ((sync as LandlordProcess | undefined) !== undefined) expect(await sync.stop()).toBe(0);
  if ((operator as LandlordProcess | undefined) !== undefined) expect(await operator.stop()).toBe(0);
  await deleteSyncedTenants(table);
  await deleteClass(custom, className);
});

describe('a row of two Deployments', () => {
  it('converges to both, listed in status.workloads and kubectl describe', async () => {
    await putRow(table, rowOf(shop, [web(), worker()]));
    const tenant = await readyTenant(
      shop,
      (t) => t.status?.workloads?.every((w) => w.available === 'True') ?? false,
    );
    expect(tenant.spec?.deployment).toBeUndefined();
    expect(tenant.spec?.deployments?.map((d) => d.metadata?.name)).toEqual(['web', 'worker']);
    expect(tenant.status?.workloads).toEqual([
      { name: `${shop}/web`, replicas: 2, readyReplicas: 2, available: 'True' },
      { name: `${shop}/worker`, replicas: 1, readyReplicas: 1, available: 'True' },
    ]);
    expect(tenant.status?.replicaSummary).toBe('3/3');
    expect(tenant.status?.deployment).toBeUndefined();
    const described = await kubectl('describe', 'tenant', shop);
    expect(described).toContain('Workloads:');
    expect(described).toContain(`${shop}/worker`);
    for (const name of ['web', 'worker']) {
      const d = await readDeployment(name);
      expect(d.metadata?.ownerReferences?.[0]).toMatchObject({
        kind: 'Tenant',
        name: shop,
        controller: true,
      });
    }
  });

  it("reaches each service through its Service: the EndpointSlices list exactly that Deployment's pods", async () => {
    const webIps = await podIps('web', 2);
    const workerIps = await podIps('worker', 1);
    expect(webIps.filter((ip) => workerIps.includes(ip))).toEqual([]);
    await endpointsBecome('web', webIps);
    await endpointsBecome('worker', workerIps);
    // The class's route reaches the first Deployment (expose.deployment is not set), only it.
    await endpointsBecome(EXPOSE_NAMES.service, webIps);
    const workerService = await core.readNamespacedService({ name: 'worker', namespace: shop });
    expect(workerService.spec?.type).toBe('ClusterIP');
    expect(workerService.spec?.ports?.map((p) => [p.port, p.targetPort])).toEqual([[9000, 9000]]);
  });

  it('rolls only the Deployment whose entry changed', async () => {
    const before = { web: await readDeployment('web'), worker: await readDeployment('worker') };
    await updateRow(table, shop, { spec: JSON.stringify([web(), worker('nginx:1.28')]) });
    await waitUntil(
      'the worker Deployment to carry the new image',
      async () => (await readDeployment('worker')).spec?.template.spec?.containers[0]?.image === 'nginx:1.28',
      { timeoutMs: 60_000 },
    );
    await readyTenant(shop, (t) => (t.metadata.generation ?? 0) > 1);
    const after = await readDeployment('web');
    expect(after.metadata?.generation).toBe(before.web.metadata?.generation);
    expect(after.metadata?.resourceVersion).toBe(before.web.metadata?.resourceVersion);
    expect((await readDeployment('worker')).metadata?.generation).toBe(
      (before.worker.metadata?.generation ?? 0) + 1,
    );
  });

  it('deletes a Deployment dropped from the list, and its Service; the other stays as it was', async () => {
    const kept = await readDeployment('web');
    await updateRow(table, shop, { spec: JSON.stringify([web()]) });
    await waitUntil(
      'the worker Deployment to be deleted',
      gone(() => readDeployment('worker')),
      {
        timeoutMs: 60_000,
      },
    );
    await waitUntil(
      'the worker Service to be deleted',
      gone(() => core.readNamespacedService({ name: 'worker', namespace: shop })),
      { timeoutMs: 60_000 },
    );
    const tenant = await readyTenant(shop, (t) => t.status?.workloads?.length === 1);
    expect(tenant.status?.workloads?.map((w) => w.name)).toEqual([`${shop}/web`]);
    expect((await readDeployment('web')).metadata?.generation).toBe(kept.metadata?.generation);
  });

  it.each<[string, unknown, RegExp]>([
    [
      'a duplicate name',
      [web(), worker(), deployment('web', 7000, 1)],
      /spec\[2\]\.metadata\.name: "web" is spec\[0\]'s name too; each Deployment needs its own name/,
    ],
    [
      'too many Deployments',
      Array.from({ length: 6 }, (_, i) => deployment(`svc-${i}`, 8000 + i, 1)),
      /spec: 6 Deployments, more than the 5 allowed \(maxDeployments/,
    ],
  ])('refuses %s with Synced=False, the running services untouched', async (_, spec, message) => {
    const before = await readDeployment('web');
    await updateRow(table, shop, { spec: JSON.stringify(spec) });
    const refused = await waitUntil(
      'Synced=False',
      async () => {
        const t = await readTenant(shop);
        return syncedCondition(t)?.status === 'False' && message.test(syncedCondition(t)?.message ?? '')
          ? t
          : undefined;
      },
      { timeoutMs: 30_000 },
    );
    expect(syncedCondition(refused)?.reason).toBe('InvalidRecord');
    expect(readyOf(refused)?.status).toBe('True');
    expect((await readDeployment('web')).metadata?.resourceVersion).toBe(before.metadata?.resourceVersion);
  });
});

describe('a seed-format row in the same class', () => {
  it('keeps the Tenant it always had: spec.deployment, no workloads, no Service per Deployment', async () => {
    await putRow(table, rowOf(seed, web()));
    const tenant = await readyTenant(seed);
    expect(Object.keys(tenant.spec ?? {}).sort()).toEqual(['class', 'configMaps', 'deployment', 'state']);
    expect(tenant.status?.deployment).toBe(`${seed}/web`);
    expect(tenant.status?.workloads).toBeUndefined();
    const services = (await core.listNamespacedService({ namespace: seed })).items.map(
      (s) => s.metadata?.name,
    );
    expect(services).toEqual([EXPOSE_NAMES.service]);
  });

  it('costs no write once converged: resyncs leave the Tenant as it is', async () => {
    const before = (await readTenant(seed))?.metadata.resourceVersion;
    await moreScans(sync, 2);
    // Two operator resyncs too (10 s each).
    await new Promise((resolve) => setTimeout(resolve, 21_000));
    expect((await readTenant(seed))?.metadata.resourceVersion).toBe(before);
  });
});
