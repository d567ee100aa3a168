// What the operator's caches keep of an object landlord did not make: a stub of the few fields its
// decisions read, whatever labels the object carries. The child caches select by landlord's tenant
// label, the route caches take every Ingress and HTTPRoute, and the pool's Deployment cache takes
// the pool label, all of which a tenant team can put on objects of its own; kept whole, a few
// hundred objects with large annotations took the operator to its memory limit (issue 55).
// docs/adr/0012-foreign-objects-in-caches.md says what a stub holds and why a forged owner buys
// nothing lasting.
import type {
  KubernetesObject,
  V1ManagedFieldsEntry,
  V1ObjectMeta,
  V1OwnerReference,
} from '@kubernetes/client-node';
import { FIELD_MANAGER, GROUP, KIND, LABEL } from '../api/tenant.js';

/** The labels landlord's decisions read (ownership.ts, child-index.ts, exposure/foreign-routes.ts). */
const LANDLORD_LABELS: readonly string[] = Object.values(LABEL);
/** The managers whose create the operator hands over before its first apply (apply.ts). */
const LANDLORD_MANAGERS: ReadonlySet<string> = new Set(Object.values(FIELD_MANAGER));

function controllerOf(object: KubernetesObject): V1OwnerReference | undefined {
  return object.metadata?.ownerReferences?.find((o) => o.controller === true);
}

/**
 * Made by landlord for a Tenant: controlled by a Tenant and labelled with that Tenant's name, as
 * every child the operator applies is. A team can forge both, but then the object is that Tenant's
 * child to every decision: its reconcile prunes it (or applies over it), and the garbage collector
 * removes it when no Tenant has the uid. Labels alone never make an object landlord's here.
 */
export function madeForTenant(object: KubernetesObject): boolean {
  const owner = controllerOf(object);
  return (
    owner?.kind === KIND &&
    owner.apiVersion.startsWith(`${GROUP}/`) &&
    object.metadata?.labels?.[LABEL.tenant] === owner.name
  );
}

/**
 * The stub of an object: its identity and version, landlord's labels, its controller (else its
 * first owner: a pool leftover is told by having none), the names of landlord's managers that wrote
 * it by update (a lost child's create is handed over before the operator applies it back), and
 * whether it is going. Each part is bounded whatever the object holds: no annotations, spec,
 * status or values, no labels or owners beyond these.
 */
export function stubOf(object: KubernetesObject): KubernetesObject {
  const meta = object.metadata ?? {};
  const metadata: V1ObjectMeta = {};
  for (const key of ['name', 'namespace', 'uid', 'resourceVersion', 'deletionTimestamp'] as const) {
    if (meta[key] !== undefined) Object.assign(metadata, { [key]: meta[key] });
  }
  const labels = landlordLabels(meta.labels);
  if (labels !== undefined) metadata.labels = labels;
  const owner = controllerOf(object) ?? meta.ownerReferences?.[0];
  if (owner !== undefined) metadata.ownerReferences = [ownerStub(owner)];
  const updaters = landlordUpdaters(meta.managedFields);
  if (updaters.length > 0) metadata.managedFields = updaters;
  return { apiVersion: object.apiVersion, kind: object.kind, metadata };
}

/** A child cache's shaping: undefined (kept whole, as its kind says) when made for a Tenant, else its stub. */
export const childStub = (object: KubernetesObject): KubernetesObject | undefined =>
  madeForTenant(object) ? undefined : stubOf(object);

function landlordLabels(labels: Record<string, string> | undefined): Record<string, string> | undefined {
  if (labels === undefined) return undefined;
  const kept = LANDLORD_LABELS.filter((key) => labels[key] !== undefined);
  return kept.length === 0 ? undefined : Object.fromEntries(kept.map((key) => [key, labels[key]!]));
}

function ownerStub(owner: V1OwnerReference): V1OwnerReference {
  const { apiVersion, kind, name, uid } = owner;
  return owner.controller === true
    ? { apiVersion, kind, name, uid, controller: true }
    : { apiVersion, kind, name, uid };
}

function landlordUpdaters(entries: readonly V1ManagedFieldsEntry[] | undefined): V1ManagedFieldsEntry[] {
  return (entries ?? [])
    .filter(
      (e) =>
        e.operation === 'Update' && e.subresource === undefined && LANDLORD_MANAGERS.has(e.manager ?? ''),
    )
    .map((e) => ({ manager: e.manager, operation: 'Update' }));
}
