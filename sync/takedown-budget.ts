// The takedown budget. A table that reads as empty by mistake (a wrong table, a restore in
// progress, a bug), or a writer who marks every row `deleted: true` or `archived`, must not take
// every tenant down: sync takes down at most max(minimum, floor(fraction × Tenants)) Tenants per
// resync interval, whatever the cause (a row gone, moved to another cluster, saying `deleted: true`,
// or setting state archived or purged) and whether a scan or the stream reported it.
// Everything here is pure or plain state, so the budget is tested without a table or a cluster.
import type { Tenant } from '../api/tenant.js';
import type { StateTakedown } from './takedown.js';

/** Why a Tenant is to be deleted: its row is gone, or says `deleted: true`. Both share one budget. */
export type DeletionCause = 'rowGone' | 'rowDeleted';
/**
 * Why a Tenant is to be taken down: deleted, or its row sets a state that removes its children
 * (archived) or its data (purged). A row moved to another cluster is, here, a row gone. One budget.
 */
export type TakedownCause = DeletionCause | StateTakedown;

export interface TakedownLimits {
  /** Share of all managed Tenants one interval may delete (0..1). */
  fraction: number;
  /** Deletions always allowed, so that small tables can be managed at all. */
  minimum: number;
}

export function allowance(tenants: number, limits: TakedownLimits): number {
  return Math.max(limits.minimum, Math.floor(limits.fraction * tenants));
}

export interface TakedownPlan {
  approved: string[];
  heldBack: string[];
}

/** The deletions left in the current resync interval. */
export class TakedownBudget {
  private left = 0;

  constructor(private readonly limits: TakedownLimits) {}

  get remaining(): number {
    return this.left;
  }

  /** A new interval starts (after a complete scan), sized from the Tenants there are now. */
  reset(tenants: number): number {
    this.left = allowance(tenants, this.limits);
    return this.left;
  }

  /** Asks for `wanted` deletions; returns how many are granted. */
  take(wanted: number): number {
    const granted = Math.max(0, Math.min(wanted, this.left));
    this.left -= granted;
    return granted;
  }

  /** Approves the first names the budget allows, in the order given; the rest are held back. */
  plan(names: readonly string[]): TakedownPlan {
    const granted = this.take(names.length);
    return { approved: names.slice(0, granted), heldBack: names.slice(granted) };
  }
}

/** The Tenants that count towards the budget: those not already being deleted. */
export function liveTenants(tenants: readonly Tenant[]): Tenant[] {
  return tenants.filter((tenant) => tenant.metadata.deletionTimestamp === undefined);
}

/**
 * The names of live Tenants to delete (their rows are gone, or say `deleted: true`), sorted so that
 * which ones are held back does not depend on the cache's order.
 */
export function doomedTenants(live: readonly Tenant[], doomed: (name: string) => boolean): string[] {
  return live
    .map((tenant) => tenant.metadata.name ?? '')
    .filter((name) => name !== '' && doomed(name))
    .sort();
}

/**
 * A complete scan starts a new interval (unless `newInterval` is false: a poll of the cluster index
 * within the interval): the budget is sized from the live Tenants, and those to delete are approved
 * in name order until it runs out. The takedown approver and `landlord plan` both ask here.
 */
export function afterCompleteScan(
  budget: TakedownBudget,
  tenants: readonly Tenant[],
  doomed: (name: string) => boolean,
  newInterval = true,
): TakedownPlan & { doomed: string[] } {
  const live = liveTenants(tenants);
  if (newInterval) budget.reset(live.length);
  const names = doomedTenants(live, doomed);
  return { doomed: names, ...budget.plan(names) };
}

/** The held-back names whose last Event is at least `intervalMs` old (or that never had one). */
export function dueForEvent(
  names: readonly string[],
  lastEventAt: ReadonlyMap<string, number>,
  now: number,
  intervalMs: number,
): string[] {
  return names.filter((name) => now - (lastEventAt.get(name) ?? -Infinity) >= intervalMs);
}
