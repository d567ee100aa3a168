// The status the purger owns on a Tenant: status.purge and the Purged condition. Built from the
// purge as it stands, so that an unchanged purge yields exactly what the Tenant already says and
// writing it can be skipped. Pure.
import { isDeepStrictEqual } from 'node:util';
import { rfc3339, sameConditions, toCondition, type ConditionInput } from '../api/conditions.js';
import type { TableMismatch } from '../api/table-identity.js';
import {
  CONDITION,
  type Condition,
  type DatabasePurgeStatus,
  type PurgePhase,
  type PurgeStatus,
  type TablePurgeStatus,
  type Tenant,
} from '../api/tenant.js';
import { PURGER_MESSAGE, PURGER_REASON } from './reasons.js';

/** Everything the purger writes, under its own field manager. */
export interface PurgerStatus {
  conditions: Condition[];
  /** Absent: the purger has no purge to report (it then drops what it wrote before). */
  purge?: PurgeStatus;
}

export function purgerStatus(
  tenant: Tenant,
  purge: PurgeStatus | undefined,
  condition: ConditionInput,
  now: Date,
): PurgerStatus {
  const built = toCondition(condition, tenant.status?.conditions, tenant.metadata.generation, now);
  return { conditions: [built], ...(purge === undefined ? {} : { purge }) };
}

/** True when the Tenant already says everything the purger would write. */
export function statusCurrent(tenant: Tenant, next: PurgerStatus): boolean {
  return (
    sameConditions(tenant.status?.conditions, next.conditions, [CONDITION.purged]) &&
    isDeepStrictEqual(tenant.status?.purge, next.purge)
  );
}

const condition = (status: 'True' | 'False', reason: string, message: string): ConditionInput => ({
  type: CONDITION.purged,
  status,
  reason,
  message,
});

/** What a purge empties, as its messages name it: each table, then each database. */
const tableNames = (purge: PurgeStatus): string[] => [
  ...purge.tables.map((t) => t.table),
  ...(purge.databases ?? []).map(databaseLabel),
];

/** A database as the purge's messages and failures name it. */
export const databaseLabel = (d: Pick<DatabasePurgeStatus, 'engine' | 'database'>): string =>
  `${d.engine} database ${d.database}`;

export const totalDeleted = (purge: PurgeStatus | undefined): number =>
  (purge?.tables ?? []).reduce((sum, t) => sum + t.deleted, 0);

/** The condition for a purge that is scheduled, running or completed. */
export function progressCondition(purge: PurgeStatus): ConditionInput {
  const tables = tableNames(purge);
  if (purge.phase === 'Completed')
    return condition('True', PURGER_REASON.purged, PURGER_MESSAGE.purged(purge.finishedAt ?? '', tables));
  if (purge.phase === 'Running')
    return condition('False', PURGER_REASON.purging, PURGER_MESSAGE.purging(tables));
  return condition('False', PURGER_REASON.scheduled, PURGER_MESSAGE.scheduled(purge.startsAt, tables));
}

export const failedCondition = (table: string, error: string, retried: boolean): ConditionInput =>
  condition('False', PURGER_REASON.failed, PURGER_MESSAGE.failed(table, error, retried));

export const cancelledCondition = (state: string, deleted: number): ConditionInput =>
  condition('False', PURGER_REASON.cancelled, PURGER_MESSAGE.cancelled(state, deleted));

export const refusedCondition = (mismatch: TableMismatch, tenantTables: readonly string[]): ConditionInput =>
  mismatch.cause === 'unmarked'
    ? condition('False', PURGER_REASON.unmanaged, PURGER_MESSAGE.unmanaged)
    : condition(
        'False',
        PURGER_REASON.otherTable,
        PURGER_MESSAGE.otherTable(mismatch.otherTable, tenantTables),
      );

export const heldBackCondition = (budget: number, retryAt: Date): ConditionInput =>
  condition('False', PURGER_REASON.heldBack, PURGER_MESSAGE.heldBack(budget, rfc3339(retryAt)));

export const noTablesCondition = (): ConditionInput =>
  condition('False', PURGER_REASON.noDataTables, PURGER_MESSAGE.noDataTables);

/** A new purge cycle: every configured table pending, nothing deleted yet. */
export function scheduledPurge(
  tenant: Tenant,
  times: { scheduledAt: string; startsAt: string },
  tables: readonly string[],
  databases: readonly DatabasePurgeStatus[] = [],
): PurgeStatus {
  return {
    phase: 'Scheduled',
    scheduledAt: times.scheduledAt,
    startsAt: times.startsAt,
    ...ownedBy(tenant),
    tables: tables.map((table) => ({ table, phase: 'Pending', deleted: 0 })),
    ...(databases.length === 0 ? {} : { databases: [...databases] }),
  };
}

/**
 * The purge as it starts (or resumes after a restart): the configured tables in order, each keeping
 * what an earlier attempt recorded, so counts go on from there and completed tables are not redone.
 */
export function startedPurge(
  tenant: Tenant,
  times: { scheduledAt: string; startsAt: string },
  tables: readonly string[] | { tables: readonly string[]; databases: readonly DatabasePurgeStatus[] },
  now: Date,
): PurgeStatus {
  // A list alone: the tables, no database (the tests' and an older caller's shape).
  const { tables: tableList, databases } = 'tables' in tables ? tables : { tables, databases: [] };
  const before = ownPurge(tenant);
  const earlier = new Map((before?.tables ?? []).map((t) => [t.table, t]));
  // The databases recorded when the purge was scheduled; those of the class now only for a purge
  // scheduled before databases were recorded.
  const dropping = (before?.databases ?? databases).map((d) =>
    d.phase === 'Completed' ? d : { ...d, phase: 'Pending' as const },
  );
  return {
    phase: 'Running',
    scheduledAt: times.scheduledAt,
    startsAt: times.startsAt,
    startedAt: before?.startedAt ?? rfc3339(now),
    ...ownedBy(tenant),
    tables: tableList.map((table) => resumed(earlier.get(table), table)),
    ...(dropping.length === 0 ? {} : { databases: dropping }),
  };
}

/** The purge with one database changed. */
export function withDatabase(
  purge: PurgeStatus,
  name: string,
  change: Partial<DatabasePurgeStatus>,
): PurgeStatus {
  return {
    ...purge,
    databases: (purge.databases ?? []).map((d) => (d.name === name ? { ...d, ...change } : d)),
  };
}

/** A table an earlier attempt left: completed stays completed; anything else is pending again. */
function resumed(earlier: TablePurgeStatus | undefined, table: string): TablePurgeStatus {
  if (earlier === undefined) return { table, phase: 'Pending', deleted: 0 };
  return earlier.phase === 'Completed' ? earlier : { ...earlier, phase: 'Pending' };
}

/** The purge with one table changed. */
export function withTable(purge: PurgeStatus, table: string, change: Partial<TablePurgeStatus>): PurgeStatus {
  return { ...purge, tables: purge.tables.map((t) => (t.table === table ? { ...t, ...change } : t)) };
}

/** The purge at an end (Completed, Failed, Cancelled). */
export function endedPurge(purge: PurgeStatus, phase: PurgePhase, now: Date): PurgeStatus {
  return { ...purge, phase, finishedAt: rfc3339(now) };
}

/**
 * Records the Tenant's generation, so a later spec change can start a new cycle, and its uid, so a
 * Tenant made again under the same name does not take the purge over.
 */
function ownedBy(tenant: Tenant): { observedGeneration?: number; uid?: string } {
  const { generation, uid } = tenant.metadata;
  return {
    ...(generation === undefined ? {} : { observedGeneration: generation }),
    ...(uid === undefined ? {} : { uid }),
  };
}

/**
 * The Tenant's purge, if it is this Tenant's: one recorded for another uid (a former Tenant of the
 * same name) is none. A purge recorded without a uid (before uids were recorded) is the Tenant's.
 */
export function ownPurge(tenant: Tenant): PurgeStatus | undefined {
  const purge = tenant.status?.purge;
  if (purge?.uid === undefined || purge.uid === tenant.metadata.uid) return purge;
  return undefined;
}
