// Tells each row its tenant's readiness (LANDLORD_SYNC_ROW_STATUS; the leader only): whenever what
// the content depends on may have moved (a row read, a Tenant changed, a reconcile done), the
// content is computed again (content.ts) and compared, as a digest, with what the row holds. Only a
// difference costs anything: the row read once more, strongly consistent, and the one conditional
// UpdateItem (update.ts). Its own keyed queue, so that a slow or throttled table never holds up
// Tenant writes; a failing write backs off per row, on top of the SDK's retries.
//
// The stream brings each write back as a MODIFY: the row's content is what was recorded, so the
// ledger finds no change (no Kubernetes write), and the attribute is what was just written, so
// there is nothing to write either.
import type { AttributeValue, UpdateItemCommandInput } from '@aws-sdk/client-dynamodb';
import type { Logger } from '../../runtime/logger.js';
import type { Metrics } from '../../runtime/metrics.js';
import { WorkQueue, type Outcome, type WorkQueueOptions } from '../../runtime/work-queue.js';
import { needsReconcile } from '../decide.js';
import { describeError } from '../dynamo/errors.js';
import type { Ledger } from '../ledger.js';
import { owns } from '../identity.js';
import { placedHere } from '../placement.js';
import { readRow } from '../row/index.js';
import { SYNC_LOG } from '../reasons.js';
import { readRowStatus, rowStatusDigest, rowStatusOf, type RowStatus } from './content.js';
import { rowStatusUpdate } from './update.js';

type Item = Record<string, AttributeValue>;

/** The table, as far as this writer reaches it: one row read, one conditional update. */
interface RowStatusTable {
  name: string;
  read(name: string, signal: AbortSignal): Promise<Item | undefined>;
  /** true: written; false: the condition found the row changed. */
  update(input: UpdateItemCommandInput, signal: AbortSignal): Promise<boolean>;
}

export interface RowStatusDeps {
  ledger: Ledger;
  table: RowStatusTable;
  metrics: Metrics;
  logger: Logger;
  queue: WorkQueueOptions;
  /** Aborts the reads and writes in flight at shutdown. */
  signal: AbortSignal;
}

const DONE: Outcome = { kind: 'done' };

export class RowStatusWriter {
  private readonly queue: WorkQueue;

  constructor(private readonly deps: RowStatusDeps) {
    this.queue = new WorkQueue((name) => this.write(name), deps.queue);
  }

  start(): void {
    this.queue.start();
  }

  shutdown(): Promise<void> {
    return this.queue.shutdown();
  }

  /** A row was read (scan, stream, a re-read): what its attribute holds is recorded, then compared. */
  rowRead(name: string, item: Item): void {
    this.deps.ledger.rowStatusHeld(name, rowStatusDigest(readRowStatus(item)));
    this.check(name);
  }

  /** What the content depends on may have changed (the Tenant, sync's verdict): queued if it differs. */
  check(name: string): void {
    if (this.owed(name) !== undefined) this.queue.add(name);
  }

  /** The content the row should hold, when it holds other (as last read); undefined otherwise. */
  private owed(name: string): RowStatus | undefined {
    const { ledger } = this.deps;
    // Never read (or gone): there is no row to tell, or the read on its way says what it holds.
    const held = ledger.rowStatus(name);
    if (held === undefined) return undefined;
    const tenant = ledger.view.get(name);
    const status = rowStatusOf({
      verdict: ledger.verdict(name),
      tenant: tenant !== undefined && owns(tenant, ledger.identity) ? tenant : undefined,
      syncPending: needsReconcile(ledger.next(name)),
    });
    return status !== undefined && rowStatusDigest(status) !== held ? status : undefined;
  }

  private async write(name: string): Promise<Outcome> {
    if (this.owed(name) === undefined) return DONE;
    try {
      const fresh = await this.readAgain(name);
      if (fresh === undefined) return DONE;
      const { item, status } = fresh;
      const written = await this.deps.table.update(
        rowStatusUpdate({ table: this.deps.table.name, name, read: item, status, now: new Date() }),
        this.deps.signal,
      );
      this.deps.metrics.syncRowStatusWritesTotal.inc({ result: written ? 'written' : 'rowChanged' });
      // A row changed since the read is no error: its stream record (or the next poll) brings it,
      // and the content is computed again from it.
      if (written) this.deps.ledger.rowStatusHeld(name, rowStatusDigest(status));
      // `message` is the log line's own field: the row's message goes as statusMessage.
      const { message, ...said } = status;
      this.deps.logger.debug(written ? SYNC_LOG.rowStatusWritten : SYNC_LOG.rowStatusSkipped, {
        tenant: name,
        ...said,
        statusMessage: message,
      });
      return DONE;
    } catch (error) {
      if (!this.deps.signal.aborted)
        this.deps.logger.warn(SYNC_LOG.rowStatusFailed, { tenant: name, error: describeError(error) });
      return { kind: 'retry', error };
    }
  }

  /**
   * The row, read strongly consistent, and the content to write on it, when it is still the row sync
   * decided from and does not hold that content already (a scan page older than sync's own write
   * may have said it did not); undefined otherwise.
   */
  private async readAgain(name: string): Promise<{ item: Item; status: RowStatus } | undefined> {
    const { ledger } = this.deps;
    const item = await this.deps.table.read(name, this.deps.signal);
    if (item === undefined || !placedHere(item, ledger.identity)) return undefined;
    const row = readRow(item);
    if (row.name !== name || !ledger.rowUnchanged({ ...row, name })) return undefined;
    ledger.rowStatusHeld(name, rowStatusDigest(readRowStatus(item)));
    const status = this.owed(name);
    return status === undefined ? undefined : { item, status };
  }
}
