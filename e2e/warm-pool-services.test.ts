// A warm pool whose members run several Deployments (warmPool.deployments, issue 58: "members run
// the class's list"), against the real control plane: each member runs every Deployment of the
// class's list before any tenant exists, and is Ready only once all of them are; a new Tenant whose
// spec.deployments asks for the same names and pod templates claims one and takes them all over
// without a new pod or ReplicaSet (same pod UIDs), each Deployment then owned by it with its
// Service, the route reaching the one the class's expose.deployment names; the pool refills. One
// operator; the class and Tenants removed in afterAll.
import type { V1Deployment } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_VERSION, CONDITION, KIND, LABEL, type Tenant } from '../api/tenant.js';
import type { TenantClassSpec } from '../api/tenantclass.js';
import { waitUntil } from '../harness/wait.js';
import { EXPOSE_NAMES } from '../operator/exposure/objects.js';
import { clients, uniqueName } from './support/env.js';
import { componentEnv, startLandlord, type LandlordProcess } from './support/landlord.js';
import { eventsWritten } from './support/sync.js';
import { createTenant, deleteTenant, waitForCondition } from './support/tenants.js';
import { CLASSES, createClass } from './support/warm-pool.js';

const { core, apps, custom } = clients();
const id = uniqueName('wps');
const className = `${id}-class`;
const DOMAIN = 'apps.example.com';
const tenants: string[] = [];
let operator: LandlordProcess;

/** A service of the application: pods app=<name>, listening on `port`; no namespace, as a pool's. */
function service(name: string, port: number, namespace?: string): V1Deployment {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: namespace === undefined ? { name } : { name, namespace },
    spec: {
      replicas: 1,
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name } },
        spec: { containers: [{ name: 'app', image: 'nginx:1.27', ports: [{ containerPort: port }] }] },
      },
    },
  };
}

const SERVICES: [string, number][] = [
  ['web', 8080],
  ['api', 9000],
];

const CLASS: TenantClassSpec = {
  namespace: { mode: 'PerTenant', nameTemplate: `${id}-{id}` },
  networkIsolation: 'None',
  // The route reaches the second: the members' api pods carry the label its Service selects.
  expose: { port: 9000, host: `{name}.${DOMAIN}`, ingressClassName: 'nginx', deployment: 'api' },
  allowedDomains: [DOMAIN],
  warmPool: {
    size: 2,
    maxUnavailable: 1,
    deployments: SERVICES.map(([name, port]) => service(name, port) as unknown as Record<string, unknown>),
  },
};

/** A Tenant of the class listing the same services, written for "default" as rows are. */
function tenantOf(name: string): Tenant {
  tenants.push(name);
  const deployments = SERVICES.map(([svc, port]) => service(svc, port, 'default'));
  return {
    apiVersion: API_VERSION,
    kind: KIND,
    metadata: { name },
    spec: { class: className, deployments, configMaps: [] },
  };
}

/** The class's unclaimed members, each with its Deployments' names and whether all are available. */
async function members(): Promise<{ name: string; deployments: string[]; ready: boolean }[]> {
  const list = await core.listNamespace({ labelSelector: `${LABEL.pool}=${className}` });
  const live = list.items.filter((ns) => ns.metadata?.deletionTimestamp === undefined);
  return Promise.all(
    live.map(async (ns) => {
      const name = ns.metadata!.name!;
      const items = (await apps.listNamespacedDeployment({ namespace: name })).items;
      const ready =
        items.length > 0 && items.every((d) => (d.status?.availableReplicas ?? 0) >= (d.spec?.replicas ?? 1));
      return { name, deployments: items.map((d) => d.metadata!.name!).sort(), ready };
    }),
  );
}

const readyMembers = (count: number): Promise<{ name: string; deployments: string[] }[]> =>
  waitUntil(
    `${count} Ready members of ${className}, each running web and api`,
    async () => {
      const all = await members();
      const complete = all.filter((m) => m.ready && m.deployments.join() === 'api,web');
      return all.length === count && complete.length === count ? complete : undefined;
    },
    { timeoutMs: 120_000, intervalMs: 250, abortIf: () => operator.assertRunning() },
  );

async function podUids(namespace: string): Promise<string[]> {
  return (await core.listNamespacedPod({ namespace })).items.map((p) => p.metadata!.uid!).sort();
}

async function replicaSetUids(namespace: string): Promise<string[]> {
  return (await apps.listNamespacedReplicaSet({ namespace })).items.map((r) => r.metadata!.uid!).sort();
}

beforeAll(async () => {
  await createClass(className, CLASS);
  operator = startLandlord(
    'operator',
    componentEnv({
      LANDLORD_LOG_LEVEL: 'info',
      LANDLORD_OPERATOR_POOL_REFILL_PER_SECOND: '10',
      LANDLORD_OPERATOR_RESYNC_SECONDS: '10',
    }),
  );
  await operator.ready();
});

afterAll(async () => {
  await Promise.all(tenants.map((name) => deleteTenant(custom, name).catch(() => undefined)));
  await custom.deleteClusterCustomObject({ ...CLASSES, name: className }).catch(() => undefined);
  expect(await operator.stop()).toBe(0);
});

describe('a warm pool running a list of Deployments', () => {
  let warm: string[] = [];

  it('keeps 2 members, each running every Deployment of the list, the exposed one labelled for its Service', async () => {
    warm = (await readyMembers(2)).map((m) => m.name);
    for (const namespace of warm) {
      const api = await apps.readNamespacedDeployment({ name: 'api', namespace });
      const web = await apps.readNamespacedDeployment({ name: 'web', namespace });
      expect(api.metadata?.labels?.[LABEL.pool]).toBe(className);
      expect(api.spec?.template.metadata?.labels?.[LABEL.exposed]).toBeDefined();
      expect(web.spec?.template.metadata?.labels?.[LABEL.exposed]).toBeUndefined();
    }
  });

  it('is claimed by a Tenant listing the same services: Ready at once, every pod and ReplicaSet kept', async () => {
    const before = new Map(
      await Promise.all(
        warm.map(async (ns) => [ns, { pods: await podUids(ns), sets: await replicaSetUids(ns) }] as const),
      ),
    );
    const name = `${id}-first`;
    await createTenant(custom, tenantOf(name));
    const tenant = await waitForCondition(custom, name, { type: CONDITION.ready, status: 'True' }, 30_000);
    const namespace = tenant.status!.namespace!;
    expect(warm).toContain(namespace);
    expect((await eventsWritten(name, 'PoolClaimed'))[0]?.message).toContain(namespace);
    expect(await podUids(namespace)).toEqual(before.get(namespace)!.pods);
    expect(await replicaSetUids(namespace)).toEqual(before.get(namespace)!.sets);
    expect(before.get(namespace)!.pods).toHaveLength(2);
    for (const [svc] of SERVICES) {
      const d = await waitUntil(
        `Deployment ${svc} owned by ${name}`,
        async () => {
          const found = await apps.readNamespacedDeployment({ name: svc, namespace });
          return found.metadata?.ownerReferences?.[0]?.uid === tenant.metadata.uid ? found : undefined;
        },
        { timeoutMs: 30_000 },
      );
      expect(d.metadata?.labels?.[LABEL.pool]).toBeUndefined();
      // Each Deployment's own Service, made with the claim.
      await core.readNamespacedService({ name: svc, namespace });
    }
    const routed = await core.readNamespacedService({ name: EXPOSE_NAMES.service, namespace });
    const selector = Object.entries(routed.spec!.selector!)
      .map(([k, v]) => `${k}=${v}`)
      .join(',');
    const selected = (await core.listNamespacedPod({ namespace, labelSelector: selector })).items;
    expect(selected.map((p) => p.metadata?.labels?.app)).toEqual(['api']);
    const settled = await waitUntil(
      `${name}'s status to list both services`,
      async () => {
        const t = await waitForCondition(custom, name, { type: CONDITION.ready, status: 'True' }, 10_000);
        return t.status?.workloads?.length === 2 ? t : undefined;
      },
      { timeoutMs: 30_000 },
    );
    expect(settled.status?.workloads?.map((w) => [w.name, w.available])).toEqual([
      [`${namespace}/web`, 'True'],
      [`${namespace}/api`, 'True'],
    ]);
    // Still the member's pods once everything settled.
    expect(await podUids(namespace)).toEqual(before.get(namespace)!.pods);
  });

  it('refills to 2, the claimed namespace no longer among them', async () => {
    const claimed = (await waitForCondition(custom, `${id}-first`, { type: CONDITION.ready, status: 'True' }))
      .status!.namespace!;
    const refilled = (await readyMembers(2)).map((m) => m.name);
    expect(refilled).not.toContain(claimed);
  });
});
