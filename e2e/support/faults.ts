// Fault injection through the harness's control endpoint.
import { waitUntil } from '../../harness/wait.js';
import { clients, envValue, uniqueName } from './env.js';
import { deploymentManifest } from './tenants.js';

async function post(path: string): Promise<void> {
  const res = await fetch(`${envValue('LANDLORD_E2E_CONTROL')}${path}`, { method: 'POST' });
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
}

export const faults = {
  restartApiServer: (downMs = 0) => post(`/apiserver/restart?downMs=${downMs}`),
  pauseEtcd: () => post('/etcd/pause'),
  resumeEtcd: () => post('/etcd/resume'),
  pauseDynamo: () => post('/dynamodb/pause'),
  resumeDynamo: () => post('/dynamodb/resume'),
};

/**
 * Waits until the shared control plane works end to end again after a fault: a new Deployment is
 * rolled out (kube-controller-manager's deployment and replicaset controllers, the scheduler and
 * kwok all take part). After kube-apiserver restarts, client-go in those components waits up to a
 * minute before listing again; a test file that injects such a fault waits here before it ends, so
 * the next file does not start against controllers that are still blind.
 */
export async function waitControlPlaneSettled(timeoutMs = 180_000): Promise<number> {
  const { apps } = clients();
  const started = Date.now();
  const name = uniqueName('settle');
  await apps.createNamespacedDeployment({ namespace: 'default', body: deploymentManifest(name, 'default') });
  try {
    await waitUntil(
      'a probe Deployment to become available after the fault',
      async () => {
        const d = await apps.readNamespacedDeployment({ name, namespace: 'default' });
        return (d.status?.availableReplicas ?? 0) >= 1;
      },
      { timeoutMs, intervalMs: 500 },
    );
  } finally {
    await apps.deleteNamespacedDeployment({ name, namespace: 'default', propagationPolicy: 'Background' });
  }
  return Date.now() - started;
}
