// The table loop, like an informer's list and watch: a full scan, then the stream's changes until the
// next resync is due, and again. Only a scan that read every page of every segment may prune;
// one that fails is retried with backoff while changes keep flowing. Without a stream, the
// "changes" phase is a wait and sync polls by scanning.
import { backoffDelay, sleep } from '../util/backoff.js';
import type { Logger } from '../runtime/logger.js';
import type { Metrics } from '../runtime/metrics.js';
import { describeError } from './dynamo/errors.js';
import type { Intake } from './intake.js';
import type { TakedownApprover } from './takedown-approver.js';
import { SYNC_LOG } from './reasons.js';
import type { Ledger } from './ledger.js';
import type { ChangeBatch, Item, TableSource } from './dynamo/table-source.js';

const RETRY = { baseMs: 1_000, maxMs: 60_000, jitter: 0.2 } as const;

export interface TableLoopDeps {
  source: TableSource;
  intake: Intake;
  approver: TakedownApprover;
  ledger: Pick<Ledger, 'pendingWrites' | 'scanFound'>;
  /** Resolves when the work queue has no tenant waiting or running. */
  drained: () => Promise<void>;
  metrics: Metrics;
  logger: Logger;
  resyncMs: number;
  pollMs: number;
  /** Specs waiting for their write beyond which a scan pauses for the queue to catch up. */
  highWater: number;
}

export class TableLoop {
  private scans = 0;

  constructor(private readonly deps: TableLoopDeps) {}

  /** Runs until the signal aborts; never throws. */
  async run(signal: AbortSignal): Promise<void> {
    try {
      await this.startFollowing(signal);
      let failures = 0;
      while (!signal.aborted) {
        const complete = await this.scan(signal);
        failures = complete ? 0 : failures + 1;
        const waitMs = complete
          ? this.interval()
          : backoffDelay(failures - 1, RETRY.baseMs, RETRY.maxMs, RETRY.jitter);
        await this.follow(waitMs, signal);
      }
    } catch (err) {
      if (!signal.aborted) this.deps.logger.error('the sync loop stopped', { error: describeError(err) });
    }
  }

  private interval(): number {
    return this.deps.source.streaming ? this.deps.resyncMs : this.deps.pollMs;
  }

  /** Pins the stream position before the first scan, retrying until DynamoDB answers. */
  private async startFollowing(signal: AbortSignal): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      try {
        await this.deps.source.start(signal);
        return;
      } catch (err) {
        if (signal.aborted) throw err;
        const delayMs = backoffDelay(attempt, RETRY.baseMs, RETRY.maxMs, RETRY.jitter);
        this.deps.logger.warn(SYNC_LOG.streamFailed, { error: describeError(err), delayMs });
        await sleep(delayMs, signal);
      }
    }
  }

  /** One full scan; true when it read the whole table (and pruning ran). */
  private async scan(signal: AbortSignal): Promise<boolean> {
    const { source, intake, ledger, metrics, logger } = this.deps;
    const startedAt = performance.now();
    const seen = new Set<string>();
    let rows = 0;
    let invalid = 0;
    try {
      for await (const page of source.scan(signal)) {
        invalid += this.takePage(page, seen);
        rows += page.length;
        metrics.syncRowsScannedTotal.inc(page.length);
        if (ledger.pendingWrites > this.deps.highWater) await this.deps.drained();
      }
    } catch (err) {
      if (signal.aborted) return false;
      metrics.syncScansTotal.inc({ result: 'error' });
      logger.warn(SYNC_LOG.scanFailed, { error: describeError(err), rowsRead: rows });
      return false;
    }
    ledger.scanFound(seen);
    intake.scanFinished();
    metrics.syncScansTotal.inc({ result: 'success' });
    metrics.syncInvalidRows.set(invalid);
    this.deps.approver.afterScan(seen);
    const level = this.scans++ === 0 ? 'info' : 'debug';
    const durationMs = Math.round(performance.now() - startedAt);
    logger.log(level, SYNC_LOG.scanComplete, { rows, invalid, tenants: seen.size, durationMs });
    return true;
  }

  /** Takes in one page of a scan; returns how many of its rows were invalid. */
  private takePage(page: readonly Item[], seen: Set<string>): number {
    let invalid = 0;
    for (const item of page) {
      const accepted = this.deps.intake.accept(item);
      // Another cluster's row is not seen: a Tenant of it here is pruned as a gone row's.
      if (accepted.name !== undefined && !accepted.elsewhere) seen.add(accepted.name);
      if (accepted.invalid) invalid++;
    }
    return invalid;
  }

  /** Takes in changes for `ms`, or until a change asks for a full scan. */
  private async follow(ms: number, signal: AbortSignal): Promise<void> {
    const until = AbortSignal.any([signal, AbortSignal.timeout(ms)]);
    const deadline = performance.now() + ms;
    try {
      for await (const batch of this.deps.source.changes(until)) {
        const rescan = this.take(batch);
        if (rescan !== undefined) {
          this.deps.logger.info(SYNC_LOG.rescan, { reason: rescan });
          return;
        }
      }
    } catch (err) {
      if (until.aborted) return;
      this.deps.logger.warn(SYNC_LOG.streamFailed, { error: describeError(err) });
    }
    // No stream (or it failed): wait out the interval.
    await sleep(Math.max(0, deadline - performance.now()), until).catch(() => undefined);
  }

  private take(batch: ChangeBatch): string | undefined {
    if (batch.newestAt !== undefined) {
      this.deps.metrics.syncStreamLagSeconds.set(Math.max(0, (Date.now() - batch.newestAt.getTime()) / 1000));
    }
    return this.deps.intake.acceptBatch(batch);
  }
}
