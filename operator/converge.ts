// Making a Tenant's children match its spec, in order: look each child up in the cache, check the
// Tenant may own it and the namespace it goes in, apply those that drifted or are not there, delete
// owned children the spec no longer names. A child is read from the API only when its apply finds
// an object the cache does not show (apply.ts): a new Tenant's children cost one request each, not
// a read and a write.
import type { KubernetesObject, V1Deployment } from '@kubernetes/client-node';
import type { Tenant } from '../api/tenant.js';
import type { KubeApi } from '../runtime/kube/api.js';
import { KeyedLock } from '../util/keyed-lock.js';
import { Applier, readChild, type Applied, type QuotaWait } from './apply.js';
import { childKey, childRef, type ChildChange, type ChildRef } from './child-ref.js';
import type { DesiredChild } from './desired.js';
import type { ObservedState } from './observed.js';
import { controlledBy, namespaceClaim, ownership } from './ownership.js';
import { ChildPruner, type Pruned } from './prune.js';
import { ReconcileError, retryable, stall } from './reconcile-error.js';
import { requestedState } from './lifecycle.js';
import { OPERATOR_REASON } from './reasons.js';

export interface Converged {
  changes: ChildChange[];
  /** The freshest copy of the (first) Deployment: the apply response when it was just applied. */
  deployment: V1Deployment | undefined;
  /** The freshest copy of every Deployment applied, by child key (a tenant of several). */
  deployments: ReadonlyMap<string, V1Deployment>;
  /** Children kept until the Deployment replacing them has rolled out (prune.ts). */
  pruneHeld?: Pruned['held'];
  /** A child changed while it was being applied, after the version reported here: look again. */
  changedMeanwhile: boolean;
  /** The Deployment and ConfigMaps were not applied: they wait for the quota to be enforced. */
  quotaWait?: QuotaWait;
}

/** Warm pool members just claimed, as the pool handed them over (pool/claim.ts). */
export interface ClaimedMembers {
  /** A child the member held, which the Tenant's caches do not show until its apply labels it. */
  memberHeld(ref: ChildRef): KubernetesObject | undefined;
  /** The member's fences are the Tenant's already: its workload goes with them, not after them. */
  fencedAlready(namespace: string): boolean;
}

const NO_CLAIMS: ClaimedMembers = { memberHeld: () => undefined, fencedAlready: () => false };

export class Converger {
  private readonly locks = new KeyedLock();
  private readonly applier: Applier;
  private readonly pruner: ChildPruner;

  /**
   * `claimed`: a warm pool member's children, when the Tenant just claimed it, are applied by the
   * uids the pool wrote them with, not read first; and its workload with its fences, in one wave.
   */
  constructor(
    private readonly api: KubeApi,
    private readonly observed: ObservedState,
    private readonly claimed: ClaimedMembers = NO_CLAIMS,
  ) {
    this.applier = new Applier(api);
    this.pruner = new ChildPruner(api, observed);
  }

  /**
   * Two Tenants may name the same child. Reading, checking ownership and applying happen under a lock
   * per child, so the second one reads the first one's child and is refused, instead of both seeing
   * it absent and the later apply taking it over. Only the leader writes: a process lock suffices.
   */
  converge(
    tenant: Tenant,
    desired: readonly DesiredChild[],
    retained: readonly ChildRef[] = [],
  ): Promise<Converged> {
    return this.locks.withKeys(
      desired.map((d) => childKey(d.ref)),
      () => this.convergeLocked(tenant, desired, retained),
    );
  }

  /**
   * `retained`: children kept as they are, neither applied nor pruned (a copy whose source is gone).
   * A takedown (suspended, archived, purged) is carried out whatever state a child is in: a child
   * the Tenant may not own is left alone and reported once the rest is applied and pruned, never a
   * reason to keep the workload running.
   */
  private async convergeLocked(
    tenant: Tenant,
    desired: readonly DesiredChild[],
    retained: readonly ChildRef[],
  ): Promise<Converged> {
    const takedown = requestedState(tenant) !== 'active';
    const cached = desired.map(
      (child) => this.observed.child(child.ref) ?? this.claimed.memberHeld(child.ref),
    );
    const refused = this.refusedChildren(tenant, desired, cached, takedown);
    this.assertNamespacesFree(tenant, desired);
    const kept = desired.filter((_, i) => !refused.has(i));
    const applying = this.applyHoldingEvents(
      tenant,
      kept,
      cached.filter((_, i) => !refused.has(i)),
    );
    // In a takedown, a refusal met while applying (an object the cache did not show) waits too.
    const applied = await applying.catch((err: unknown) => {
      if (!takedown || !(err instanceof ReconcileError) || err.retry) throw err;
      return err;
    });
    const pruned = await this.pruner.prune(tenant, desired, retained);
    const done = settled(applied, refused);
    const changes = [...done.changes, ...pruned.changes];
    const deployments = new Map<string, V1Deployment>();
    kept.forEach((d, i) => {
      const object = done.objects[i];
      if (d.ref.kind === 'Deployment' && object !== undefined)
        deployments.set(childKey(d.ref), this.observed.throughBump(d.ref, object));
    });
    const first = kept.find((d) => d.ref.kind === 'Deployment');
    const deployment = first === undefined ? undefined : deployments.get(childKey(first.ref));
    const held = pruned.held === undefined ? {} : { pruneHeld: pruned.held };
    const waiting = done.quotaWait === undefined ? {} : { quotaWait: done.quotaWait };
    return { changes, deployment, deployments, changedMeanwhile: done.changedMeanwhile, ...held, ...waiting };
  }

  /**
   * The children this Tenant may not own, by index, with why: outside a takedown the first one
   * stops the reconcile (thrown), as does a child an earlier Tenant still holds.
   */
  private refusedChildren(
    tenant: Tenant,
    desired: readonly DesiredChild[],
    cached: readonly (KubernetesObject | undefined)[],
    takedown: boolean,
  ): Map<number, string> {
    const refused = new Map<number, string>();
    desired.forEach((child, i) => {
      try {
        this.assertOwnable(tenant, child.ref, cached[i]);
      } catch (err) {
        if (!takedown || !(err instanceof ReconcileError) || err.retry) throw err;
        refused.set(i, err.message);
      }
    });
    return refused;
  }

  /**
   * Applies what drifted. The children's watch events that come meanwhile, their echoes mostly,
   * wake nobody (ObservedState.convergeStarted); one newer than what this reconcile reports from
   * makes it look again.
   */
  private async applyHoldingEvents(
    tenant: Tenant,
    desired: readonly DesiredChild[],
    cached: readonly (KubernetesObject | undefined)[],
  ): Promise<Applied & { changedMeanwhile: boolean }> {
    const refs = desired.map((child) => child.ref);
    this.observed.convergeStarted(tenant.metadata.name!, refs);
    const namespace = refs.find((ref) => ref.kind === 'Namespace')?.name;
    const together = namespace !== undefined && this.claimed.fencedAlready(namespace);
    const applied = await this.applier
      .applyDrifted(tenant.metadata.name!, desired, cached, {
        claim: (ref) => this.claimUnseen(tenant, ref),
        together,
      })
      .catch((err: unknown) => {
        // The retry reads the caches afresh: what came meanwhile needs no second look.
        refs.forEach((ref) => this.observed.convergeEnded(ref, undefined));
        throw err;
      });
    applied.objects.forEach((object, i) => {
      if (object !== undefined && object !== cached[i])
        this.observed.childApplied(refs[i]!, object, applied.before[i]);
    });
    const missed = refs.map((ref, i) => this.observed.convergeEnded(ref, applied.objects[i]));
    return { ...applied, changedMeanwhile: missed.includes(true) };
  }

  /** The Tenant is gone: drop what was remembered of its children. */
  forget(tenant: string): void {
    this.applier.forget(tenant);
  }

  /**
   * An apply found an object the cache does not show (not labelled for a Tenant: made by hand or by
   * another tool): read it, and refuse it unless it is this Tenant's.
   */
  private async claimUnseen(tenant: Tenant, ref: ChildRef): Promise<KubernetesObject | undefined> {
    const live = await readChild(this.api, ref);
    this.assertOwnable(tenant, ref, live);
    return live;
  }

  /**
   * A PerTenant namespace holds one tenant: a child of another Tenant (a Shared row naming that
   * namespace) is refused there, as an object someone else owns would be.
   */
  private assertNamespacesFree(tenant: Tenant, desired: readonly DesiredChild[]): void {
    const namespaces = new Set(desired.map((d) => d.ref.namespace).filter((ns) => ns !== ''));
    for (const namespace of namespaces) {
      const ref = childRef('Namespace', '', namespace);
      const problem = namespaceClaim(tenant, this.observed.child(ref));
      if (problem === undefined) continue;
      this.observed.refusedOverChild(ref, tenant.metadata.name!);
      throw stall(OPERATOR_REASON.conflict, problem);
    }
  }

  private assertOwnable(tenant: Tenant, ref: ChildRef, live: KubernetesObject | undefined): void {
    const namespace =
      ref.namespace === '' ? undefined : this.observed.child(childRef('Namespace', '', ref.namespace));
    const decision = ownership(tenant, ref, live, controlledBy(tenant, namespace));
    if (decision.verdict === 'ok') return;
    if (decision.verdict === 'earlierTenant') throw retryable(OPERATOR_REASON.conflict, decision.message);
    this.observed.refusedOverChild(ref, tenant.metadata.name!);
    throw stall(OPERATOR_REASON.conflict, decision.message);
  }
}

/** What a takedown's apply left, once pruning is done: the refusals it met, thrown now. */
function settled(
  applied: (Applied & { changedMeanwhile: boolean }) | ReconcileError,
  refused: ReadonlyMap<number, string>,
): Applied & { changedMeanwhile: boolean } {
  const problems = [...refused.values()];
  if (applied instanceof ReconcileError) {
    if (problems.length === 0) throw applied;
    problems.push(applied.message);
  }
  if (problems.length > 0) throw stall(OPERATOR_REASON.conflict, problems.join('; '));
  return applied as Applied & { changedMeanwhile: boolean };
}
