// The limit: the same Tenants, Deployments and ConfigMaps created directly with
// @kubernetes/client-node, at the operator's concurrency, with no landlord at all. Per tenant:
// create the Tenant, then its Deployment and ConfigMap (owned by it, as landlord makes them) at
// once. Timed from the first request until every Deployment is available on the kwok node.
import { AppsV1Api, CoreV1Api, CustomObjectsApi, type V1OwnerReference } from '@kubernetes/client-node';
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
import { freshCluster, stopCluster } from '../cluster.js';
import { deploymentAvailable, waitForCount, watchDeployments } from '../kube.js';
import { delta, requestCounts, type RequestBreakdown } from '../../harness/apiserver-requests.js';
import { childCpuTimes, cpuDelta, type CpuTimes } from '../measure/cpu.js';
import { runPool } from '../pool.js';
import { BENCH_NAMESPACE, configMap, deployment, tenantName } from '../rows.js';
import type { RunContext } from '../run-context.js';

export interface BaselineResult {
  seconds: number;
  /** Time spent issuing the creates; the rest is waiting for the controllers and kwok. */
  createSeconds: number;
  tenantsPerSecond: number;
  concurrency: number;
  clusterStartSeconds: number;
  loadAverage: number[];
  apiServer: RequestBreakdown;
  /** CPU seconds each process spent: who was busy. */
  cpuSeconds: CpuTimes;
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

export async function runBaseline(n: number, ctx: RunContext): Promise<BaselineResult> {
  const bench = await freshCluster(ctx.log);
  const custom = bench.kubeConfig.makeApiClient(CustomObjectsApi);
  const apps = bench.kubeConfig.makeApiClient(AppsV1Api);
  const core = bench.kubeConfig.makeApiClient(CoreV1Api);
  const deployments = await watchDeployments(bench.api);
  try {
    const before = await requestCounts(bench.access);
    const cpuBefore = childCpuTimes();
    const started = performance.now();
    await runPool(n, ctx.concurrency, async (index) => {
      const name = tenantName(index);
      const body: Tenant = {
        apiVersion: API_VERSION,
        kind: KIND,
        metadata: { name },
        spec: { deployment: deployment(name), configMaps: [configMap(name)] },
      };
      const tenant = (await custom.createClusterCustomObject({
        group: GROUP,
        version: VERSION,
        plural: PLURAL,
        body,
      })) as Tenant;
      await Promise.all([
        apps.createNamespacedDeployment({
          namespace: BENCH_NAMESPACE,
          body: owned(deployment(name), tenant),
        }),
        core.createNamespacedConfigMap({ namespace: BENCH_NAMESPACE, body: owned(configMap(name), tenant) }),
      ]);
    });
    const created = performance.now();
    const done = await waitForCount(() => deployments.list().filter(deploymentAvailable).length, {
      what: `[N=${n}] baseline: Deployments available`,
      target: n,
      timeoutMs: ctx.timeoutMs(n),
      since: started,
      print: ctx.print,
    });
    const seconds = (done - started) / 1000;
    const cpuSeconds = cpuDelta(cpuBefore, childCpuTimes());
    const after = await requestCounts(bench.access);
    return {
      seconds: round(seconds),
      createSeconds: round((created - started) / 1000),
      tenantsPerSecond: round(n / seconds),
      concurrency: ctx.concurrency,
      clusterStartSeconds: round(bench.startSeconds),
      loadAverage: ctx.loadAverage(),
      apiServer: delta(before, after),
      cpuSeconds,
    };
  } finally {
    await deployments.stop();
    await stopCluster(bench.cluster);
  }
}

const round = (value: number): number => Math.round(value * 100) / 100;
