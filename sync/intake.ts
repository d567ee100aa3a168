// Where rows come in, from a scan, the stream or a single read: each is parsed, recorded in the
// row book, and its tenant queued only when the hash gate says a write is needed. A row that
// cannot name a Tenant is logged once and counted; every other row keeps syncing.
import type { Logger } from '../runtime/logger.js';
import { needsWrite, specCurrent } from './decide.js';
import type { TableIdentity } from './identity.js';
import type { Pruner } from './prune.js';
import { LOG } from './reasons.js';
import type { RowBook, RowState } from './row-book.js';
import { parseRow, type ParsedRow } from './row/index.js';
import { recordedRejection } from './status.js';
import type { ChangeBatch, Item } from './dynamo/table-source.js';
import type { TenantView } from './tenant-view.js';

/** The most characters of an unusable name a log line repeats. */
const RAW_NAME_SHOWN = 64;

export interface IntakeDeps {
  book: RowBook;
  view: TenantView;
  enqueue: (name: string) => void;
  /** Drops a key's failure backoff: new row content deserves an immediate try. */
  forgetBackoff: (name: string) => void;
  pruner: Pruner;
  identity: TableIdentity;
  logger: Logger;
}

export interface Accepted {
  /** The tenant the row names; undefined when the name itself is unusable. */
  name: string | undefined;
  invalid: boolean;
}

function stateOf(row: ParsedRow): RowState {
  switch (row.kind) {
    case 'tenant':
      return { kind: 'tenant', hash: row.hash };
    case 'deleted':
      return { kind: 'deleted' };
    case 'invalid':
      return { kind: 'invalid', attribute: row.problem.attribute, message: row.problem.message };
  }
}

const contentChanged = (before: RowState | undefined, after: RowState): boolean =>
  JSON.stringify(before) !== JSON.stringify(after);

export class Intake {
  /** Unusable rows logged already, so that one bad row is one log line, not one per scan. */
  private reported = new Set<string>();
  private reportedThisScan = new Set<string>();

  constructor(private readonly deps: IntakeDeps) {}

  accept(item: Item): Accepted {
    const row = parseRow(item);
    const name = row.name;
    if (name === undefined) {
      if (row.kind === 'invalid') this.unusableName(item, row.problem.message);
      return { name: undefined, invalid: true };
    }
    const state = stateOf(row);
    if (contentChanged(this.deps.book.set(name, state), state)) this.deps.forgetBackoff(name);
    this.queueIfNeeded(name, row, state);
    return { name, invalid: row.kind === 'invalid' };
  }

  /** The hash gate: the tenant is queued only when its Tenant differs from what the row says. */
  private queueIfNeeded(name: string, row: ParsedRow, state: RowState): void {
    const { book, view, identity } = this.deps;
    const tenant = view.get(name);
    if (row.kind === 'tenant') {
      // A row the API server rejected before (this process or an earlier one) is not sent again.
      const rejection = recordedRejection(tenant, row.hash);
      if (rejection !== undefined) book.reject(name, row.hash, rejection);
    }
    if (!needsWrite(state, book.verdict(name), tenant, { identity, now: new Date() })) return;
    // A spec is kept only when it is itself to be written, and dropped once it is.
    if (row.kind === 'tenant' && !specCurrent(tenant, row.hash, identity))
      book.keepSpec(name, row.hash, row.spec);
    this.deps.enqueue(name);
  }

  /**
   * Whether the Tenant of a known row needs a write, judged again after the Tenant changed in the
   * cluster (deleted, or edited by someone else): the row is the source of truth.
   */
  needsWork(name: string): boolean {
    const row = this.deps.book.get(name);
    if (row === undefined) return false;
    const { book, view, identity } = this.deps;
    return needsWrite(row, book.verdict(name), view.get(name), { identity, now: new Date() });
  }

  /**
   * Takes in a batch of stream changes, in order. Returns a reason when the batch asks for a full
   * scan. Synchronous: everything is recorded before the stream reader moves on.
   */
  acceptBatch(batch: ChangeBatch): string | undefined {
    const removed = new Set<string>();
    let rescan: string | undefined;
    for (const change of batch.changes) {
      if (change.kind === 'rescan') rescan = change.reason;
      else if (change.kind === 'remove') removed.add(change.name);
      else {
        // A row deleted and written again within the batch is simply there.
        const { name } = this.accept(change.item);
        if (name !== undefined) removed.delete(name);
      }
    }
    if (removed.size > 0) this.deps.pruner.rowsRemoved([...removed]);
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
    if (!known) this.deps.logger.warn(LOG.invalidName, { rawName: shown ?? null, problem });
  }
}
