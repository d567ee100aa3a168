// Where rows come in, from a scan or the stream: each is parsed and recorded in the ledger, and
// its tenant handed to the trigger, which queues it only when decide() finds a write to make. A
// row that cannot name a Tenant is logged once and counted; every other row keeps syncing. A row
// placed on another cluster is, here, a row not in the table: never recorded, never a conflict.
// The reconciler's re-reads of a single row come in here too, recorded the same way.
import type { Logger } from '../runtime/logger.js';
import type { Ledger } from './ledger.js';
import type { TakedownApprover } from './takedown-approver.js';
import { SYNC_LOG } from './reasons.js';
import { placedHere } from './placement.js';
import { readName } from './row/fields.js';
import { readRow } from './row/index.js';
import type { ChangeBatch, Item, TableSource } from './dynamo/table-source.js';
import type { RowVia } from '../api/revision.js';
import type { Trigger } from './trigger.js';
import type { RowStatusWriter } from './row-status/writer.js';

/** The most characters of an unusable name a log line repeats. */
const RAW_NAME_SHOWN = 64;

export interface IntakeDeps {
  ledger: Ledger;
  trigger: Trigger;
  approver: TakedownApprover;
  /** Where a single row is read again. */
  source: Pick<TableSource, 'read'>;
  logger: Logger;
  /** Told of every row recorded, when rows are told their readiness (LANDLORD_SYNC_ROW_STATUS). */
  rowStatus?: Pick<RowStatusWriter, 'rowRead'>;
}

/** What a re-read found: a row recorded, none here (gone, or placed elsewhere), or no usable name. */
export type Reread = 'recorded' | 'gone' | 'unusable';

export interface Accepted {
  /** The tenant the row names; undefined when the name itself is unusable. */
  name: string | undefined;
  invalid: boolean;
  /** The row says `deleted: true`. */
  deleted: boolean;
  /** The row is placed on another cluster: for this sync it is not in the table. */
  elsewhere: boolean;
}

export class Intake {
  /** Unusable rows logged already, so that one bad row is one log line, not one per scan. */
  private reported = new Set<string>();
  private reportedThisScan = new Set<string>();

  constructor(private readonly deps: IntakeDeps) {}

  /** `via`: how the row came, which its revision records (a scan unless the stream brought it). */
  accept(item: Item, via: RowVia = 'scan'): Accepted {
    if (!placedHere(item, this.deps.ledger.identity)) return this.elsewhere(item);
    const row = readRow(item);
    const name = row.name;
    if (name === undefined) {
      if (row.kind === 'invalid') this.unusableName(item, row.problem.message);
      return { name: undefined, invalid: true, deleted: false, elsewhere: false };
    }
    const changed = this.deps.ledger.record({ ...row, name }, via);
    this.deps.trigger.tenant(name, changed);
    this.deps.rowStatus?.rowRead(name, item);
    return { name, invalid: row.kind === 'invalid', deleted: row.kind === 'deleted', elsewhere: false };
  }

  /**
   * Another cluster's row. Forgotten if it was this sync's (it moved away): its Tenant here is then
   * deleted as a gone row's, by the scan's takedown approval or, from the stream, as a removal.
   */
  private elsewhere(item: Item): Accepted {
    const name = readName(item.name);
    if (name.ok) this.deps.ledger.rowGone(name.value);
    return { name: name.ok ? name.value : undefined, invalid: false, deleted: false, elsewhere: true };
  }

  /**
   * Reads the row again (strongly consistent) and records it as accept() would, without waking the
   * trigger: the reconciler that asks decides again itself. A row gone since, or placed on another
   * cluster since, is forgotten: the stream's REMOVE or the next scan takes it down, within the
   * takedown budget.
   */
  async reread(name: string, signal: AbortSignal): Promise<Reread> {
    const item = await this.deps.source.read(name, signal);
    if (item === undefined || !placedHere(item, this.deps.ledger.identity)) {
      this.deps.ledger.rowGone(name);
      return 'gone';
    }
    const row = readRow(item);
    if (row.name === undefined) return 'unusable';
    this.deps.ledger.record({ ...row, name: row.name });
    this.deps.rowStatus?.rowRead(row.name, item);
    return 'recorded';
  }

  /**
   * Takes in a batch of stream changes, in order. Returns a reason when the batch asks for a full
   * scan. Synchronous: everything is recorded before the stream reader moves on.
   */
  acceptBatch(batch: ChangeBatch): string | undefined {
    const removed = new Set<string>();
    const marked = new Set<string>();
    const written = new Set<string>();
    let rescan: string | undefined;
    for (const change of batch.changes) {
      if (change.kind === 'rescan') rescan = change.reason;
      else if (change.kind === 'remove') removed.add(change.name);
      else {
        // A row deleted and written again within the batch is simply there.
        const { name, deleted, elsewhere } = this.accept(change.item, 'stream');
        if (name === undefined) continue;
        // A row that moved to another cluster is, for this one, removed.
        if (elsewhere) removed.add(name);
        else removed.delete(name);
        if (deleted) marked.add(name);
        else marked.delete(name);
        written.add(name);
      }
    }
    for (const name of removed) marked.delete(name);
    for (const name of [...removed, ...marked]) written.delete(name);
    // Every takedown (gone, deleted, or a state such as archived) goes through the takedown budget,
    // the interval's one budget.
    if (removed.size > 0) this.deps.approver.rowsRemoved([...removed]);
    if (marked.size > 0) this.deps.approver.rowsMarkedDeleted([...marked]);
    if (written.size > 0) this.deps.approver.rowsTakingDown([...written]);
    return rescan;
  }

  /** A complete scan ended: unusable rows it no longer found may be reported again if they return. */
  scanFinished(): void {
    this.reported = this.reportedThisScan;
    this.reportedThisScan = new Set();
  }

  private unusableName(item: Item, problem: string): void {
    const raw = item.name?.S;
    const shown = raw === undefined ? undefined : raw.slice(0, RAW_NAME_SHOWN);
    const key = `${shown ?? ''}\u0000${problem}`;
    const known = this.reported.has(key) || this.reportedThisScan.has(key);
    this.reportedThisScan.add(key);
    if (!known) this.deps.logger.warn(SYNC_LOG.invalidName, { rawName: shown ?? null, problem });
  }
}
