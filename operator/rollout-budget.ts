// The upgrade budget: a release that changes what the operator adds to every tenant's pod template
// (workload/template-revision.ts) would otherwise restart every tenant's pods at once, as every
// Tenant reconciles at start-up. A Deployment that would change only for that reason takes a slot
// first; at most LANDLORD_OPERATOR_UPGRADE_ROLLOUTS hold one, and a slot frees when its
// Deployment's rollout is over (rollout.ts). A Tenant without a slot keeps its running Deployment
// as it is, says so (TemplateUpgradePending), and is woken when a slot frees. A rollout the Tenant
// asked for (its row, class or state changed) needs no slot and carries the additions with it.
// The slots live in the leader's memory; a new leader counts them again from the cache: the
// Deployments at the new revision still rolling out (seedFrom).
import type { V1Deployment } from '@kubernetes/client-node';
import type { ChildRef } from './child-ref.js';
import { rolloutSettled } from './rollout.js';
import { revisionOf, type UpgradeCause } from './workload/template-revision.js';

/**
 * How many Deployments may roll out an upgrade at once: a number, or a share of the Tenants ("5%"),
 * at least 1 either way.
 */
export function rolloutLimit(setting: string, tenants: number): number {
  const share = /^(\d+)%$/.exec(setting);
  if (share === null) return Math.max(1, Number.parseInt(setting, 10) || 1);
  return Math.max(1, Math.floor((tenants * Number(share[1])) / 100));
}

export interface BudgetDeps {
  /** The current limit (rolloutLimit over the Tenants there are now). */
  limit: () => number;
  /** Whether the rollout of the Deployment a slot was taken for is over (or it is gone). */
  settled: (ref: ChildRef) => boolean;
  /** Queues a waiting Tenant's reconcile: a slot is free for it. */
  wake: (tenant: string) => void;
}

/**
 * The slots, by Tenant, and the Tenants waiting for one, oldest first. Both hold at most one entry
 * per Tenant, dropped with it. Pure but for the callbacks.
 */
export class RolloutBudget {
  private readonly holders = new Map<string, ChildRef>();
  /** Insertion-ordered: a Tenant that waited longest is woken first. */
  private readonly waiting = new Set<string>();
  /** Woken for a free slot and not reconciled yet: each stands for one free slot. */
  private readonly woken = new Set<string>();

  constructor(private readonly deps: BudgetDeps) {}

  /** Slots held now (the in-flight gauge). */
  get rolling(): number {
    return this.holders.size;
  }

  /** Tenants waiting for a slot (the pending gauge). */
  get pending(): number {
    return this.waiting.size;
  }

  /** Whether the Tenant may start its upgrade's rollout now: it holds a slot, or takes a free one. */
  take(tenant: string, ref: ChildRef): boolean {
    this.woken.delete(tenant);
    if (this.holders.has(tenant)) return true;
    if (this.holders.size >= this.deps.limit()) this.releaseSettled();
    if (this.holders.size < this.deps.limit()) {
      this.holders.set(tenant, ref);
      this.waiting.delete(tenant);
      return true;
    }
    // To the back of the line: another was woken or took the slot first.
    this.waiting.delete(tenant);
    this.waiting.add(tenant);
    return false;
  }

  /**
   * The Tenant's Deployment needs no slot (any more): it stops waiting, and a slot it holds frees
   * once its rollout is over.
   */
  pass(tenant: string): void {
    this.woken.delete(tenant);
    const waited = this.waiting.delete(tenant);
    const ref = this.holders.get(tenant);
    if (ref !== undefined && this.deps.settled(ref)) this.holders.delete(tenant);
    if (waited || ref !== undefined) this.wakeNext();
  }

  /** The Tenant is gone (or paused for good): whatever it held or waited for goes. */
  forget(tenant: string): void {
    const held = this.holders.delete(tenant);
    this.waiting.delete(tenant);
    this.woken.delete(tenant);
    if (held) this.wakeNext();
  }

  /** A new leader's count: the Deployments still rolling an upgrade, by Tenant. */
  seed(rolling: Iterable<[string, ChildRef]>): void {
    for (const [tenant, ref] of rolling) this.holders.set(tenant, ref);
  }

  /** Frees the slots whose rollouts are over: a holder paused meanwhile, or one whose event was missed. */
  private releaseSettled(): void {
    for (const [tenant, ref] of this.holders) if (this.deps.settled(ref)) this.holders.delete(tenant);
  }

  /** Wakes as many waiting Tenants as there are free slots nobody was woken for yet. */
  private wakeNext(): void {
    let free = this.deps.limit() - this.holders.size - this.woken.size;
    for (const tenant of this.waiting) {
      if (free <= 0) return;
      if (this.woken.has(tenant)) continue;
      this.woken.add(tenant);
      free -= 1;
      this.deps.wake(tenant);
    }
  }
}

/** What the workload facet asks in a reconcile (facets/contract.ts ClusterView). */
export interface TemplateUpgrades {
  /** The template revision this operator writes. */
  readonly revision: number;
  /** The Deployment as the cache holds it. */
  live(ref: ChildRef): V1Deployment | undefined;
  /**
   * Whether the Deployment may be written at `revision` now, for a change of this cause: always
   * but for `operator`, which needs a slot. The answer records the Tenant as waiting, or not.
   */
  admit(tenant: string, ref: ChildRef, cause: UpgradeCause): boolean;
}

export interface GateDeps {
  revision: number;
  /** LANDLORD_OPERATOR_UPGRADE_ROLLOUTS. */
  limit: string;
  tenantCount: () => number;
  deployment: (ref: ChildRef) => V1Deployment | undefined;
  wake: (tenant: string) => void;
}

/** The leader's budget, reading Deployments from the operator's cache. */
export class TemplateUpgradeGate implements TemplateUpgrades {
  readonly revision: number;
  private readonly budget: RolloutBudget;
  /** The limit and when it was computed: counting the Tenants lists them, so once a second at most. */
  private counted = { at: -Infinity, limit: 1 };

  constructor(private readonly deps: GateDeps) {
    this.revision = deps.revision;
    this.budget = new RolloutBudget({
      limit: () => this.limit,
      settled: (ref) => this.settled(ref),
      wake: deps.wake,
    });
  }

  live(ref: ChildRef): V1Deployment | undefined {
    return this.deps.deployment(ref);
  }

  admit(tenant: string, ref: ChildRef, cause: UpgradeCause): boolean {
    if (cause === 'operator') return this.budget.take(tenant, ref);
    this.budget.pass(tenant);
    return true;
  }

  /** The Tenant is gone: its slot (if any) frees, its wait ends. */
  forget(tenant: string): void {
    this.budget.forget(tenant);
  }

  /** A person paused the Tenant: it stops waiting; a slot it holds frees once its rollout is over. */
  paused(tenant: string): void {
    this.budget.pass(tenant);
  }

  get rolling(): number {
    return this.budget.rolling;
  }

  get pending(): number {
    return this.budget.pending;
  }

  get limit(): number {
    const now = Date.now();
    if (now - this.counted.at >= 1_000)
      this.counted = { at: now, limit: rolloutLimit(this.deps.limit, this.deps.tenantCount()) };
    return this.counted.limit;
  }

  /**
   * Counts the slots again from the cache, as a new leader must: every Deployment at this revision
   * whose rollout is not over. One the Tenant asked for counts too until it ends: a new leader
   * cannot tell them apart, and counting it only slows the upgrade a little.
   */
  seedFrom(deployments: Iterable<[string, ChildRef]>): void {
    const rolling = [...deployments].filter(([, ref]) => {
      const live = this.deps.deployment(ref);
      return live !== undefined && revisionOf(live) >= this.revision && !rolloutSettled(live);
    });
    this.budget.seed(rolling);
  }

  private settled(ref: ChildRef): boolean {
    const live = this.deps.deployment(ref);
    return live === undefined || (revisionOf(live) >= this.revision && rolloutSettled(live));
  }
}
