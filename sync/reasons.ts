// Every reason and message sync writes where people read them: the Synced condition, Events and
// the log. Messages name the table and the problem but hold no timestamps, counts or request ids,
// so an unchanged situation never rewrites a Tenant's status or starts a new Event.
// Named as every component's are: <OWNER>_REASON (its condition's reasons), _EVENT (its Event
// reasons), _MESSAGE (what they say) and _LOG (its log lines), the owner here the component
// (SYNC_), so one name means one thing (docs/architecture.md).
import type { DeletionCause } from './takedown-budget.js';
import type { StateTakedown } from './takedown.js';
import type { ForeignCause } from './identity.js';

/** Reasons of the Synced condition. */
export const SYNC_REASON = {
  rowSynced: 'RowSynced',
  invalidRecord: 'InvalidRecord',
  applyRejected: 'ApplyRejected',
  takedownHeldBack: 'TakedownHeldBack',
} as const;

/**
 * Reasons of the Events sync records on Tenants: Warnings only. A creation or an update is announced
 * by the operator (naming the children it made); status.sync holds the row hash and when it changed.
 */
export const SYNC_EVENT = {
  invalidRecord: 'InvalidRecord',
  applyRejected: 'ApplyRejected',
  deletionsHeldBack: 'DeletionsHeldBack',
  takedownHeldBack: 'TakedownHeldBack',
  notOwned: 'NotOwnedBySync',
} as const;

const quoted = (text: string): string => JSON.stringify(text);

const HELD_BACK_CAUSE: Record<DeletionCause, (table: string) => string> = {
  rowGone: (table) => `the row is gone from DynamoDB table ${quoted(table)}`,
  rowDeleted: (table) => `the row in DynamoDB table ${quoted(table)} says deleted: true`,
};

const FOREIGN_CAUSE: Record<ForeignCause, (otherTable: string | undefined) => string> = {
  unmarked: () => 'it is not labelled managed-by landlord-sync: it was made by hand or by another tool',
  otherTable: (other) =>
    other === undefined ? 'its labels name another table' : `its labels name table ${quoted(other)}`,
  otherCluster: () =>
    "its cluster label is not this sync's cluster (or it has none, and this sync does not claim rows without a cluster)",
};
const percent = (fraction: number): string => `${Math.round(fraction * 1000) / 10}%`;

export const SYNC_MESSAGE = {
  synced: (table: string): string => `synced from its row in DynamoDB table ${quoted(table)}`,
  applyRejected: (detail: string): string =>
    `the API server rejected the Tenant built from this row; fix the row: ${detail.slice(0, 1000)}`,
  heldBack: (table: string, cause: DeletionCause, fraction: number, minimum: number): string =>
    `${HELD_BACK_CAUSE[cause](table)}, but deleting this Tenant now would exceed the deletions allowed ` +
    `per resync, whatever their cause (the larger of ${minimum} and ${percent(fraction)} of all Tenants); ` +
    `it is deleted in a later pass if the row ${cause === 'rowGone' ? 'is still gone' : 'still says so'}`,
  takedownHeldBack: (table: string, state: StateTakedown, fraction: number, minimum: number): string =>
    `the row in DynamoDB table ${quoted(table)} sets state ${state}, but taking this Tenant down now would ` +
    `exceed the takedowns allowed per pass, whatever their cause (deleted, gone, archived, purged, moved; ` +
    `the larger of ${minimum} and ${percent(fraction)} of all Tenants): it keeps its previous state, and the ` +
    'row is applied in a later pass',
  notOwned: (table: string, cause: ForeignCause, otherTable: string | undefined): string =>
    `a row of DynamoDB table ${quoted(table)} names this Tenant, but sync did not make it from that table ` +
    `(${FOREIGN_CAUSE[cause](otherTable)}): it is left as it is, neither updated nor deleted; rename the ` +
    'row, or delete this Tenant to let sync create it from the row',
} as const;

/** Log lines, so that searching the logs for one finds every occurrence. */
export const SYNC_LOG = {
  created: 'created tenant',
  updated: 'updated tenant',
  refused: 'row refused: the last valid spec stays applied',
  rejected: 'the API server rejected the tenant built from the row',
  deletedByRow: 'deleted tenant: its row says deleted: true',
  deletedGone: 'deleted tenant: its row is gone from the table',
  invalidName: 'row skipped: its name cannot name a Tenant',
  heldBack: 'deletions held back: more Tenants are to be deleted than one resync may delete',
  takenDown: 'applied a takedown the budget approved: the row sets state archived or purged',
  notOwned: 'row left alone: its Tenant was not made by this sync from this table',
  scanComplete: 'scan complete',
  scanFailed: 'scan failed: nothing is pruned; retrying',
  streamFailed: 'reading the stream failed; retrying',
  rescan: 'the stream lost its place; scanning the whole table',
  writeFailed: 'syncing the tenant failed; retrying',
  writeParked: 'applying the row timed out twice: not resent until the row changes or the wait is over',
  revisionRecorded: 'recorded a revision of the tenant',
  revisionFailed: 'recording a revision of the tenant failed; retrying',
  rowStatusWritten: "told the row its tenant's readiness",
  rowStatusSkipped: 'the row changed before its readiness was written: it is told once sync has read it',
  rowStatusFailed: "telling the row its tenant's readiness failed; retrying",
} as const;
