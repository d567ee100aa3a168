// What sync knows about each tenant, in one place: the rows as read (its own row book, which nothing
// else reaches), what each tenant's history is owed (history/revision-debts.ts), the Tenant cache
// (Tenants as watched and written) and the identity. Every path records here what it learnt (intake
// a row read or gone, the takedown approver an approved takedown, the reconciler what its writes
// did) and asks decide() here, so every path sees the same facts.
import { decide, type Situation, type SyncAction } from './decide.js';
import type { RevisionDraft, RowVia } from '../api/revision.js';
import { owns, type TableIdentity } from './identity.js';
import { RevisionDebts } from './history/revision-debts.js';
import { RowBook, type RowState } from './row-book.js';
import type { ParsedRow } from './row/index.js';
import { recordedRejection, type Verdict } from './status.js';
import { DEFAULT_STATE, type Tenant, type TenantSpec } from '../api/tenant.js';
import { takedownOf, type StateTakedown } from './takedown.js';
import type { TenantCache } from '../runtime/kube/tenant-cache.js';

/** A parsed row that names a Tenant (valid, `deleted: true`, or refused with a usable name). */
export type NamedRow = ParsedRow & { name: string };

/** What the book records of a row: its content, not the parse (the same content recorded twice is no change). */
function rowStateOf(row: NamedRow): RowState {
  switch (row.kind) {
    case 'tenant':
      return { kind: 'tenant', hash: row.hash, state: row.spec.state ?? DEFAULT_STATE };
    case 'deleted':
      return { kind: 'deleted' };
    case 'invalid':
      return { kind: 'invalid', attribute: row.problem.attribute, message: row.problem.message };
  }
}

const noteOf = (row: NamedRow & { kind: 'tenant' }): Pick<RevisionDraft, 'note'> =>
  row.note === undefined ? {} : { note: row.note };

const contentChanged = (before: RowState | undefined, after: RowState): boolean =>
  JSON.stringify(before) !== JSON.stringify(after);

/** Actions after which a kept spec may still be written: its apply, or a revision paid before it. */
const KEEP_SPEC: ReadonlySet<SyncAction['kind']> = new Set(['applySpec', 'writeRevision', 'forgetRevision']);

/** Where the ledger finds a Tenant: the live Tenant cache, or a listed snapshot (`landlord plan`). */
export interface TenantLookup {
  get(name: string): Tenant | undefined;
}

export class Ledger<View extends TenantLookup = TenantCache> {
  private readonly book = new RowBook();
  /** What sync owes each tenant's history: the reconciler records here what its revision writes did. */
  readonly revisionDebts = new RevisionDebts();

  constructor(
    readonly view: View,
    readonly identity: TableIdentity,
  ) {}

  /**
   * Records a row just read; returns whether its content differs from what was recorded. Its spec
   * is kept until next() finds it is not to be written: a spec to write is in no cache yet, and
   * reading the row again to get it back would cost a DynamoDB read. Callers ask next() right after.
   */
  record(row: NamedRow, via: RowVia = 'scan'): boolean {
    const { book } = this;
    const state = rowStateOf(row);
    const changed = contentChanged(book.set(row.name, state), state);
    if (row.kind !== 'tenant') {
      // A row that makes no Tenant (any more) leaves sync no history to keep.
      this.revisionDebts.forget(row.name);
      return changed;
    }
    // A row the API server rejected before (this process or an earlier one) is not sent again; only
    // a Tenant of this table's can say so.
    const tenant = this.view.get(row.name);
    const own = tenant !== undefined && owns(tenant, this.identity);
    const rejection = own ? recordedRejection(tenant, row.hash) : undefined;
    if (rejection !== undefined) book.reject(row.name, row.hash, rejection);
    else book.keepSpec(row.name, { hash: row.hash, spec: row.spec, via, ...noteOf(row) });
    return changed;
  }

  /** A row read again has the content recorded: nothing the Tenant or its status depends on changed. */
  rowUnchanged(row: NamedRow): boolean {
    const recorded = this.book.get(row.name);
    return recorded !== undefined && !contentChanged(recorded, rowStateOf(row));
  }

  /** The row is gone from the table (or placed on another cluster): nothing of it is kept. */
  rowGone(name: string): void {
    this.book.forget(name);
    this.revisionDebts.forget(name);
  }

  /** A complete scan found exactly these rows: every other one is gone. */
  scanFound(names: ReadonlySet<string>): void {
    for (const name of this.book.retainOnly(names)) this.revisionDebts.forget(name);
  }

  /** A row of this name was read and is not known to be gone. */
  hasRow(name: string): boolean {
    return this.book.has(name);
  }

  rowSaysDeleted(name: string): boolean {
    return this.book.get(name)?.kind === 'deleted';
  }

  /**
   * The takedown by state that writing the row would be (archived or purged, deeper than the
   * Tenant's state), when the row is to be written at all: not one the API server refused.
   */
  takedown(name: string): StateTakedown | undefined {
    const row = this.book.get(name);
    if (row?.kind !== 'tenant' || this.book.verdict(name)?.kind !== 'synced') return undefined;
    const tenant = this.view.get(name);
    if (tenant === undefined || !owns(tenant, this.identity)) return undefined;
    return takedownOf(row.state, tenant);
  }

  /**
   * Applying the spec with this hash timed out. The second time for one hash, it is parked: not
   * sent again until the row changes or `parkMs` have passed; returns until when, if parked.
   */
  specTimedOut(name: string, hash: string, parkMs: number, now = Date.now()): number | undefined {
    return this.book.timedOut(name, hash, now, parkMs);
  }

  /** The takedown budget held back the row's takedown: the Synced condition says so, with this message. */
  holdBack(name: string, message: string): void {
    this.book.holdBack(name, message);
  }

  /** The attribute a refused row was refused for; undefined for any other row. */
  invalidAttribute(name: string): string | undefined {
    const row = this.book.get(name);
    return row?.kind === 'invalid' ? row.attribute : undefined;
  }

  /** What sync concluded about the row as recorded; undefined for a deleted or unknown row. */
  verdict(name: string): Verdict | undefined {
    return this.book.verdict(name);
  }

  /** Specs read and not written yet: what the table loop lets the queue catch up on. */
  get pendingWrites(): number {
    return this.book.pendingWrites;
  }

  /** The spec of the row with this hash, if it waits for its write. */
  specToWrite(name: string, hash: string): TenantSpec | undefined {
    return this.book.spec(name, hash);
  }

  /** The spec with this hash and how its row came: the revision it becomes once applied. */
  draftToWrite(name: string, hash: string): RevisionDraft | undefined {
    return this.book.draft(name, hash);
  }

  /** sync applied the spec with this hash, and the Tenant came back with this generation. */
  specApplied(name: string, hash: string, generation: number | undefined): void {
    this.book.applied(name, hash, generation);
  }

  /** The API server refused the spec with this hash: it is not sent again until the row changes. */
  specRejected(name: string, hash: string, message: string): void {
    this.book.reject(name, hash, message);
  }

  /** This conflict was reported (log, metric, Event): the same one is not reported again. */
  conflictReported(name: string, key: string): void {
    this.book.reportedConflict(name, key);
  }

  /**
   * The row holds a `landlord` attribute with this digest ('' for none): read from the table, or
   * written by sync (row-status/). Kept with the row, forgotten with it.
   */
  rowStatusHeld(name: string, digest: string): void {
    if (this.book.has(name)) this.book.rowStatusHeld(name, digest);
  }

  /** The digest of the row's `landlord` attribute as last read or written; undefined if unknown. */
  rowStatus(name: string): string | undefined {
    return this.book.rowStatus(name);
  }

  /** The takedown budget of this pass lets the Tenant go. */
  approveTakedown(name: string, pass: number): void {
    this.book.approve(name, pass);
  }

  /** The pass that approved deleting this Tenant, if one did. */
  takedownApproval(name: string): number | undefined {
    return this.book.approval(name);
  }

  /** A delete is being tried: its approval is used up (a failed delete approves it again). */
  spendApproval(name: string): void {
    this.book.unapprove(name);
  }

  situation(name: string, { reconcileStart = false } = {}, now = new Date()): Situation {
    const { book, view, identity } = this;
    return {
      row: book.get(name),
      verdict: book.verdict(name),
      tenant: view.get(name),
      reported: book.conflictReported(name),
      approval: book.approval(name),
      heldBack: book.heldBackFor(name),
      parked: book.parked(name),
      applied: book.appliedSpec(name),
      recorded: this.revisionDebts.recorded(name, view.get(name)?.metadata.uid),
      owedRevision: this.revisionDebts.owed(name),
      reconcileStart,
      identity,
      now,
    };
  }

  /**
   * decide() on what sync knows now; `reconcileStart`: the reconciler's first question of a
   * reconcile. A kept spec that is not to be written any more is dropped.
   */
  next(name: string, moment: { reconcileStart?: boolean } = {}): SyncAction {
    const action = decide(this.situation(name, moment));
    if (!KEEP_SPEC.has(action.kind)) this.book.dropSpec(name);
    return action;
  }
}
