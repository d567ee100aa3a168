// The children a Tenant asks for, as the operator will apply them: the manifest as written, plus
// the ownership landlord adds (controller ownerReference, labels) and a hash of the whole, so a
// later reconcile can tell "the spec changed" from "someone edited the child".
import type { KubernetesObject, V1ConfigMap } from '@kubernetes/client-node';
import { contentHash } from '../util/canonical-json.js';
import { LABEL, MANAGED_BY, tenantOwnerReference, type Tenant } from '../api/tenant.js';
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
  const hash = contentHash(manifest);
  const metadata = { ...manifest.metadata, annotations: { ...manifest.metadata?.annotations } };
  metadata.annotations[SPEC_HASH_ANNOTATION] = hash;
  const ref = childRef(kind, metadata.namespace ?? '', metadata.name!);
  return { ref, manifest: { ...manifest, metadata }, hash };
}

export function desiredChildren(tenant: Tenant, children: DesiredChildren): DesiredChild[] {
  return [
    withOwnership(children.deployment, tenant, 'Deployment'),
    ...children.configMaps.map((cm: V1ConfigMap) => withOwnership(cm, tenant, 'ConfigMap')),
  ];
}
