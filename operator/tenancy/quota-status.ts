// Whether a tenant's ResourceQuota is enforced yet. The API server's quota admission enforces only
// the limits in a quota's status.hard, which the quota controller (kube-controller-manager) copies
// from spec.hard once it has counted the namespace: until then a quota limits nothing, and pods
// created meanwhile escape it for good (seen in e2e: five pods under a quota of three). So the
// operator applies a tenant's workload only once its quota is enforced (apply.ts), and its caches
// keep status.hard of each quota, whose first write wakes the Tenant.
import type { KubernetesObject, V1ResourceQuota } from '@kubernetes/client-node';

/** The part of a quota's status the operator reads: `hard`, never the usage the controller recounts. */
export function readOfQuotaStatus(status: unknown): unknown {
  if (typeof status !== 'object' || status === null) return status;
  const { hard } = status as NonNullable<V1ResourceQuota['status']>;
  return hard === undefined ? {} : { hard };
}

/**
 * The resources the quota's spec limits that its status does not enforce yet, sorted; empty once
 * the quota controller has counted it. A changed limit on a resource already enforced is not
 * waited for: the old limit holds meanwhile, so nothing escapes.
 */
export function unenforcedResources(quota: KubernetesObject): string[] {
  const { spec, status } = quota as V1ResourceQuota;
  const enforced = status?.hard ?? {};
  return Object.keys(spec?.hard ?? {})
    .filter((resource) => !(resource in enforced))
    .sort();
}
