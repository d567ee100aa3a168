// Whether the cluster serves Gateway API HTTPRoutes: only where their CRDs are installed. Asked
// once at start-up (one discovery request), so a cluster without them never has the operator
// watching a resource that does not exist; a class that asks for an HTTPRoute there is refused on
// its Tenants with GatewayApiMissing, and nothing else changes.
import { isNotFound, type KubeApi } from '../../runtime/kube/api.js';

const GATEWAY_API_V1 = '/apis/gateway.networking.k8s.io/v1';

interface ApiResourceList {
  resources?: { name?: string }[];
}

/** True when gateway.networking.k8s.io/v1 lists httproutes. Other errors than 404 are thrown. */
export async function servesHttpRoutes(api: KubeApi): Promise<boolean> {
  try {
    const list = await api.request<ApiResourceList>({ method: 'GET', path: GATEWAY_API_V1 });
    return (list.resources ?? []).some((r) => r.name === 'httproutes');
  } catch (err) {
    if (isNotFound(err)) return false;
    throw err;
  }
}
