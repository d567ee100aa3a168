// What sync knows about each row: a small state per name (a hash, not the row), plus the few
// things waiting on a write. The Tenant cache already holds every spec; a spec is kept here only
// from the moment a row is read until its Tenant has been written, so memory stays O(rows).
import type { TenantSpec } from '../api/tenant.js';
import type { RevisionDraft } from './history/revision.js';
import type { Verdict } from './status.js';

export type RowState =
  | { kind: 'tenant'; hash: string }
  | { kind: 'invalid'; attribute: string; message: string }
  | { kind: 'deleted' };

/** The spec sync itself applied last: its hash and the generation the Tenant had then. */
export interface Applied {
  hash: string;
  generation: number;
}

interface Rejection {
  hash: string;
  message: string;
}

export class RowBook {
  private readonly rows = new Map<string, RowState>();
  /** A spec to write, with how its row came (the revision it becomes once applied). */
  private readonly specs = new Map<string, RevisionDraft>();
  /** A spec applied whose revision could not be written yet: at most one per tenant, retried. */
  private readonly owedRevisions = new Map<string, { uid: string; draft: RevisionDraft }>();
  private readonly rejections = new Map<string, Rejection>();
  /** Tenants whose rows are gone or say `deleted: true`, which the guard allowed to delete, with the pass. */
  private readonly approved = new Map<string, number>();
  /** Until the status write records it, sync's own spec apply looks like someone else's edit. */
  private readonly appliedSpecs = new Map<string, Applied>();
  /** The conflict last reported for a row that names a Tenant sync did not make (decide.ts, Conflict.key). */
  private readonly conflicts = new Map<string, string>();

  get size(): number {
    return this.rows.size;
  }

  get pendingWrites(): number {
    return this.specs.size;
  }

  get(name: string): RowState | undefined {
    return this.rows.get(name);
  }

  has(name: string): boolean {
    return this.rows.has(name);
  }

  /**
   * Records the row's state; returns the previous one. A row that exists is never pruned, and one
   * that no longer says `deleted: true` is not deleted: either ends an approval.
   */
  set(name: string, state: RowState): RowState | undefined {
    const previous = this.rows.get(name);
    this.rows.set(name, state);
    if (previous?.kind !== 'deleted' || state.kind !== 'deleted') this.approved.delete(name);
    if (state.kind !== 'tenant') {
      this.specs.delete(name);
      this.appliedSpecs.delete(name);
      this.owedRevisions.delete(name);
    }
    if (state.kind !== 'tenant' || this.rejections.get(name)?.hash !== state.hash)
      this.rejections.delete(name);
    return previous;
  }

  /** The row is gone from the table. */
  forget(name: string): void {
    this.rows.delete(name);
    this.specs.delete(name);
    this.rejections.delete(name);
    this.appliedSpecs.delete(name);
    this.conflicts.delete(name);
    this.owedRevisions.delete(name);
  }

  /** Drops every row not in `names`: after a complete scan, those are gone. */
  retainOnly(names: ReadonlySet<string>): void {
    for (const name of [...this.rows.keys()]) {
      if (!names.has(name)) this.forget(name);
    }
  }

  keepSpec(name: string, draft: RevisionDraft): void {
    this.specs.set(name, draft);
  }

  /** The spec read for `hash`, if it still waits for its write. */
  spec(name: string, hash: string): TenantSpec | undefined {
    return this.draft(name, hash)?.spec;
  }

  /** The spec read for `hash` and how its row came, if it still waits for its write. */
  draft(name: string, hash: string): RevisionDraft | undefined {
    const kept = this.specs.get(name);
    return kept?.hash === hash ? kept : undefined;
  }

  /** The revision of a spec applied to the Tenant with this uid is still to be written. */
  owe(name: string, uid: string, draft: RevisionDraft): void {
    this.owedRevisions.set(name, { uid, draft });
  }

  owed(name: string): { uid: string; draft: RevisionDraft } | undefined {
    return this.owedRevisions.get(name);
  }

  paid(name: string): void {
    this.owedRevisions.delete(name);
  }

  /** The spec is not to be written (any more): the Tenant holds it, or the row was refused. */
  dropSpec(name: string): void {
    this.specs.delete(name);
  }

  written(name: string, hash: string): void {
    if (this.specs.get(name)?.hash === hash) this.specs.delete(name);
  }

  /** sync applied the spec with this hash, and the Tenant came back with this generation. */
  applied(name: string, hash: string, generation: number | undefined): void {
    this.written(name, hash);
    if (generation !== undefined) this.appliedSpecs.set(name, { hash, generation });
  }

  appliedSpec(name: string): Applied | undefined {
    return this.appliedSpecs.get(name);
  }

  reject(name: string, hash: string, message: string): void {
    this.rejections.set(name, { hash, message });
    this.written(name, hash);
  }

  /** What sync concluded about the row as recorded; undefined for a deleted or unknown row. */
  verdict(name: string): Verdict | undefined {
    const row = this.rows.get(name);
    if (row === undefined || row.kind === 'deleted') return undefined;
    if (row.kind === 'invalid') return { kind: 'invalid', message: row.message };
    const rejection = this.rejections.get(name);
    return rejection?.hash === row.hash
      ? { kind: 'rejected', hash: row.hash, message: rejection.message }
      : { kind: 'synced', hash: row.hash };
  }

  approve(name: string, pass: number): void {
    this.approved.set(name, pass);
  }

  /** The pass that approved deleting this Tenant, if one did. */
  approval(name: string): number | undefined {
    return this.approved.get(name);
  }

  unapprove(name: string): void {
    this.approved.delete(name);
  }

  /** This conflict was reported (log, metric, Event): the same one is not reported again. */
  reportedConflict(name: string, key: string): void {
    this.conflicts.set(name, key);
  }

  conflictReported(name: string): string | undefined {
    return this.conflicts.get(name);
  }
}
