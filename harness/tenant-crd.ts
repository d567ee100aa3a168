// Installs landlord's Tenant CRD into a test cluster, the way `kubectl apply -f crds/` would.
import { KubeConfig } from '@kubernetes/client-node';
import { ensureCrd } from '../runtime/kube/crd-install.js';
import { KubeApi } from '../runtime/kube/api.js';
import { createLogger } from '../runtime/logger.js';

export async function installTenantCrd(kubeconfig: string): Promise<void> {
  const kc = new KubeConfig();
  kc.loadFromFile(kubeconfig);
  await ensureCrd(new KubeApi(kc), true, createLogger('e2e', 'warn'));
}
