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
import { claimSlot } from '../../harness/e2e-slots.js';

/**
 * The environment of this file's own control plane: the global setup starts several, and each
 * file claims one that no running file holds (harness/e2e-slots.ts), released when the file ends.
 */
export function e2eEnv(): Record<string, string> {
  const envs = inject('e2eEnvs');
  return envs[claimSlot(inject('e2eSlotDir'), envs.length)]!;
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
