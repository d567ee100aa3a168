// Warm pools in end-to-end tests: a pooled class, a Tenant of it, and the class's unclaimed
// members as the cluster holds them.
import type { V1Deployment, V1Namespace } from '@kubernetes/client-node';
import { GROUP, LABEL, VERSION, type Tenant } from '../../api/tenant.js';
import { CLASS_PLURAL, type TenantClassSpec } from '../../api/tenantclass.js';
import { waitUntil } from '../../harness/wait.js';
import { clients } from './env.js';
import { configMapManifest, deploymentManifest } from './tenants.js';

const { core, apps, custom } = clients();
export const CLASSES = { group: GROUP, version: VERSION, plural: CLASS_PLURAL };

/** The Deployment a pool runs, and the one the rows ask for: same name and pod template. */
export const POOL_APP: V1Deployment = deploymentManifest('app', 'default');

/** A PerTenant class keeping `size` members named from `template` ("{id}"). */
export function pooledClass(
  size: number,
  template: string,
  deployment = POOL_APP,
  secrets: TenantClassSpec['secrets'] = [],
): TenantClassSpec {
  return {
    secrets,
    namespace: { mode: 'PerTenant', nameTemplate: template, labels: { 'example.com/tenant': '{name}' } },
    podSecurity: 'baseline',
    networkIsolation: 'Isolated',
    rbac: [{ group: '{name}-devs', clusterRole: 'view' }],
    warmPool: { size, deployment: deployment as unknown as Record<string, unknown>, maxUnavailable: 1 },
  };
}

export async function createClass(name: string, spec: TenantClassSpec): Promise<void> {
  await custom.createClusterCustomObject({
    ...CLASSES,
    body: { apiVersion: `${GROUP}/${VERSION}`, kind: 'TenantClass', metadata: { name }, spec },
  });
}

/** A Tenant of the class, its Deployment the pool's unless given. */
export function pooledTenant(name: string, className: string, deployment = POOL_APP): Tenant {
  return {
    apiVersion: `${GROUP}/${VERSION}`,
    kind: 'Tenant',
    metadata: { name },
    spec: { class: className, deployment, configMaps: [configMapManifest(`${name}-config`, 'default')] },
  };
}

/** Unclaimed members of a class, with whether their Deployment is available. */
export async function members(className: string): Promise<{ ns: V1Namespace; ready: boolean }[]> {
  const list = await core.listNamespace({ labelSelector: `${LABEL.pool}=${className}` });
  const live = list.items.filter((ns) => ns.metadata?.deletionTimestamp === undefined);
  return Promise.all(
    live.map(async (ns) => {
      const name = ns.metadata!.name!;
      const deployments = await apps.listNamespacedDeployment({ namespace: name });
      const d = deployments.items[0];
      const ready = (d?.status?.availableReplicas ?? 0) >= (d?.spec?.replicas ?? 1);
      return { ns, ready };
    }),
  );
}

/** The names of exactly `count` members, once all of them are Ready. */
export function readyMembers(
  className: string,
  count: number,
  options: { timeoutMs?: number; abortIf?: () => void } = {},
): Promise<string[]> {
  return waitUntil(
    `${count} Ready members of ${className}`,
    async () => {
      const all = await members(className);
      const ready = all.filter((m) => m.ready).map((m) => m.ns.metadata!.name!);
      return all.length === count && ready.length === count ? ready : undefined;
    },
    {
      timeoutMs: options.timeoutMs ?? 90_000,
      intervalMs: 250,
      ...(options.abortIf ? { abortIf: options.abortIf } : {}),
    },
  );
}

/** Namespaces named with `prefix` that are neither a pool member nor a tenant's: orphaned. */
export async function orphanNamespaces(prefix: string): Promise<string[]> {
  const all = (await core.listNamespace()).items.filter((ns) => ns.metadata!.name!.startsWith(prefix));
  return all
    .filter((ns) => ns.metadata?.deletionTimestamp === undefined)
    .filter((ns) => !ns.metadata?.labels?.[LABEL.pool] && !ns.metadata?.labels?.[LABEL.tenant])
    .map((ns) => ns.metadata!.name!);
}
