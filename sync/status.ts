// The status sync owns on a Tenant: the Synced condition and status.sync. Computed from what sync
// concluded about the row and the Tenant as it is, so that an unchanged row yields exactly the
// status the Tenant already has, and writing it can be skipped.
import {
  findCondition,
  rfc3339,
  sameConditions,
  toCondition,
  type ConditionInput,
} from '../api/conditions.js';
import { ANNOTATION, CONDITION, type Condition, type SyncStatus, type Tenant } from '../api/tenant.js';
import type { NewestRevision } from '../api/revision.js';
import { SYNC_MESSAGE, SYNC_REASON } from './reasons.js';

/** What sync concluded about a row that names a Tenant. */
export type Verdict =
  /** The row is valid and its spec (with this hash) is what the Tenant should hold. */
  | { kind: 'synced'; hash: string }
  /** The row failed validation; the message names the attribute and the problem. */
  | { kind: 'invalid'; message: string }
  /** The row (with this hash) parsed, but the API server refused the Tenant built from it. */
  | { kind: 'rejected'; hash: string; message: string }
  /** The row takes the Tenant down (archived, purged) and the takedown budget holds it back for now. */
  | { kind: 'heldBack'; message: string };

export interface OwnedStatus {
  conditions: Condition[];
  sync: SyncStatus;
}

function conditionInput(verdict: Verdict, table: string): ConditionInput {
  const type = CONDITION.synced;
  switch (verdict.kind) {
    case 'synced':
      return { type, status: 'True', reason: SYNC_REASON.rowSynced, message: SYNC_MESSAGE.synced(table) };
    case 'invalid':
      return { type, status: 'False', reason: SYNC_REASON.invalidRecord, message: verdict.message };
    case 'rejected':
      return { type, status: 'False', reason: SYNC_REASON.applyRejected, message: verdict.message };
    case 'heldBack':
      return { type, status: 'False', reason: SYNC_REASON.takedownHeldBack, message: verdict.message };
  }
}

const sameFacts = (a: Condition | undefined, b: Condition): boolean =>
  a !== undefined && a.status === b.status && a.reason === b.reason && a.message === b.message;

/** The newest revision the status already names (history turned off keeps the last one named). */
function namedRevision(tenant: Tenant | undefined): Pick<SyncStatus, 'revision' | 'revisionHash'> {
  const previous = tenant?.status?.sync;
  if (previous?.revision === undefined || previous.revisionHash === undefined) return {};
  return { revision: previous.revision, revisionHash: previous.revisionHash };
}

/** The status naming a revision just recorded, for the next record() to start from. */
export function naming(status: OwnedStatus, recorded: NewestRevision | undefined): OwnedStatus {
  if (recorded === undefined) return status;
  return { ...status, sync: { ...status.sync, revision: recorded.revision, revisionHash: recorded.hash } };
}

export function desiredStatus(
  verdict: Verdict,
  tenant: Tenant | undefined,
  table: string,
  now: Date,
): OwnedStatus {
  const previous = tenant?.status;
  const condition = toCondition(
    conditionInput(verdict, table),
    previous?.conditions,
    tenant?.metadata.generation,
    now,
  );
  // The hash of the row last read; a row that cannot be parsed has none, and a held-back one is not
  // applied yet, so the hash of the spec the Tenant still holds stands. A rejected row's hash lets a
  // restarted sync know it was refused.
  const rowHash =
    'hash' in verdict ? verdict.hash : (tenant?.metadata.annotations?.[ANNOTATION.rowHash] ?? '');
  const unchanged =
    previous?.sync !== undefined &&
    previous.sync.rowHash === rowHash &&
    sameFacts(findCondition(previous.conditions, CONDITION.synced), condition);
  // lastChangedTime moves only when sync reads a row whose content differs from what the Tenant
  // held. The time of the last read would move on every scan, and writing it would cost one status
  // write per Tenant per resync; the steady state must cost no writes at all.
  const lastChangedTime = unchanged ? previous.sync!.lastChangedTime : rfc3339(now);
  return {
    conditions: [condition],
    sync: { table, rowHash, lastChangedTime, ...namedRevision(tenant) },
  };
}

/** True when the Tenant already holds exactly this status, so there is nothing to write. */
export function statusCurrent(tenant: Tenant | undefined, desired: OwnedStatus): boolean {
  const status = tenant?.status;
  const sync = status?.sync;
  return (
    sameConditions(status?.conditions, desired.conditions, [CONDITION.synced]) &&
    sync !== undefined &&
    sync.table === desired.sync.table &&
    sync.rowHash === desired.sync.rowHash &&
    sync.lastChangedTime === desired.sync.lastChangedTime &&
    sync.revision === desired.sync.revision &&
    sync.revisionHash === desired.sync.revisionHash
  );
}

/** The refusal the Tenant records for the row with this hash, if the API server rejected that row. */
export function recordedRejection(tenant: Tenant | undefined, hash: string): string | undefined {
  const synced = findCondition(tenant?.status?.conditions, CONDITION.synced);
  const rejected = synced?.reason === SYNC_REASON.applyRejected && tenant?.status?.sync?.rowHash === hash;
  return rejected ? synced.message : undefined;
}
