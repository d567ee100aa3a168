// Tenants in tests: manifests, and waiting for what the operator reports.
import type { CustomObjectsApi, V1ConfigMap, V1Deployment } from '@kubernetes/client-node';
import { waitUntil } from '../../harness/wait.js';
import {
  API_VERSION,
  CONDITION,
  GROUP,
  KIND,
  PLURAL,
  VERSION,
  type Condition,
  type Tenant,
} from '../../api/tenant.js';

export function deploymentManifest(name: string, namespace: string, image = 'nginx:1.27'): V1Deployment {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace },
    spec: {
      replicas: 1,
      selector: { matchLabels: { app: name } },
      template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'app', image }] } },
    },
  };
}

export function configMapManifest(
  name: string,
  namespace: string,
  data: Record<string, string> = { key: 'value' },
): V1ConfigMap {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace }, data };
}

export function tenantManifest(name: string, namespace: string, configMaps = 1): Tenant {
  return {
    apiVersion: API_VERSION,
    kind: KIND,
    metadata: { name },
    spec: {
      deployment: deploymentManifest(`${name}-app`, namespace),
      configMaps: Array.from({ length: configMaps }, (_, i) =>
        configMapManifest(`${name}-config-${i}`, namespace),
      ),
    },
  };
}

const ref = { group: GROUP, version: VERSION, plural: PLURAL };

export async function createTenant(custom: CustomObjectsApi, tenant: Tenant): Promise<Tenant> {
  return (await custom.createClusterCustomObject({ ...ref, body: tenant })) as Tenant;
}

export async function readTenant(custom: CustomObjectsApi, name: string): Promise<Tenant> {
  return (await custom.getClusterCustomObject({ ...ref, name })) as Tenant;
}

/** Replaces the Tenant's spec (a JSON merge patch would merge lists; a replace of /spec does not). */
export async function setSpec(custom: CustomObjectsApi, name: string, spec: Tenant['spec']): Promise<void> {
  await custom.patchClusterCustomObject({
    ...ref,
    name,
    body: [{ op: 'replace', path: '/spec', value: spec }],
  });
}

export async function deleteTenant(custom: CustomObjectsApi, name: string): Promise<void> {
  await custom.deleteClusterCustomObject({ ...ref, name });
}

export function condition(tenant: Tenant, type: string): Condition | undefined {
  return tenant.status?.conditions?.find((c) => c.type === type);
}

/** Waits until the Tenant reports the condition for its current generation. */
export async function waitForCondition(
  custom: CustomObjectsApi,
  name: string,
  expected: { type: string; status: string; reason?: string },
  timeoutMs = 60_000,
): Promise<Tenant> {
  return waitUntil(
    `Tenant ${name} to report ${expected.type}=${expected.status}${expected.reason ? ` (${expected.reason})` : ''}`,
    async () => {
      const tenant = await readTenant(custom, name);
      const c = condition(tenant, expected.type);
      const current = c?.observedGeneration === tenant.metadata.generation;
      const matches =
        c?.status === expected.status && (expected.reason === undefined || c.reason === expected.reason);
      return current && matches ? tenant : undefined;
    },
    { timeoutMs, intervalMs: 250 },
  );
}

/**
 * Deletes every Tenant with these labels. The API server ends a request after a minute, and
 * deleting a thousand Tenants while other files load the machine can take longer, so the call is
 * repeated until none is left.
 */
export async function deleteTenantsLabelled(custom: CustomObjectsApi, labelSelector: string): Promise<void> {
  const tenants = { group: GROUP, version: VERSION, plural: PLURAL, labelSelector };
  await waitUntil(
    `every Tenant labelled ${labelSelector} deleted`,
    async () => {
      try {
        await custom.deleteCollectionClusterCustomObject(tenants);
      } catch (err) {
        console.log(`deleting the Tenants labelled ${labelSelector} again after: ${String(err)}`);
      }
      const left = (await custom.listClusterCustomObject({ ...tenants, limit: 1 })) as { items: unknown[] };
      return left.items.length === 0;
    },
    { timeoutMs: 600_000, intervalMs: 1_000 },
  );
}

/** The Tenants with these labels that are Ready now. */
export async function readyTenants(custom: CustomObjectsApi, labelSelector: string): Promise<Tenant[]> {
  const list = (await custom.listClusterCustomObject({
    group: GROUP,
    version: VERSION,
    plural: PLURAL,
    labelSelector,
  })) as { items: Tenant[] };
  return list.items.filter((t) => condition(t, CONDITION.ready)?.status === 'True');
}
