// The one decision sync makes about a tenant: from the row as recorded, the Tenant as cached, the
// takedown approval and what the tenant's history is owed, the next write to make, if any. Every
// path asks here: intake and the informer ("is there anything to queue?") and the reconciler ("what
// do I do now?"), so they can never disagree, and an unchanged table costs no API writes. A Tenant
// sync did not make from its own table is never written to nor deleted, only reported; and every
// takedown, whatever its cause (a deletion, or a state that removes the children), waits for the
// takedown budget's approval.
import { findCondition } from '../api/conditions.js';
import { ANNOTATION, CONDITION, type Tenant } from '../api/tenant.js';
import {
  ownedAnnotations,
  ownedLabels,
  ownership,
  type ForeignCause,
  type Ownership,
  type TableIdentity,
} from './identity.js';
import type { NewestRevision } from '../api/revision.js';
import type { TakedownCause } from './takedown-budget.js';
import { takedownOf } from './takedown.js';
import type { Applied, RowState } from './row-book.js';
import { desiredStatus, naming, statusCurrent, type OwnedStatus, type Verdict } from './status.js';

/** Everything decide() looks at, gathered for one tenant at one moment. */
export interface Situation {
  /** The row as last read; undefined when it is gone from the table (or was never read). */
  row: RowState | undefined;
  /** What sync concluded about the row; undefined for a gone or `deleted: true` row. */
  verdict: Verdict | undefined;
  /** The Tenant of this name, whoever made it. */
  tenant: Tenant | undefined;
  /** The conflict last reported for this name (see Conflict.key), so that one is reported once. */
  reported: string | undefined;
  /** The scan pass whose takedown budget approved taking this Tenant down, if one did. */
  approval: number | undefined;
  /** Why the budget holds back the row's takedown by state (archived, purged), if it does. */
  heldBack: string | undefined;
  /** A spec whose apply timed out twice, not sent again before `until` (ms) unless the row changes. */
  parked?: { hash: string; until: number } | undefined;
  /** The spec sync itself applied last, so that its own write is not taken for an edit. */
  applied: Applied | undefined;
  /** The revision sync recorded since the status last named one, for the status to name. */
  recorded?: NewestRevision | undefined;
  /** A revision an earlier apply could not write: the uid of the Tenant whose history it belongs to. */
  owedRevision?: { uid: string } | undefined;
  /** This is the first decision of a reconcile, the one that pays an owed revision. */
  reconcileStart?: boolean;
  identity: TableIdentity;
  now: Date;
}

type Foreign = Extract<Ownership, { kind: 'foreign' }>;

/** A row names a Tenant that sync did not make from this table. */
export interface Conflict {
  cause: ForeignCause;
  /** The table the Tenant's annotation names, when another sync made it. */
  otherTable?: string;
  /** The Tenant's uid and the cause: a new conflict (another object, another cause) is reported again. */
  key: string;
}

export type SyncAction =
  /** Write the revision an earlier apply could not write (history/revision-debts.ts). */
  | { kind: 'writeRevision' }
  /** The Tenant an owed revision was for is gone, and its history with it: the debt is dropped. */
  | { kind: 'forgetRevision' }
  /** Apply the row's spec (with this hash), labels and annotations: create or update the Tenant. */
  | { kind: 'applySpec'; hash: string }
  /** A refused row with no Tenant yet: create one without a spec, to carry the refusal. */
  | { kind: 'createBare' }
  /** Write the Synced condition and status.sync; `verdict` says what to report. */
  | { kind: 'applyStatus'; status: OwnedStatus; verdict: Verdict }
  /** The row says `deleted: true` and the takedown budget approved the deletion in this pass. */
  | { kind: 'delete'; pass: number }
  /** The row is gone and the budget approved the deletion: read it once more, strongly, then delete. */
  | { kind: 'confirmGone'; pass: number }
  /**
   * The row is gone, says `deleted: true` or takes the Tenant down by its state, but no budget
   * approved it yet: the takedown approver decides when.
   */
  | { kind: 'awaitApproval'; cause: TakedownCause }
  /** The row names a Tenant sync did not make from this table: say so (log, metric, Event), touch nothing. */
  | { kind: 'reportForeign'; conflict: Conflict }
  | { kind: 'nothing' };

/** Actions that are work for the queue; the others need no reconcile. */
export function needsReconcile(action: SyncAction): boolean {
  return action.kind !== 'nothing' && action.kind !== 'awaitApproval';
}

/** The labels and the table annotation sync sets are all in place. */
function metadataCurrent(tenant: Tenant, identity: TableIdentity): boolean {
  const labels = tenant.metadata.labels ?? {};
  const annotations = tenant.metadata.annotations ?? {};
  return (
    Object.entries(ownedLabels(identity)).every(([key, value]) => labels[key] === value) &&
    Object.entries(ownedAnnotations(identity)).every(([key, value]) => annotations[key] === value)
  );
}

/**
 * Someone else changed the spec since sync last synced it: the generation moved past the one its
 * Synced=True condition observed. Only sync writes the spec, and it writes the condition right
 * after; a generation it has not seen is an edit the row must overwrite.
 */
function editedSinceSynced(tenant: Tenant): boolean {
  const synced = findCondition(tenant.status?.conditions, CONDITION.synced);
  return (
    synced?.status === 'True' &&
    synced.observedGeneration !== undefined &&
    synced.observedGeneration !== tenant.metadata.generation
  );
}

/** This generation is the one sync's own apply of this hash produced, before its status said so. */
const ownApply = (tenant: Tenant, hash: string, applied: Applied | undefined): boolean =>
  applied?.hash === hash && applied.generation === tenant.metadata.generation;

/** The Tenant holds the spec of the row with this hash (as its row-hash annotation records). */
export function specCurrent(
  tenant: Tenant | undefined,
  hash: string,
  identity: TableIdentity,
  applied?: Applied,
): boolean {
  return (
    tenant !== undefined &&
    tenant.metadata.deletionTimestamp === undefined &&
    tenant.metadata.annotations?.[ANNOTATION.rowHash] === hash &&
    metadataCurrent(tenant, identity) &&
    (!editedSinceSynced(tenant) || ownApply(tenant, hash, applied))
  );
}

const NOTHING: SyncAction = { kind: 'nothing' };

/** A row that is not there: deleting its Tenant needs the takedown budget's approval first. */
function decideGone(s: Situation): SyncAction {
  // An approval alone asks for the confirming read, Tenant or not, so that the approval is settled.
  if (s.approval !== undefined) return { kind: 'confirmGone', pass: s.approval };
  return s.tenant === undefined ? NOTHING : { kind: 'awaitApproval', cause: 'rowGone' };
}

/** A row that says `deleted: true`: explicit, but counted against the same budget as a gone row. */
function decideMarkedDeleted(s: Situation): SyncAction {
  if (s.tenant === undefined) return NOTHING;
  return s.approval === undefined
    ? { kind: 'awaitApproval', cause: 'rowDeleted' }
    : { kind: 'delete', pass: s.approval };
}

/**
 * The Tenant is not this sync's: a row naming it is reported once per conflict and left at that;
 * without a row there is nothing to say. One being deleted is waited for: then the name is free.
 */
function decideForeign(s: Situation, tenant: Tenant, owner: Foreign): SyncAction {
  if (s.row === undefined || tenant.metadata.deletionTimestamp !== undefined) return NOTHING;
  const key = `${tenant.metadata.uid ?? ''}/${owner.cause}/${owner.otherTable ?? ''}`;
  if (s.reported === key) return NOTHING;
  const otherTable = owner.otherTable === undefined ? {} : { otherTable: owner.otherTable };
  return { kind: 'reportForeign', conflict: { cause: owner.cause, ...otherTable, key } };
}

/**
 * A valid row whose spec the Tenant does not hold yet. One that takes the Tenant down by its state
 * waits for the budget like a deletion; held back, the Tenant keeps its spec and Synced says why.
 */
function decideApply(s: Situation, tenant: Tenant | undefined, hash: string): SyncAction {
  if (s.parked?.hash === hash && s.now.getTime() < s.parked.until) return NOTHING;
  const takedown = s.row?.kind === 'tenant' ? takedownOf(s.row.state, tenant) : undefined;
  if (takedown === undefined || s.approval !== undefined) return { kind: 'applySpec', hash };
  if (s.heldBack === undefined) return { kind: 'awaitApproval', cause: takedown };
  const verdict: Verdict = { kind: 'heldBack', message: s.heldBack };
  const status = naming(desiredStatus(verdict, tenant, s.identity.table, s.now), s.recorded);
  return statusCurrent(tenant, status)
    ? { kind: 'awaitApproval', cause: takedown }
    : { kind: 'applyStatus', status, verdict };
}

/**
 * A revision owed by an earlier reconcile is paid first, before any other write, so that revisions
 * keep the order of applies; and only at the start of a reconcile: one that fails again waits for
 * the tenant's next reconcile (the queue's backoff) and never holds up the Tenant's own writes.
 */
function decideOwedRevision(s: Situation): SyncAction | undefined {
  if (s.owedRevision === undefined || s.reconcileStart !== true) return undefined;
  return s.tenant?.metadata.uid === s.owedRevision.uid
    ? { kind: 'writeRevision' }
    : { kind: 'forgetRevision' };
}

export function decide(s: Situation): SyncAction {
  return decideOwedRevision(s) ?? decideTenant(s);
}

function decideTenant(s: Situation): SyncAction {
  const owner = s.tenant === undefined ? undefined : ownership(s.tenant, s.identity);
  if (owner?.kind === 'foreign') return decideForeign(s, s.tenant!, owner);
  if (s.row?.kind === 'deleted') return decideMarkedDeleted(s);
  if (s.row === undefined || s.verdict === undefined) return decideGone(s);
  const verdict = s.verdict;
  // A rejected spec is not sent again until the row changes: only its status is compared.
  if (verdict.kind === 'synced' && !specCurrent(s.tenant, verdict.hash, s.identity, s.applied))
    return decideApply(s, s.tenant, verdict.hash);
  if (s.tenant === undefined) return { kind: 'createBare' };
  const status = naming(desiredStatus(verdict, s.tenant, s.identity.table, s.now), s.recorded);
  return statusCurrent(s.tenant, status) ? NOTHING : { kind: 'applyStatus', status, verdict };
}
