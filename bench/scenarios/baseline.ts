// The limit: the same Tenants, Deployments and ConfigMaps created directly with
// @kubernetes/client-node, at the operator's concurrency, with no landlord at all. Per tenant:
// create the Tenant, then its Deployment and ConfigMap (owned by it, as landlord makes them) at
// once. PerTenant: after the Tenant, its Namespace, then the ServiceAccount, quota, LimitRange,
// NetworkPolicy and RoleBinding (with --secrets, the two Secret copies, whose sources are made
// before the clock starts) at once, then, once the quota controller enforces the quota, the
// Deployment and ConfigMap in that namespace, in the operator's waves. A row of several Deployments
// (the fullfeature scenario's full side): each one, and each one's Service with the fences. With
// the class's databases: once the namespace exists, each tenant's database and role made on the
// server with the operator's statements, then its Secret (the time on the server is reported apart).
// Then, in both modes, the tenant's first revision (the ControllerRevision sync keeps for landlord
// history, made by sync's own function), as landlord makes one per tenant. Timed from the first
// request until every Deployment is available on the kwok node.
import {
  AppsV1Api,
  CoreV1Api,
  CustomObjectsApi,
  type KubernetesObject,
  type V1OwnerReference,
} from '@kubernetes/client-node';
import {
  API_VERSION,
  GROUP,
  KIND,
  LABEL,
  PLURAL,
  VERSION,
  tenantOwnerReference,
  type Tenant,
} from '../../api/tenant.js';
import { apiPath } from '../../runtime/kube/paths.js';
import { clusterOptions, freshCluster, stopCluster } from '../cluster.js';
import {
  deploymentAvailable,
  waitForCount,
  watchDeployments,
  watchQuotaEnforcement,
  type QuotaEnforcement,
} from '../kube.js';
import { delta, requestCounts, type RequestBreakdown } from '../../harness/apiserver-requests.js';
import { settledSince, type SettledRequests } from './settled.js';
import { childCpuTimes, cpuDelta, type CpuTimes } from '../measure/cpu.js';
import { runPool } from '../pool.js';
import {
  BENCH_NAMESPACE,
  FIRST_IMAGE,
  benchReplicas,
  configMap,
  deployment,
  services,
  tenantName,
  type RowShape,
} from '../rows.js';
import { countDatabases, makeTenantDatabases } from '../databases.js';
import type { RunContext } from '../run-context.js';
import { createSources, knownSources } from '../secrets.js';
import { benchPolicy, OPERATOR_NAMESPACE, perTenantWaves, type Tenancy } from '../tenancy.js';
import { REVISION_API_VERSION, REVISION_KIND, revisionData, revisionObject } from '../../api/revision.js';
import type { SecretScope } from '../../operator/secrets/wanted.js';
import type { BenchCluster } from '../cluster.js';

export interface BaselineResult {
  seconds: number;
  /** Time spent issuing the creates; the rest is waiting for the controllers and kwok. */
  createSeconds: number;
  tenantsPerSecond: number;
  concurrency: number;
  clusterStartSeconds: number;
  loadAverage: number[];
  apiServer: RequestBreakdown;
  /** The same window's requests once the cluster stopped writing (the controllers' Events). */
  settled: SettledRequests;
  /** CPU seconds each process spent: who was busy. */
  cpuSeconds: CpuTimes;
  /** With the class's databases: the seconds spent on the server (summed over tenants made at once), and the databases it holds after. */
  databases?: { serverSeconds: number; made: number };
}

function owned<
  T extends { metadata?: { labels?: Record<string, string>; ownerReferences?: V1OwnerReference[] } },
>(object: T, tenant: Tenant): T {
  object.metadata = {
    ...object.metadata,
    labels: { ...object.metadata?.labels, [LABEL.tenant]: tenant.metadata.name! },
    ownerReferences: [tenantOwnerReference(tenant)],
  };
  return object;
}

/** Creates the revision sync records once it applied a new Tenant's spec. */
function firstRevision(bench: BenchCluster): (tenant: Tenant) => Promise<unknown> {
  return (tenant) => {
    const draft = { hash: tenant.metadata.name!, spec: tenant.spec!, via: 'scan' as const };
    const data = revisionData(draft, tenant.metadata.name!, new Date());
    return bench.api.request({
      method: 'POST',
      path: apiPath({ apiVersion: REVISION_API_VERSION, kind: REVISION_KIND, namespace: OPERATOR_NAMESPACE }),
      body: revisionObject(tenant, OPERATOR_NAMESPACE, 1, data),
    });
  };
}

/**
 * Creates one Tenant's children, the Tenant itself already created. `deferred` are creates made
 * later, out of the pool's way (PerTenant: the Deployment and ConfigMap, once the quota is enforced).
 */
interface CreateChildren {
  (tenant: Tenant): Promise<void>;
  deferred?: Deferred;
  /** With the class's databases: milliseconds spent on the database server so far. */
  databaseMs?: () => number;
}

/** Creates started from the pool and finished later; `all` resolves once every one is made. */
class Deferred {
  private readonly pending: Promise<void>[] = [];
  private failure: Error | undefined;

  add(work: Promise<unknown>): void {
    // Caught at once: a rejection waiting for `all` would end the process as unhandled.
    this.pending.push(
      work.then(
        () => undefined,
        (err: unknown) => void (this.failure ??= err instanceof Error ? err : new Error(String(err))),
      ),
    );
  }

  /** Fails after `timeoutMs` rather than hang: a quota the controller never enforces, say. */
  async all(timeoutMs: number): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      const message = `${this.pending.length} tenants' deferred creates not done after ${timeoutMs} ms`;
      timer = setTimeout(() => reject(new Error(message)), timeoutMs);
    });
    try {
      await Promise.race([Promise.all(this.pending), late]);
    } finally {
      clearTimeout(timer);
    }
    if (this.failure !== undefined) throw this.failure;
  }
}

function sharedChildren(bench: BenchCluster, replicas: number): CreateChildren {
  const apps = bench.kubeConfig.makeApiClient(AppsV1Api);
  const core = bench.kubeConfig.makeApiClient(CoreV1Api);
  return async (tenant) => {
    const name = tenant.metadata.name!;
    await Promise.all([
      apps.createNamespacedDeployment({
        namespace: BENCH_NAMESPACE,
        body: owned(deployment(name, FIRST_IMAGE, replicas), tenant),
      }),
      core.createNamespacedConfigMap({ namespace: BENCH_NAMESPACE, body: owned(configMap(name), tenant) }),
    ]);
  };
}

/**
 * One POST per object, with the HTTP client landlord uses: client-node's typed models spell a
 * LimitRange's `default` and a NetworkPolicy's `from` as `_default` and `_from`, and would silently
 * drop them from a manifest written as the API has it.
 */
function perTenantChildren(
  bench: BenchCluster,
  ctx: RunContext,
  quotas: QuotaEnforcement,
  sources?: SecretScope,
): CreateChildren {
  const policy = benchPolicy(ctx.options);
  const shape = { replicas: benchReplicas(ctx.options), services: ctx.options.services };
  const create = (object: KubernetesObject): Promise<unknown> =>
    bench.api.request({
      method: 'POST',
      path: apiPath({
        apiVersion: object.apiVersion!,
        kind: object.kind!,
        namespace: object.metadata?.namespace,
      }),
      body: object,
    });
  const deferred = new Deferred();
  const databases = databaseMaker(bench, create);
  const children: CreateChildren = async (tenant) => {
    const [namespace, fences, workload] = perTenantWaves(tenant, policy, shape, sources);
    await Promise.all(namespace!.map(create));
    await Promise.all([...fences!.map(create), databases(tenant, namespace![0]!.metadata!.name!)]);
    // The operator's last wave waits for the quota to be enforced (operator/apply.ts), and so does
    // this one; the pool goes on with the next tenant meanwhile, as the operator's queue does.
    const quota = fences!.find((object) => object.kind === 'ResourceQuota');
    const ready = quota === undefined ? Promise.resolve() : quotas.enforced(quota.metadata!.namespace!);
    deferred.add(ready.then(() => Promise.all(workload!.map(create))));
  };
  children.deferred = deferred;
  children.databaseMs = databases.serverMs;
  return children;
}

/** Each tenant's databases and their Secrets, when the run has a database server; else nothing. */
function databaseMaker(
  bench: BenchCluster,
  create: (object: KubernetesObject) => Promise<unknown>,
): ((tenant: Tenant, namespace: string) => Promise<void>) & { serverMs: () => number } {
  let serverMs = 0;
  const server = bench.databases;
  const make = async (tenant: Tenant, namespace: string): Promise<void> => {
    if (server !== undefined) serverMs += await makeTenantDatabases(server, tenant, namespace, create);
  };
  return Object.assign(make, { serverMs: () => serverMs });
}

/** The Tenant sync would make of the tenant's row: one Deployment as rows have always held it, or several. */
function tenantBody(name: string, shape: RowShape): Tenant {
  const apps = services(name, shape);
  const workload = apps.length === 1 ? { deployment: apps[0]! } : { deployments: apps };
  return {
    apiVersion: API_VERSION,
    kind: KIND,
    metadata: { name },
    spec: { ...workload, configMaps: [configMap(name)] },
  };
}

export async function runBaseline(
  n: number,
  ctx: RunContext,
  tenancy: Tenancy = 'shared',
): Promise<BaselineResult> {
  const bench = await freshCluster(ctx.log, clusterOptions(ctx.options, tenancy));
  const custom = bench.kubeConfig.makeApiClient(CustomObjectsApi);
  const replicas = benchReplicas(ctx.options);
  const shape = { replicas, services: tenancy === 'pertenant' ? ctx.options.services : 1 };
  const deployments = await watchDeployments(bench.api, tenancy === 'pertenant');
  const quotas = tenancy === 'pertenant' ? await watchQuotaEnforcement(bench.api) : undefined;
  try {
    // The uid of each tenant made so far: the baseline binds its own sources, as a platform does.
    const uids = new Map<string, string>();
    const sources =
      tenancy === 'pertenant' && ctx.options.secrets ? await secretSources(bench, n, ctx, uids) : undefined;
    const children =
      quotas === undefined ? sharedChildren(bench, replicas) : perTenantChildren(bench, ctx, quotas, sources);
    const before = await requestCounts(bench.access);
    const cpuBefore = childCpuTimes();
    const started = performance.now();
    const revision = firstRevision(bench);
    await runPool(n, ctx.concurrency, async (index) => {
      const name = tenantName(index);
      const body = tenantBody(name, shape);
      const tenant = (await custom.createClusterCustomObject({
        group: GROUP,
        version: VERSION,
        plural: PLURAL,
        body,
      })) as Tenant;
      uids.set(name, tenant.metadata.uid ?? '');
      await children(tenant);
      await revision(tenant);
    });
    await children.deferred?.all(ctx.timeoutMs(n));
    const created = performance.now();
    const done = await waitForCount(() => deployments.list().filter(deploymentAvailable).length, {
      what: `[N=${n}${tenancy === 'shared' ? '' : ' PerTenant'}] baseline: Deployments available`,
      target: n * shape.services,
      timeoutMs: ctx.timeoutMs(n),
      since: started,
      print: ctx.print,
    });
    const seconds = (done - started) / 1000;
    const cpuSeconds = cpuDelta(cpuBefore, childCpuTimes());
    const after = await requestCounts(bench.access);
    const settled = await settledSince(bench.access, before, n);
    return {
      seconds: round(seconds),
      createSeconds: round((created - started) / 1000),
      tenantsPerSecond: round(n / seconds),
      concurrency: ctx.concurrency,
      clusterStartSeconds: round(bench.startSeconds),
      loadAverage: ctx.loadAverage(),
      apiServer: delta(before, after),
      settled,
      cpuSeconds,
      ...(bench.databases === undefined ? {} : { databases: await databasesMade(bench, n, children) }),
    };
  } finally {
    await deployments.stop();
    await quotas?.stop();
    await stopCluster(bench.cluster);
  }
}

/** --secrets: the same sources landlord's run copies from, made before the clock starts. */
async function secretSources(
  bench: BenchCluster,
  n: number,
  ctx: RunContext,
  uids: ReadonlyMap<string, string>,
): Promise<SecretScope> {
  const tenants = Array.from({ length: n }, (_, i) => tenantName(i));
  return knownSources(await createSources(bench.api, tenants, ctx.concurrency), (t) => uids.get(t));
}

/** What the baseline spent on the database server, and how many databases it holds (not timed). */
async function databasesMade(
  bench: BenchCluster,
  n: number,
  children: CreateChildren,
): Promise<NonNullable<BaselineResult['databases']>> {
  const tenants = Array.from({ length: n }, (_, i) => tenantName(i));
  return {
    serverSeconds: round((children.databaseMs?.() ?? 0) / 1000),
    made: await countDatabases(bench.databases!, tenants),
  };
}

const round = (value: number): number => Math.round(value * 100) / 100;
