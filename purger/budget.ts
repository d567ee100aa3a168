// The hourly purge budget: at most so many purges start in any one hour, so that a table whose rows
// all say purged at once (a mistake, or a hostile writer) loses a handful of tenants' data, not all.
// A purge over the budget waits and starts when the hour's oldest start leaves the window.
import type { Tenant } from '../api/tenant.js';
import { ownPurge } from './status.js';

export const BUDGET_WINDOW_MS = 3_600_000;

export type Admission = { admitted: true } | { admitted: false; retryAt: number };

/**
 * Whether one more purge may start at `now`, given when the others started (ms since the epoch,
 * any order). Starts an hour old or older no longer count. Pure.
 */
export function admitPurge(starts: readonly number[], now: number, perHour: number): Admission {
  const recent = starts.filter((at) => at > now - BUDGET_WINDOW_MS && at <= now).sort((a, b) => a - b);
  if (recent.length < perHour) return { admitted: true };
  // The start whose leaving the window makes room for this one.
  return { admitted: false, retryAt: recent[recent.length - perHour]! + BUDGET_WINDOW_MS };
}

/**
 * Purge starts, by Tenant uid: those this process began (recorded before its first await, so two
 * reconciles at once cannot both take the last slot, and kept when the Tenant goes) and those the
 * Tenants' status records (so a restart or a new leader keeps the count).
 */
export class PurgeStarts {
  private readonly started = new Map<string, number>();

  /** Every start still within the window, this process's and the Tenants' own. */
  recent(tenants: readonly Tenant[], now: number): number[] {
    for (const [uid, at] of this.started) if (at <= now - BUDGET_WINDOW_MS) this.started.delete(uid);
    const starts = new Map(this.started);
    for (const tenant of tenants) {
      const startedAt = ownPurge(tenant)?.startedAt;
      const uid = tenant.metadata.uid;
      if (startedAt !== undefined && uid !== undefined && !starts.has(uid))
        starts.set(uid, Date.parse(startedAt));
    }
    return [...starts.values()];
  }

  record(uid: string, at: number): void {
    this.started.set(uid, at);
  }
}
