// Deleting the children a Tenant owns but its spec no longer names. Only children this Tenant is
// the controller of: a child merely labelled for it may belong to someone else. A Namespace is never
// pruned: a class change (another name template, a move to Shared) must not delete whatever the
// tenant keeps there; the namespace goes with its Tenant, by the garbage collector.
// A Deployment left in another namespace (the tenant moved by its class: Shared to PerTenant, or a
// new name template) keeps serving until its replacement has rolled out: until then nothing is
// pruned, so the old pods keep their ConfigMaps, ServiceAccount and fences too. A replacement that
// never rolls out (a quota too small in the new namespace) leaves the old one running, never the
// tenant down. A Deployment renamed within its namespace is pruned at once, as before: there both
// share one quota, and the old one's pods could keep the new one from ever rolling out.
import type { KubernetesObject, V1Deployment } from '@kubernetes/client-node';
import type { Tenant } from '../api/tenant.js';
import type { KubeApi } from '../runtime/kube/api.js';
import { deleteChild } from './child-delete.js';
import { childKey, childRef, type ChildChange, type ChildRef } from './child-ref.js';
import type { DesiredChild } from './desired.js';
import type { ObservedState } from './observed.js';
import { controlledBy, lostByTenant } from './ownership.js';
import { rolloutGap } from './rollout.js';

/** What a reconcile pruned, or what it keeps until the Deployment replacing it has rolled out. */
export interface Pruned {
  changes: ChildChange[];
  held?: { refs: ChildRef[]; until: ChildRef; gap: string };
}

/** The children a reconcile would prune now, or hold until `until` has rolled out (`gap`: what it lacks). */
export interface Stale {
  refs: ChildRef[];
  held?: { until: ChildRef; gap: string };
}

/** The children as one reconcile sees them: those labelled for the Tenant, and any one by its ref. */
export interface SeenChildren {
  labelled: readonly ChildRef[];
  child(ref: ChildRef): KubernetesObject | undefined;
}

/**
 * What to prune: the children labelled for the Tenant and controlled by it (or landlord's for it
 * and stripped of their owner, `prunable`) that are neither wanted
 * (`desired`) nor kept as they are (`retained`: a copy whose source is gone), never a Namespace.
 * Pure, and the one rule: the reconcile (ChildPruner) and `landlord plan` both ask it.
 */
export function staleChildren(
  tenant: Tenant,
  wanted: { desired: readonly DesiredChild[]; retained: readonly ChildRef[] },
  seen: SeenChildren,
): Stale {
  const kept = new Set([...wanted.desired.map((d) => d.ref), ...wanted.retained].map(childKey));
  const refs = seen.labelled
    .filter((ref) => !kept.has(childKey(ref)) && ref.kind !== 'Namespace')
    .filter((ref) => prunable(tenant, ref, seen));
  const next = wanted.desired.find((d) => d.ref.kind === 'Deployment')?.ref;
  const held = replacementPending(next, refs, (ref) => seen.child(ref));
  return held === undefined ? { refs } : { refs, held };
}

/**
 * Controlled by the Tenant, or made by landlord for it and stripped of its owner in the Tenant's
 * own namespace (lostByTenant): a takedown removes it either way.
 */
function prunable(tenant: Tenant, ref: ChildRef, seen: SeenChildren): boolean {
  const live = seen.child(ref);
  if (live === undefined) return false;
  if (controlledBy(tenant, live)) return true;
  const namespace = ref.namespace === '' ? undefined : seen.child(childRef('Namespace', '', ref.namespace));
  return lostByTenant(tenant, live, controlledBy(tenant, namespace));
}

export class ChildPruner {
  constructor(
    private readonly api: KubeApi,
    private readonly observed: ObservedState,
  ) {}

  async prune(
    tenant: Tenant,
    desired: readonly DesiredChild[],
    retained: readonly ChildRef[] = [],
  ): Promise<Pruned> {
    const seen = {
      labelled: this.observed.childrenOf(tenant.metadata.name!),
      child: (ref: ChildRef) => this.observed.child(ref),
    };
    const stale = staleChildren(tenant, { desired, retained }, seen);
    if (stale.held !== undefined) return { changes: [], held: { refs: stale.refs, ...stale.held } };
    const changes: ChildChange[] = [];
    for (const ref of stale.refs) {
      await this.delete(ref, tenant.metadata.uid!);
      changes.push({ action: 'pruned', ref });
    }
    return { changes };
  }

  private async delete(ref: ChildRef, ownerUid: string): Promise<void> {
    const live = this.observed.child(ref);
    await deleteChild(this.api, ref, live?.metadata?.uid, `pruning for Tenant uid ${ownerUid}`);
  }
}

/**
 * The wanted Deployment (`next`) and what its rollout lacks, when it replaces a stale one in another
 * namespace: until then nothing is pruned. Undefined when pruning may go ahead.
 */
function replacementPending(
  next: ChildRef | undefined,
  stale: readonly ChildRef[],
  deployment: (ref: ChildRef) => V1Deployment | undefined,
): { until: ChildRef; gap: string } | undefined {
  const moved = (ref: ChildRef): boolean => ref.kind === 'Deployment' && ref.namespace !== next?.namespace;
  if (next === undefined || !stale.some(moved)) return undefined;
  const live = deployment(next);
  const gap = live === undefined ? 'not created yet' : rolloutGap(live);
  return gap === undefined ? undefined : { until: next, gap };
}
