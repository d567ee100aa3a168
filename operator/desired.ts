// The children a Tenant asks for, as the operator will apply them: the manifest as written, plus
// the ownership landlord adds (controller ownerReference, labels) and a hash of the whole, so a
// later reconcile can tell "the spec changed" from "someone edited the child".
import type { KubernetesObject, V1ConfigMap } from '@kubernetes/client-node';
import { contentHash } from '../util/canonical-json.js';
import { GROUP, LABEL, MANAGED_BY, tenantOwnerReference, type Tenant } from '../api/tenant.js';
import type { DesiredChildren } from './policy/index.js';
import { childRef, type ChildKind, type ChildRef } from './child-ref.js';

export const SPEC_HASH_ANNOTATION = 'landlord.dev/spec-hash';

export interface DesiredChild {
  /** Also names the apiVersion and kind of the apply request. */
  ref: ChildRef;
  manifest: KubernetesObject;
  hash: string;
}

/**
 * The manifest with the Tenant as its controller, landlord's labels (which win over the
 * manifest's) and the hash of the result. A Namespace (cluster-scoped) has no metadata.namespace.
 */
export function withOwnership(manifest: KubernetesObject, tenant: Tenant, kind: ChildKind): DesiredChild {
  const labels = {
    ...manifest.metadata?.labels,
    [LABEL.tenant]: tenant.metadata.name!,
    [LABEL.managedBy]: MANAGED_BY.operator,
  };
  const owned: KubernetesObject = {
    ...manifest,
    metadata: { ...manifest.metadata, labels, ownerReferences: [tenantOwnerReference(tenant)] },
  };
  return hashedChild(owned, kind);
}

/**
 * The manifest, with whatever ownership it carries already, stamped with the hash of itself: what
 * the Applier's drift check compares (a warm pool member's objects, controlled by their class,
 * are applied so too). `manifest` itself is left as it is.
 */
export function hashedChild(manifest: KubernetesObject, kind: ChildKind): DesiredChild {
  const hash = contentHash(withOwnerVersion(manifest, HASHED_OWNER_API_VERSION));
  const metadata = { ...manifest.metadata, annotations: { ...manifest.metadata?.annotations } };
  metadata.annotations[SPEC_HASH_ANNOTATION] = hash;
  const ref = childRef(kind, metadata.namespace ?? '', metadata.name!);
  return { ref, manifest: { ...manifest, metadata }, hash };
}

/**
 * The apiVersion a landlord owner (Tenant, TenantClass) is hashed under, whichever version the
 * ownerReference names: children made when landlord wrote v1alpha1 carry hashes of it, and stay in
 * sync under v1beta1 instead of being rewritten for the owner's version alone (ADR 0011). Frozen:
 * a constant of the hash, not a version served.
 */
const HASHED_OWNER_API_VERSION = `${GROUP}/v1alpha1`;

const isLandlordApiVersion = (apiVersion: string | undefined): boolean =>
  apiVersion?.startsWith(`${GROUP}/`) === true;

/**
 * The manifest with each ownerReference to a landlord object named under `apiVersion`, or, given
 * a function, under the version it returns for that reference (undefined: as it is). The
 * garbage collector follows a reference under any served version of the group, so which one a
 * child names is not landlord's business as long as it names the same owner (by uid).
 */
function withOwnerVersion(
  manifest: KubernetesObject,
  apiVersion: string | ((uid: string) => string | undefined),
): KubernetesObject {
  const owners = manifest.metadata?.ownerReferences;
  if (owners === undefined || !owners.some((o) => isLandlordApiVersion(o.apiVersion))) return manifest;
  const versionOf = typeof apiVersion === 'string' ? (): string => apiVersion : apiVersion;
  const ownerReferences = owners.map((o) =>
    isLandlordApiVersion(o.apiVersion) ? { ...o, apiVersion: versionOf(o.uid) ?? o.apiVersion } : o,
  );
  return { ...manifest, metadata: { ...manifest.metadata, ownerReferences } };
}

/**
 * `wanted` with its landlord owners named as `live` names them (same uid, any landlord version):
 * a child made under v1alpha1 is not drift for naming its Tenant so.
 */
export function ownersAsLive(wanted: KubernetesObject, live: KubernetesObject): KubernetesObject {
  const liveOwners = live.metadata?.ownerReferences ?? [];
  return withOwnerVersion(wanted, (uid) => {
    const match = liveOwners.find((o) => o.uid === uid && isLandlordApiVersion(o.apiVersion));
    return match?.apiVersion;
  });
}

export function desiredChildren(tenant: Tenant, children: DesiredChildren): DesiredChild[] {
  return [
    withOwnership(children.deployment, tenant, 'Deployment'),
    ...children.configMaps.map((cm: V1ConfigMap) => withOwnership(cm, tenant, 'ConfigMap')),
  ];
}
