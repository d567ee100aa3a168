// A tenant's side of the warm pool, in its reconcile: which namespace it holds, and the claim of a
// member for a new one. The namespace object is the record of the claim: a Tenant holds the
// namespace labelled with its name and controlled by its uid, so a restarted operator finds it in
// its cache and never claims a second one. The claim is one write, a merge patch of the member
// conditioned on the resourceVersion the cache showed, that swaps the pool label for the tenant's
// and the TenantClass owner for the Tenant: the API server's compare-and-swap decides between two
// claimers (two tenants, or two operator replicas across a leader change), so a member is never
// claimed twice and never left half-claimed. A 409 means another won: the next member is tried.
// What the pool wrote in the member goes to the tenant's first apply (memberHeld, fencedAlready):
// its objects are applied by uid, without a read, and in one wave when the member is current.
import type { KubernetesObject, V1Deployment, V1Namespace } from '@kubernetes/client-node';
import {
  ANNOTATION,
  FIELD_MANAGER,
  LABEL,
  MANAGED_BY,
  tenantOwnerReference,
  type Tenant,
} from '../../api/tenant.js';
import { fillId, type ClassPolicy } from '../../api/tenantclass.js';
import { CONTENT_TYPE, isConflict, isNotFound, type KubeApi } from '../../runtime/kube/api.js';
import { apiPath } from '../../runtime/kube/paths.js';
import type { Logger } from '../../runtime/logger.js';
import type { Metrics } from '../../runtime/metrics.js';
import { childKey, childRef, errorText, type ChildRef } from '../child-ref.js';
import { coldId } from '../namespaces/ids.js';
import type { ObservedState } from '../observed.js';
import { controlledBy } from '../ownership.js';
import { retryable } from '../reconcile-error.js';
import { createdAt } from '../policy/index.js';
import { OPERATOR_REASON } from '../reasons.js';
import type { PoolCaches } from '../watches.js';
import type { PoolController } from './controller.js';
import { claimOrder, type Member } from './members.js';

/** Members whose contents are kept for their claiming tenant's first apply, at most. */
const MAX_HANDED = 500;

/** What a claimed member held, and whether it was made from its class's current pool spec. */
interface Handed {
  objects: Map<string, KubernetesObject>;
  current: boolean;
}

/** How a new tenant of a pooled class was placed: a claimed member, or a namespace made cold. */
export type Placement = 'warm' | 'cold';

export interface PoolClaimsDeps {
  api: KubeApi;
  observed: ObservedState;
  caches: PoolCaches;
  controller: PoolController;
  metrics: Metrics;
  logger: Logger;
  /**
   * Since when no other operator acts (epoch ms): this replica's start of leading, plus what may
   * separate the API server's clock from ours and a crashed leader's last write from our lease (the
   * lease duration). A Tenant created after it was never seen by another leader (createdLater).
   */
  aloneSince: number;
}

export class PoolClaims {
  /**
   * Tenant uid → the member it claimed, until the namespace watch shows the claim: a reconcile that
   * follows at once must find it, not claim another. Bounded by the claims in flight.
   */
  private readonly claimed = new Map<string, string>();
  /** Tenant name → when it was placed and how: its first Ready is the claim-to-Ready time. */
  private readonly placedAt = new Map<string, { at: number; how: Placement }>();
  /**
   * Claimed member → what it held (PoolController.handOver), until the tenant's children are applied
   * there and its caches show them (dropLeftovers). Bounded: the oldest goes first, and a tenant
   * whose record went reads what it finds, as after a restart.
   */
  private readonly handed = new Map<string, Handed>();
  /** Tenant uids whose claim went unanswered (it may have been made): the next claim asks first. */
  private readonly unsure = new Set<string>();

  constructor(private readonly deps: PoolClaimsDeps) {}

  /** The namespace this Tenant holds (by label and owner uid), if any is known without asking the API. */
  held(tenant: Tenant, template: string): string | undefined {
    const { observed } = this.deps;
    const uid = tenant.metadata.uid ?? '';
    for (const ref of observed.childrenOf(tenant.metadata.name!)) {
      if (ref.kind !== 'Namespace' || !controlledBy(tenant, observed.child(ref))) continue;
      this.claimed.delete(uid);
      return ref.name;
    }
    const claimed = this.claimed.get(uid);
    if (claimed !== undefined) return claimed;
    // Made cold by an earlier reconcile whose namespace the watch has not shown yet.
    const cold = fillId(template, coldId(uid));
    return controlledBy(tenant, observed.child(childRef('Namespace', '', cold))) ? cold : undefined;
  }

  /**
   * Claims a Ready member for a new tenant, or says there was none (undefined: go cold). First asks
   * the API server whether the Tenant holds a namespace already (one claimed just before a restart
   * or a leader change, which this replica's watch may not show yet): the one read that makes "no
   * second claim" hold whatever the caches say. Only a Tenant another leader may have seen pays it,
   * or one whose claim here went unanswered: a Tenant created since this replica acts alone, and
   * whose every claim here was answered, holds only what `held` knows.
   */
  async claim(tenant: Tenant, tenantClass: ClassPolicy): Promise<string | undefined> {
    if (!this.createdLater(tenant) || this.unsure.has(tenant.metadata.uid ?? '')) {
      const existing = await this.holdingLive(tenant);
      if (existing !== undefined) return existing;
    }
    const className = tenantClass.name;
    const tc = this.deps.observed.tenantClasses().find((c) => c.metadata.name === className);
    const members = this.deps.controller.membersOf(className, tc?.metadata.uid ?? '');
    const current = this.deps.controller.hashOf(className);
    const order = claimOrder(tenant.metadata.name!, members, current);
    // Every Ready member, until one is won: each 409 is one cheap request and means another claimer
    // took that member (a burst as large as the pool would otherwise go cold with members left).
    for (const member of order) {
      const won = await this.tryClaim(tenant, member, member.hash === current);
      if (won) return member.name;
    }
    return undefined;
  }

  /** The one write of a claim; false when another claimer changed the member first. */
  private async tryClaim(
    tenant: Tenant,
    { name, resourceVersion }: Pick<Member, 'name' | 'resourceVersion'>,
    current: boolean,
  ): Promise<boolean> {
    const ref = childRef('Namespace', '', name);
    try {
      const result = await this.deps.api.request<V1Namespace>({
        method: 'PATCH',
        path: apiPath(ref),
        query: { fieldManager: FIELD_MANAGER.operatorClaim },
        contentType: CONTENT_TYPE.merge,
        body: {
          metadata: {
            resourceVersion,
            labels: {
              [LABEL.pool]: null,
              [LABEL.tenant]: tenant.metadata.name,
              [LABEL.managedBy]: MANAGED_BY.operator,
            },
            annotations: { [ANNOTATION.poolHash]: null },
            ownerReferences: [tenantOwnerReference(tenant)],
          },
        },
      });
      this.claimed.set(tenant.metadata.uid ?? '', name);
      this.deps.observed.childApplied(ref, result);
      this.keepHanded(name, { objects: this.deps.controller.handOver(name), current });
      this.deps.controller.wake();
      return true;
    } catch (err) {
      if (isConflict(err) || isNotFound(err)) return false;
      this.unsure.add(tenant.metadata.uid ?? '');
      throw retryable(OPERATOR_REASON.applyFailed, `claiming warm namespace ${name}: ${errorText(err)}`);
    }
  }

  /**
   * Created after no other operator could act (aloneSince), by the API server's clock to the second:
   * a second rounded down only makes a Tenant look older, and one without a timestamp is old.
   */
  private createdLater(tenant: Tenant): boolean {
    const created = Date.parse(createdAt(tenant.metadata.creationTimestamp) ?? '');
    return created >= this.deps.aloneSince;
  }

  /** A namespace labelled with the Tenant and controlled by its uid, as the API server has it now. */
  private async holdingLive(tenant: Tenant): Promise<string | undefined> {
    try {
      const list = await this.deps.api.request<{ items: V1Namespace[] }>({
        method: 'GET',
        path: apiPath({ apiVersion: 'v1', kind: 'Namespace' }),
        query: { labelSelector: `${LABEL.tenant}=${tenant.metadata.name}` },
        verb: 'list',
      });
      const held = list.items.find((ns) => controlledBy(tenant, ns));
      const name = held?.metadata?.name;
      this.unsure.delete(tenant.metadata.uid ?? '');
      if (name !== undefined) this.claimed.set(tenant.metadata.uid ?? '', name);
      return name;
    } catch (err) {
      throw retryable(OPERATOR_REASON.applyFailed, `looking for the tenant's namespace: ${errorText(err)}`);
    }
  }

  private keepHanded(member: string, held: Handed): void {
    this.handed.set(member, held);
    if (this.handed.size > MAX_HANDED) this.handed.delete(this.handed.keys().next().value!);
  }

  /**
   * A child in a member just claimed, as the pool wrote it, while the tenant's caches do not show it
   * yet: its uid lets the tenant's apply change that very object without reading it first.
   */
  memberHeld(ref: ChildRef): KubernetesObject | undefined {
    return this.handed.get(ref.namespace)?.objects.get(childKey(ref));
  }

  /**
   * The namespace is a member just claimed, made from its class's current pool spec: the quota,
   * LimitRange and NetworkPolicy the tenant wants are there and enforced already (they name no
   * tenant), so its workload need not wait for its fences to be applied again.
   */
  fencedAlready(namespace: string): boolean {
    return this.handed.get(namespace)?.current === true;
  }

  /** A new tenant was placed: counted, and timed until its first Ready. */
  placed(tenant: string, className: string, how: Placement): void {
    this.deps.metrics.poolClaimsTotal.inc({ class: className, result: how });
    this.placedAt.set(tenant, { at: Date.now(), how });
  }

  /** The Tenant's status now says Ready: the first time since it was placed is observed. */
  readyNow(tenant: string): void {
    const placed = this.placedAt.get(tenant);
    if (placed === undefined) return;
    this.placedAt.delete(tenant);
    this.deps.metrics.poolClaimToReadySeconds.observe(
      { result: placed.how },
      (Date.now() - placed.at) / 1000,
    );
  }

  /**
   * After the tenant's children were applied in a member it claimed: the pool's Deployment, when
   * the row's has another name, is the member's leftover (the tenant took over a same-named one,
   * which dropped the pool label). Found in the pool cache, so a converged tenant costs nothing.
   */
  async dropLeftovers(namespace: string, deployments: readonly string[]): Promise<void> {
    // Applied as the tenant's: its own caches show them from now on.
    this.handed.delete(namespace);
    const cached = this.deps.caches.deployments?.list(namespace) ?? [];
    const leftovers = cached.filter(
      (d) =>
        !deployments.includes(d.metadata?.name ?? '') && (d.metadata?.ownerReferences ?? []).length === 0,
    );
    for (const leftover of leftovers) await this.deleteLeftover(namespace, leftover);
  }

  private async deleteLeftover(namespace: string, leftover: V1Deployment): Promise<void> {
    const meta = leftover.metadata ?? {};
    try {
      await this.deps.api.request({
        method: 'DELETE',
        path: apiPath(childRef('Deployment', namespace, meta.name ?? '')),
        body: { kind: 'DeleteOptions', apiVersion: 'v1', preconditions: { uid: meta.uid } },
      });
    } catch (err) {
      if (!isNotFound(err) && !isConflict(err)) throw err;
    }
  }

  /** The Tenant is gone. */
  forget(tenant: Tenant | string): void {
    if (typeof tenant === 'string') {
      this.placedAt.delete(tenant);
      return;
    }
    this.placedAt.delete(tenant.metadata.name!);
    this.claimed.delete(tenant.metadata.uid ?? '');
    this.unsure.delete(tenant.metadata.uid ?? '');
  }
}
