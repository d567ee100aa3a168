// Checks that each part of the local control plane really works: health endpoints, and a probe
// pod that must be scheduled onto the kwok node and become Ready (scheduler + kwok + admission).
import { readFile } from 'node:fs/promises';
import { request as httpsRequest } from 'node:https';
import { AppsV1Api, CoreV1Api, KubeConfig, type V1Node, type V1Pod } from '@kubernetes/client-node';
import { KWOK_NODE_ANNOTATION } from './components.js';
import { waitUntil, type WaitOptions } from './wait.js';

export async function httpOk(url: string): Promise<boolean> {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(2_000) });
    await res.arrayBuffer();
    return res.ok;
  } catch {
    return false;
  }
}

export async function apiServerReady(server: string, caFile: string, token: string): Promise<boolean> {
  let ca: Buffer;
  try {
    ca = await readFile(caFile);
  } catch {
    return false; // the serving certificate is written a moment after start
  }
  return new Promise((resolve) => {
    const req = httpsRequest(`${server}/readyz`, {
      ca,
      headers: { Authorization: `Bearer ${token}` },
      timeout: 2_000,
    });
    req.on('response', (res) => {
      res.resume();
      resolve(res.statusCode === 200);
    });
    req.on('error', () => resolve(false));
    req.on('timeout', () => req.destroy());
    req.end();
  });
}

export const KWOK_NODE_NAME = 'kwok-node-0';

function kwokNode(): V1Node {
  // ephemeral-storage too: the scheduler refuses a pod that requests some (a LimitRange default
  // does) on a node that reports none.
  const capacity = { cpu: '2000', memory: '8Ti', 'ephemeral-storage': '100Ti', pods: '20000' };
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name: KWOK_NODE_NAME,
      annotations: { [KWOK_NODE_ANNOTATION]: 'fake', 'node.alpha.kubernetes.io/ttl': '0' },
      labels: {
        'kubernetes.io/hostname': KWOK_NODE_NAME,
        'kubernetes.io/os': 'linux',
        'kubernetes.io/arch': 'amd64',
        type: 'kwok',
      },
    },
    status: { allocatable: capacity, capacity },
  };
}

/** A node or pod whose Ready condition is True. */
export function isReady(object: V1Node | V1Pod): boolean {
  const conditions: { type: string; status: string }[] = object.status?.conditions ?? [];
  return conditions.some((c) => c.type === 'Ready' && c.status === 'True');
}

export function loadKubeConfig(kubeconfigPath: string): KubeConfig {
  const kc = new KubeConfig();
  kc.loadFromFile(kubeconfigPath);
  return kc;
}

export async function createKwokNode(kubeconfigPath: string): Promise<void> {
  const core = loadKubeConfig(kubeconfigPath).makeApiClient(CoreV1Api);
  await core.createNode({ body: kwokNode() });
  await waitUntil(
    'the kwok node to be Ready',
    async () => {
      const node = await core.readNode({ name: KWOK_NODE_NAME });
      return isReady(node);
    },
    { timeoutMs: 30_000 },
  );
}

function probePod(): V1Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'landlord-e2e-probe', namespace: 'default' },
    spec: { containers: [{ name: 'probe', image: 'registry.invalid/probe:1' }] },
  };
}

/** Waits for the default ServiceAccount (controller-manager) and a Ready pod (scheduler + kwok). */
export async function probeWorkload(kubeconfigPath: string, options: WaitOptions): Promise<void> {
  const kc = loadKubeConfig(kubeconfigPath);
  const core = kc.makeApiClient(CoreV1Api);
  await waitUntil(
    'the default ServiceAccount',
    () => core.readNamespacedServiceAccount({ name: 'default', namespace: 'default' }),
    options,
  );
  await core.createNamespacedPod({ namespace: 'default', body: probePod() });
  await waitUntil(
    'a probe pod to be scheduled on the kwok node and Ready',
    async () => {
      const pod = await core.readNamespacedPod({ name: 'landlord-e2e-probe', namespace: 'default' });
      return isReady(pod);
    },
    options,
  );
  await core.deleteNamespacedPod({ name: 'landlord-e2e-probe', namespace: 'default', gracePeriodSeconds: 0 });
  // Where landlord's components keep their Leases, as in a real installation.
  await core.createNamespace({ body: { metadata: { name: 'landlord-system' } } });
  // Touch the apps API once so a broken aggregation shows here rather than in a test.
  await kc.makeApiClient(AppsV1Api).listNamespacedDeployment({ namespace: 'default' });
}
