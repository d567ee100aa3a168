// One fresh control plane (and moto; for a run with databases, PostgreSQL) per scenario and size, so
// that no run inherits another's objects, caches, databases or compacted history. The CRDs are
// installed before kube-controller-manager starts, as in the e2e setup and as on a real cluster:
// the garbage collector learns of a new resource only at its next discovery pass (30 s), and until
// then each Tenant is a "virtual" owner it re-reads with a GET for every child. Under load it still
// lags enough to do so for most children (docs/performance.md, "Every feature on").
import { join } from 'node:path';
import { KubeConfig } from '@kubernetes/client-node';
import { Cluster } from '../harness/cluster.js';
import { KubeApi } from '../runtime/kube/api.js';
import type { ApiServerAccess } from '../harness/apiserver-requests.js';
import { BENCH_NAMESPACE } from './rows.js';
import type { DatabaseEngine } from '../api/tenantclass.js';
import { startDatabases, type BenchDatabases } from './databases.js';

export interface BenchCluster {
  cluster: Cluster;
  api: KubeApi;
  kubeConfig: KubeConfig;
  access: ApiServerAccess;
  startSeconds: number;
  /** The server of the class's databases, when the run has them. */
  databases?: BenchDatabases;
}

/** Clusters still running, stopped by stopAll() when the benchmark is interrupted. */
const running = new Set<Cluster>();
/** The database server of each cluster that has one, stopped with it. */
const databaseServers = new Map<Cluster, BenchDatabases>();

/** The cluster a run of `tenancy` needs: a database server only for PerTenant runs with databases. */
export function clusterOptions(
  options: { databases: boolean; databaseEngine: DatabaseEngine },
  tenancy: 'shared' | 'pertenant',
): { databases?: DatabaseEngine } {
  return tenancy === 'pertenant' && options.databases ? { databases: options.databaseEngine } : {};
}

export async function freshCluster(
  log: (line: string) => void,
  options: { databases?: DatabaseEngine } = {},
): Promise<BenchCluster> {
  const started = performance.now();
  const cluster = await Cluster.start({ dynamodb: 'moto', log, installTenantCrd: true });
  running.add(cluster);
  const kubeConfig = new KubeConfig();
  kubeConfig.loadFromFile(cluster.adminKubeconfig);
  const api = new KubeApi(kubeConfig);
  try {
    await api.request({
      method: 'POST',
      path: '/api/v1/namespaces',
      body: { metadata: { name: BENCH_NAMESPACE } },
    });
    if (options.databases !== undefined)
      databaseServers.set(
        cluster,
        await startDatabases(join(cluster.runDir, 'logs'), log, options.databases),
      );
  } catch (err) {
    await stopCluster(cluster);
    throw err;
  }
  const access = { server: cluster.apiServerUrl, caFile: cluster.caFile, token: cluster.adminToken };
  const databases = databaseServers.get(cluster);
  return {
    cluster,
    api,
    kubeConfig,
    access,
    startSeconds: (performance.now() - started) / 1000,
    ...(databases === undefined ? {} : { databases }),
  };
}

export async function stopCluster(cluster: Cluster): Promise<void> {
  running.delete(cluster);
  await databaseServers.get(cluster)?.servers.stop();
  databaseServers.delete(cluster);
  await cluster.stop();
}

export async function stopAllClusters(): Promise<void> {
  await Promise.all([...running].map(stopCluster));
}
