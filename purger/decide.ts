// What the purger should do about one Tenant now: the one answer the reconciler acts on. Pure: the
// Tenant as the cache holds it, the clock and the settings in, a decision out.
//
// The safety rules live here. A purge starts only from an explicit `state: purged` on a Tenant that
// is not being deleted (a vanished or `deleted` row removes the Tenant, never its data), and only
// once the delay has passed since the purger first saw that state, a time kept in status so that a
// restart does not reset the clock. Only a Tenant sync made from one of the purger's tenant tables
// is purged; a purge belongs to the Tenant (uid) it was scheduled for, not to its name.
import { findCondition, rfc3339 } from '../api/conditions.js';
import { fromTables, type TableMismatch } from '../api/table-identity.js';
import { CONDITION, type PurgePhase, type PurgeStatus, type Tenant } from '../api/tenant.js';
import { PURGER_REASON } from './reasons.js';
import { ownPurge } from './status.js';

export type PurgeDecision =
  /** Nothing to do or to say. */
  | { kind: 'nothing' }
  /** State purged, but sync did not make the Tenant from a tenant table of the purger's: delete nothing. */
  | { kind: 'refuse'; mismatch: TableMismatch }
  /** State purged, but no data table is configured: say so, delete nothing. */
  | { kind: 'noTables' }
  /** First seen in state purged (again): record the time; deleting starts at startsAt. */
  | { kind: 'schedule'; scheduledAt: string; startsAt: string }
  /** Scheduled; the delay has not passed. Look again at startsAt. */
  | { kind: 'wait'; scheduledAt: string; startsAt: string }
  /**
   * Delete now: the delay has passed (`fresh`: a new start, which the hourly budget must admit), or
   * a purge that was running (before a restart) or failed goes on.
   */
  | { kind: 'start'; scheduledAt: string; startsAt: string; fresh: boolean }
  /** The state left purged before the purge completed: stop, and say what was deleted. */
  | { kind: 'cancel' };

export interface DecideInput {
  delayMs: number;
  tableCount: number;
  /** The tenant tables whose Tenants may be purged (as sync marks them). */
  tenantTables: readonly string[];
  /** The generation whose purge failed for good in this process, if any: not started again. */
  stalledGeneration?: number;
}

/** Phases of a purge that has not reached an end: leaving state purged cancels these. */
const OPEN: ReadonlySet<PurgePhase> = new Set(['Scheduled', 'Running', 'Failed']);

export function decidePurge(tenant: Tenant, now: Date, input: DecideInput): PurgeDecision {
  if (tenant.metadata.deletionTimestamp !== undefined) return { kind: 'nothing' };
  const purge = ownPurge(tenant);
  if (tenant.spec?.state !== 'purged')
    return openPurge(tenant, purge) ? { kind: 'cancel' } : { kind: 'nothing' };
  // A completed purge stays recorded whatever the configuration says now.
  const completed = purge?.phase === 'Completed' && !newCycle(tenant, purge);
  if (completed) return { kind: 'nothing' };
  const source = fromTables(tenant, input.tenantTables);
  if ('mismatch' in source) return { kind: 'refuse', mismatch: source.mismatch };
  if (input.tableCount === 0) return { kind: 'noTables' };
  if (purge === undefined || newCycle(tenant, purge)) {
    const scheduledAt = rfc3339(now);
    return { kind: 'schedule', scheduledAt, startsAt: startsAt(scheduledAt, input.delayMs) };
  }
  return carryOn(tenant, purge, now, input);
}

/** A purge already scheduled in this cycle: wait, start (or resume), or leave an end as it is. */
function carryOn(tenant: Tenant, purge: PurgeStatus, now: Date, input: DecideInput): PurgeDecision {
  const { scheduledAt } = purge;
  const starts = startsAt(scheduledAt, input.delayMs);
  switch (purge.phase) {
    case 'Scheduled':
      return now.getTime() < Date.parse(starts)
        ? { kind: 'wait', scheduledAt, startsAt: starts }
        : { kind: 'start', scheduledAt, startsAt: starts, fresh: true };
    case 'Running':
      return { kind: 'start', scheduledAt, startsAt: starts, fresh: false };
    case 'Failed':
      return input.stalledGeneration === tenant.metadata.generation
        ? { kind: 'nothing' }
        : { kind: 'start', scheduledAt, startsAt: starts, fresh: false };
    default:
      return { kind: 'nothing' };
  }
}

/**
 * A new purge cycle: the last one was cancelled, or it completed and the spec changed since (the
 * state went to active and back, so data written meanwhile is purged again).
 */
function newCycle(tenant: Tenant, purge: PurgeStatus): boolean {
  if (purge.phase === 'Cancelled') return true;
  return purge.phase === 'Completed' && purge.observedGeneration !== tenant.metadata.generation;
}

/** Reports of a purge that never began, withdrawn as a purge is cancelled when the state leaves purged. */
const WITHDRAWN: ReadonlySet<string> = new Set([
  PURGER_REASON.noDataTables,
  PURGER_REASON.unmanaged,
  PURGER_REASON.otherTable,
]);

/** A purge that leaving state purged cancels; a refusal or a NoDataTables report is withdrawn the same way. */
function openPurge(tenant: Tenant, purge: PurgeStatus | undefined): boolean {
  if (purge !== undefined) return OPEN.has(purge.phase);
  return WITHDRAWN.has(findCondition(tenant.status?.conditions, CONDITION.purged)?.reason ?? '');
}

/** The persisted first sighting plus the delay as configured now (a changed delay moves it). */
function startsAt(scheduledAt: string, delayMs: number): string {
  return rfc3339(new Date(Date.parse(scheduledAt) + delayMs));
}

/** Whether a running purge of this Tenant may go on: still purged, and not being deleted. */
export function keepsPurging(tenant: Tenant | undefined): boolean {
  return (
    tenant !== undefined && tenant.metadata.deletionTimestamp === undefined && tenant.spec?.state === 'purged'
  );
}
