// The fields the class sets on every pod template, whatever the row says: the ServiceAccount token
// automount and the node pool's nodeSelector and tolerations; and, where the row sets none, a
// sizeLimit on each emptyDir volume (the class's default), so no volume may fill a node's disk. The checks have already refused a row
// that contradicts them, so setting them never overrides what a row asked for on purpose. In a
// PerTenant namespace the pods also run as the tenant's own ServiceAccount, whatever the row names:
// there a name can only mean an account in the tenant's namespace, and forcing it keeps rows in the
// Shared format (which may name "default") working instead of refusing them.
import type { V1Deployment, V1PodSpec, V1Toleration, V1Volume } from '@kubernetes/client-node';
import { isDeepStrictEqual } from 'node:util';
import { TENANT_SERVICE_ACCOUNT } from '../namespaces/tenant-account.js';
import type { ClassPolicy } from './class.js';
import { isRecord } from './json.js';

/**
 * The Deployment with the class's fields set. Copies only the path down to the pod spec (and the
 * emptyDir volumes it sizes); the rest is shared with `deployment`, which is never changed: it may be
 * part of a cached Tenant, which is frozen.
 */
export function withClassFields(deployment: V1Deployment, tenantClass: ClassPolicy): V1Deployment {
  const template = deployment.spec?.template;
  if (template?.spec === undefined) return deployment;
  const spec = { ...template.spec, automountServiceAccountToken: tenantClass.serviceAccount.automountToken };
  if (tenantClass.mode === 'PerTenant') {
    spec.serviceAccountName = TENANT_SERVICE_ACCOUNT;
    delete spec.serviceAccount;
  }
  const pool = tenantClass.nodePool;
  // An empty pool adds nothing, so a template that never had these fields keeps not having them.
  if (Object.keys(pool.nodeSelector).length > 0)
    spec.nodeSelector = { ...spec.nodeSelector, ...pool.nodeSelector };
  if (pool.tolerations.length > 0) spec.tolerations = withTolerations(spec, pool.tolerations);
  if (spec.volumes != null) spec.volumes = spec.volumes.map((v) => sizedVolume(v, tenantClass));
  return { ...deployment, spec: { ...deployment.spec!, template: { ...template, spec } } };
}

/** An emptyDir volume without a sizeLimit gets the class's default; any other volume is kept as it is. */
function sizedVolume(volume: V1Volume, tenantClass: ClassPolicy): V1Volume {
  const emptyDir: unknown = volume.emptyDir;
  if (!isRecord(emptyDir) || emptyDir.sizeLimit != null) return volume;
  return { ...volume, emptyDir: { ...emptyDir, sizeLimit: tenantClass.limits.defaultEmptyDirSizeLimit } };
}

function withTolerations(spec: V1PodSpec, granted: readonly V1Toleration[]): V1Toleration[] {
  const own = spec.tolerations ?? [];
  return [...own, ...granted.filter((t) => !own.some((o) => isDeepStrictEqual(o, t)))];
}
