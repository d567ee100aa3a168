// Reading the Tenants and their labelled children from the cluster as it is, for the convergence
// check (converged.ts) and the uid snapshots (snapshot.ts), with one key per object for both.
import type { KubernetesObject, V1ConfigMap, V1Deployment } from '@kubernetes/client-node';
import { GROUP, LABEL, PLURAL, VERSION, type Tenant } from '../../api/tenant.js';
import { clients } from './env.js';

const { apps, core, custom } = clients();

/** kind/namespace/name; a Tenant's namespace is empty. */
export const keyOf = (obj: KubernetesObject): string =>
  `${obj.kind}/${obj.metadata?.namespace ?? ''}/${obj.metadata?.name ?? ''}`;

export async function listTenants(labelSelector?: string): Promise<Tenant[]> {
  const list = (await custom.listClusterCustomObject({
    group: GROUP,
    version: VERSION,
    plural: PLURAL,
    labelSelector,
  })) as { items: Tenant[] };
  return list.items;
}

/** The labelled Deployments and ConfigMaps of the namespaces, with kind set (lists omit it). */
export async function listChildren(namespaces: readonly string[]): Promise<KubernetesObject[]> {
  const children: KubernetesObject[] = [];
  for (const namespace of namespaces) {
    const labelSelector = LABEL.tenant;
    const deployments = await apps.listNamespacedDeployment({ namespace, labelSelector });
    const configMaps = await core.listNamespacedConfigMap({ namespace, labelSelector });
    children.push(...deployments.items.map((d): V1Deployment => ({ ...d, kind: 'Deployment' })));
    children.push(...configMaps.items.map((c): V1ConfigMap => ({ ...c, kind: 'ConfigMap' })));
  }
  return children;
}
