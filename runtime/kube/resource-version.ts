// Which of two copies of one object is newer, for a component that overlays the objects its own
// writes returned on a watch cache that has not caught up with them yet.
import type { KubernetesObject } from '@kubernetes/client-node';

/** resourceVersions are opaque to clients, but etcd's are increasing integers; when not, trust the cache. */
export function isNewer(a: KubernetesObject, b: KubernetesObject): boolean {
  const x = a.metadata?.resourceVersion ?? '';
  const y = b.metadata?.resourceVersion ?? '';
  if (!/^\d+$/.test(x) || !/^\d+$/.test(y)) return false;
  return BigInt(x) > BigInt(y);
}

/** The same version of one object: both copies carry one resourceVersion. */
export function sameVersion(a: KubernetesObject, b: KubernetesObject): boolean {
  const version = a.metadata?.resourceVersion;
  return version !== undefined && version === b.metadata?.resourceVersion;
}
