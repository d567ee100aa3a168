// Installs landlord's CRDs (Tenant and TenantClass) into a test cluster, the way `kubectl apply -f crds/` would.
import { KubeConfig } from '@kubernetes/client-node';
import { ALL_CRDS } from '../api/crds.js';
import { ensureCrds } from '../runtime/kube/crd-install.js';
import { KubeApi } from '../runtime/kube/api.js';
import { createLogger } from '../runtime/logger.js';

export async function installTenantCrd(kubeconfig: string): Promise<void> {
  const kc = new KubeConfig();
  kc.loadFromFile(kubeconfig);
  await ensureCrds(new KubeApi(kc), ALL_CRDS, true, createLogger('e2e', 'warn'));
}
