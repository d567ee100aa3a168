// One fresh control plane (and moto) per scenario and size, so that no run inherits another's
// objects, caches or compacted history. The CRD is installed up front, as in the e2e setup: the
// garbage collector only learns of a new resource at its next discovery pass.
import { KubeConfig } from '@kubernetes/client-node';
import { Cluster } from '../harness/cluster.js';
import { installTenantCrd } from '../harness/tenant-crd.js';
import { KubeApi } from '../runtime/kube/api.js';
import type { ApiServerAccess } from '../harness/apiserver-requests.js';
import { BENCH_NAMESPACE } from './rows.js';

export interface BenchCluster {
  cluster: Cluster;
  api: KubeApi;
  kubeConfig: KubeConfig;
  access: ApiServerAccess;
  startSeconds: number;
}

/** Clusters still running, stopped by stopAll() when the benchmark is interrupted. */
const running = new Set<Cluster>();

export async function freshCluster(log: (line: string) => void): Promise<BenchCluster> {
  const started = performance.now();
  const cluster = await Cluster.start({ dynamodb: 'moto', log });
  running.add(cluster);
  const kubeConfig = new KubeConfig();
  kubeConfig.loadFromFile(cluster.adminKubeconfig);
  const api = new KubeApi(kubeConfig);
  try {
    await installTenantCrd(cluster.adminKubeconfig);
    await api.request({
      method: 'POST',
      path: '/api/v1/namespaces',
      body: { metadata: { name: BENCH_NAMESPACE } },
    });
  } catch (err) {
    await stopCluster(cluster);
    throw err;
  }
  const access = { server: cluster.apiServerUrl, caFile: cluster.caFile, token: cluster.adminToken };
  return { cluster, api, kubeConfig, access, startSeconds: (performance.now() - started) / 1000 };
}

export async function stopCluster(cluster: Cluster): Promise<void> {
  running.delete(cluster);
  await cluster.stop();
}

export async function stopAllClusters(): Promise<void> {
  await Promise.all([...running].map(stopCluster));
}
