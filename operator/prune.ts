// Deleting the children a Tenant owns but its spec no longer names. Only children this Tenant is
// the controller of: a child merely labelled for it may belong to someone else. A Namespace is never
// pruned: a class change (another name template, a move to Shared) must not delete whatever the
// tenant keeps there; the namespace goes with its Tenant, by the garbage collector.
import type { Tenant } from '../api/tenant.js';
import { isNotFound, type KubeApi } from '../runtime/kube/api.js';
import { apiPath } from '../runtime/kube/paths.js';
import { childKey, describeRef, errorText, type ChildChange, type ChildRef } from './child-ref.js';
import type { DesiredChild } from './desired.js';
import type { ObservedState } from './observed.js';
import { controlledBy } from './ownership.js';
import { retryable } from './reconcile-error.js';
import { REASON } from './reasons.js';

export class ChildPruner {
  constructor(
    private readonly api: KubeApi,
    private readonly observed: ObservedState,
  ) {}

  async prune(tenant: Tenant, desired: readonly DesiredChild[]): Promise<ChildChange[]> {
    const wanted = new Set(desired.map((d) => childKey(d.ref)));
    const stale = this.observed.childrenOf(tenant.metadata.name!).filter((ref) => !wanted.has(childKey(ref)));
    const pruned: ChildChange[] = [];
    for (const ref of stale) {
      if (ref.kind === 'Namespace') continue;
      if (!controlledBy(tenant, this.observed.child(ref))) continue;
      await this.delete(ref, tenant.metadata.uid!);
      pruned.push({ action: 'pruned', ref });
    }
    return pruned;
  }

  private async delete(ref: ChildRef, ownerUid: string): Promise<void> {
    const live = this.observed.child(ref);
    try {
      await this.api.request({
        method: 'DELETE',
        path: apiPath(ref),
        // The precondition makes sure a same-named replacement created meanwhile is never deleted.
        body: {
          kind: 'DeleteOptions',
          apiVersion: 'v1',
          preconditions: { uid: live?.metadata?.uid },
          propagationPolicy: 'Background',
        },
      });
    } catch (err) {
      if (isNotFound(err)) return;
      throw retryable(
        REASON.applyFailed,
        `pruning ${describeRef(ref)} (owner ${ownerUid}): ${errorText(err)}`,
      );
    }
  }
}
