// May this Tenant own this child? Pure: decided from the Tenant and the child as it exists (or
// does not), so the converger only acts on the answer.
import type { KubernetesObject, V1OwnerReference } from '@kubernetes/client-node';
import { KIND, LABEL, MANAGED_BY, type Tenant } from '../api/tenant.js';
import { describeRef, type ChildRef } from './child-ref.js';

export type Ownership =
  /** Absent, already this Tenant's, or landlord's for it and lost (lostByTenant): apply it. */
  | { verdict: 'ok' }
  /**
   * Another owner (or no owner: an object landlord did not make) holds it. Permanent until the
   * other owner lets go, so the Tenant stalls; the child's deletion wakes it.
   */
  | { verdict: 'conflict'; message: string }
  /**
   * It belongs to an earlier Tenant of the same name (deleted and made again): the garbage
   * collector is about to remove it, so the Tenant retries meanwhile.
   */
  | { verdict: 'earlierTenant'; message: string };

function controllerOf(obj: KubernetesObject): V1OwnerReference | undefined {
  return obj.metadata?.ownerReferences?.find((o) => o.controller === true);
}

/** Made by a warm pool for a member (pool/member-objects.ts): labelled with its class. */
const fromPool = (obj: KubernetesObject): boolean => obj.metadata?.labels?.[LABEL.pool] !== undefined;

/**
 * An object landlord made for this Tenant that lost its controller: labelled as the operator's and
 * as this Tenant's, in the Tenant's own namespace, and controlled by nobody (a tenant team with
 * `edit` removed the ownerReference, where the admission policy landlord-tenant-managed-objects is
 * not installed). The Tenant takes it back (its apply names the owner again) or prunes it, so such
 * an edit never stops a takedown. Anywhere else, or labelled for another Tenant, or held by another
 * controller, it is not the Tenant's to take.
 */
export function lostByTenant(tenant: Tenant, live: KubernetesObject, inOwnNamespace: boolean): boolean {
  const labels = live.metadata?.labels;
  return (
    inOwnNamespace &&
    controllerOf(live) === undefined &&
    labels?.[LABEL.managedBy] === MANAGED_BY.operator &&
    labels[LABEL.tenant] === tenant.metadata.name
  );
}

/** Owned by nobody, in the Tenant's own namespace: a warm pool member's, or landlord's and lost. */
const ownerless = (tenant: Tenant, live: KubernetesObject, inOwnNamespace: boolean): boolean =>
  (controllerOf(live) === undefined && inOwnNamespace && fromPool(live)) ||
  lostByTenant(tenant, live, inOwnNamespace);

/** This very Tenant (by uid, not name) is the child's controller: only then may it prune the child. */
export function controlledBy(tenant: Tenant, live: KubernetesObject | undefined): boolean {
  const uid = tenant.metadata.uid;
  return uid !== undefined && live !== undefined && controllerOf(live)?.uid === uid;
}

/**
 * `inOwnNamespace`: the child's namespace is controlled by this Tenant. There, an object a warm
 * pool member held before the Tenant claimed it (labelled with the pool, owned by nobody) is the
 * Tenant's to take over; anywhere else it is someone else's.
 */
export function ownership(
  tenant: Tenant,
  ref: ChildRef,
  live: KubernetesObject | undefined,
  inOwnNamespace = false,
): Ownership {
  if (live === undefined) return { verdict: 'ok' };
  const owner = controllerOf(live);
  if (owner?.uid === tenant.metadata.uid) return { verdict: 'ok' };
  if (ownerless(tenant, live, inOwnNamespace)) return { verdict: 'ok' };
  if (owner?.kind === KIND && owner.name === tenant.metadata.name) {
    return {
      verdict: 'earlierTenant',
      message: `${describeRef(ref)} still belongs to an earlier Tenant named ${owner.name}; waiting for the garbage collector to remove it`,
    };
  }
  const holder =
    owner === undefined ? 'is not managed by landlord' : `is owned by ${owner.kind} ${owner.name}`;
  return {
    verdict: 'conflict',
    message: `${describeRef(ref)} already exists and ${holder}; rename the child or remove the other owner's claim`,
  };
}

/**
 * Why the Tenant's children may not go into this namespace: it is another Tenant's own (PerTenant).
 * Undefined when the namespace is not a Tenant's, or is this one's.
 */
export function namespaceClaim(tenant: Tenant, namespace: KubernetesObject | undefined): string | undefined {
  const owner = namespace === undefined ? undefined : controllerOf(namespace);
  if (owner?.kind !== KIND || owner.uid === tenant.metadata.uid) return undefined;
  const name = namespace?.metadata?.name ?? '';
  return `namespace ${name} is the namespace of Tenant ${owner.name}, which no other tenant's children may enter; use another namespace`;
}
