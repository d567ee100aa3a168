// What an e2e test knows about the cluster it runs against: the environment the global setup
// provided, and clients made from it.
import {
  AppsV1Api,
  CoreV1Api,
  CustomObjectsApi,
  KubeConfig,
  KubernetesObjectApi,
} from '@kubernetes/client-node';
import { inject } from 'vitest';

/** The environment of this worker's own control plane (harness/global-setup.ts starts one per worker). */
export function e2eEnv(): Record<string, string> {
  const envs = inject('e2eEnvs');
  const slot = Number(process.env.VITEST_POOL_ID ?? 1) - 1;
  const env = envs[slot];
  if (env === undefined) {
    throw new Error(`no control plane for e2e worker ${slot + 1}: the global setup started ${envs.length}`);
  }
  return env;
}

export function envValue(key: string): string {
  const value = e2eEnv()[key];
  if (value === undefined) throw new Error(`${key} is missing from the e2e environment`);
  return value;
}

export function kubeConfig(): KubeConfig {
  const kc = new KubeConfig();
  kc.loadFromFile(envValue('KUBECONFIG'));
  return kc;
}

export interface Clients {
  kc: KubeConfig;
  core: CoreV1Api;
  apps: AppsV1Api;
  custom: CustomObjectsApi;
  objects: KubernetesObjectApi;
}

export function clients(kc: KubeConfig = kubeConfig()): Clients {
  return {
    kc,
    core: kc.makeApiClient(CoreV1Api),
    apps: kc.makeApiClient(AppsV1Api),
    custom: kc.makeApiClient(CustomObjectsApi),
    objects: KubernetesObjectApi.makeApiClient(kc),
  };
}

/** A random suffix so tests sharing one cluster never collide on names. */
export function uniqueName(prefix: string): string {
  return `${prefix}-${Math.random().toString(36).slice(2, 8)}`;
}
