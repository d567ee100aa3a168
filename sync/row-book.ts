// What sync knows about each row: a small state per name (a hash, not the row), plus the few
// things waiting on a write. The Tenant cache already holds every spec; a spec is kept here only
// from the moment a row is read until its Tenant has been written, so memory stays O(rows).
import type { TenantSpec, TenantState } from '../api/tenant.js';
import type { RevisionDraft } from '../api/revision.js';
import type { Verdict } from './status.js';

export type RowState =
  | { kind: 'tenant'; hash: string; state: TenantState }
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
  private readonly rejections = new Map<string, Rejection>();
  /**
   * Tenants the takedown budget approved taking down (rows gone, saying `deleted: true`, or moving the Tenant
   * to archived or purged), with the pass.
   */
  private readonly approved = new Map<string, number>();
  /** Applies of a spec that timed out: a second timeout of one hash parks it until `until`. */
  private readonly timeouts = new Map<string, { hash: string; count: number; until?: number }>();
  /** Why the takedown budget held back a row's takedown by state, as the Synced condition says it. */
  private readonly heldBack = new Map<string, string>();
  /** Until the status write records it, sync's own spec apply looks like someone else's edit. */
  private readonly appliedSpecs = new Map<string, Applied>();
  /** The conflict last reported for a row that names a Tenant sync did not make (decide.ts, Conflict.key). */
  private readonly conflicts = new Map<string, string>();
  /** The digest of the `landlord` attribute the row holds, as last read or written (row-status/). */
  private readonly rowStatuses = new Map<string, string>();

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
   * Records the row's state; returns the previous one. An approval or a hold is for the content it
   * was given for: a row that is back, no longer says `deleted: true` or asks for another state
   * ends it, while the same content read again by the next scan keeps it.
   */
  set(name: string, state: RowState): RowState | undefined {
    const previous = this.rows.get(name);
    this.rows.set(name, state);
    if (JSON.stringify(previous) !== JSON.stringify(state)) {
      this.approved.delete(name);
      this.heldBack.delete(name);
      this.timeouts.delete(name);
    }
    if (state.kind !== 'tenant') {
      this.specs.delete(name);
      this.appliedSpecs.delete(name);
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
    this.heldBack.delete(name);
    this.timeouts.delete(name);
    this.rowStatuses.delete(name);
  }

  /** Drops every row not in `names` (after a complete scan, those are gone); returns their names. */
  retainOnly(names: ReadonlySet<string>): string[] {
    const gone = [...this.rows.keys()].filter((name) => !names.has(name));
    for (const name of gone) this.forget(name);
    return gone;
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
    // A takedown the budget approved is done: its approval is used up.
    this.approved.delete(name);
    this.timeouts.delete(name);
    this.heldBack.delete(name);
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

  /**
   * An apply of the spec with this hash timed out; returns when it may be sent again if this was
   * its second timeout (it is parked until then), undefined while the queue's backoff suffices.
   */
  timedOut(name: string, hash: string, now: number, parkMs: number): number | undefined {
    const previous = this.timeouts.get(name);
    const count = previous?.hash === hash ? previous.count + 1 : 1;
    const until = count >= 2 ? now + parkMs : undefined;
    this.timeouts.set(name, { hash, count, ...(until === undefined ? {} : { until }) });
    return until;
  }

  /** The spec hash parked after timing out twice, and until when. */
  parked(name: string): { hash: string; until: number } | undefined {
    const timeout = this.timeouts.get(name);
    return timeout?.until === undefined ? undefined : { hash: timeout.hash, until: timeout.until };
  }

  holdBack(name: string, message: string): void {
    this.heldBack.set(name, message);
  }

  /** Why the takedown budget holds back the row's takedown, if it does. */
  heldBackFor(name: string): string | undefined {
    return this.heldBack.get(name);
  }

  /** This conflict was reported (log, metric, Event): the same one is not reported again. */
  reportedConflict(name: string, key: string): void {
    this.conflicts.set(name, key);
  }

  conflictReported(name: string): string | undefined {
    return this.conflicts.get(name);
  }

  /** The row holds the `landlord` attribute with this digest ('' for none), as read or just written. */
  rowStatusHeld(name: string, digest: string): void {
    this.rowStatuses.set(name, digest);
  }

  /** The digest of what the row's `landlord` attribute holds; undefined when sync has not read it. */
  rowStatus(name: string): string | undefined {
    return this.rowStatuses.get(name);
  }
}
