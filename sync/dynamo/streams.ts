// Follows a DynamoDB stream: lists its shards now and then, reads each readable shard in turn
// (parents before children, see shards.ts), renews expired iterators from the last record read,
// and asks for a full scan whenever its place in the stream was lost. Transient failures back off
// and retry here; a stream that no longer exists surfaces as StreamGoneError.
import {
  DescribeStreamCommand,
  GetRecordsCommand,
  GetShardIteratorCommand,
  type DynamoDBStreamsClient,
} from '@aws-sdk/client-dynamodb-streams';
import { backoffDelay, sleep } from '../../util/backoff.js';
import type { Logger } from '../../runtime/logger.js';
import { counted, type RetryObserver } from './clients.js';
import { describeError, isExpiredIterator, isTableNotFound, isTrimmed } from './errors.js';
import { SYNC_LOG } from '../reasons.js';
import { ShardTracker, type ListedShard, type ShardState } from './shards.js';
import { toBatch } from './stream-records.js';
import type { ChangeBatch } from './table-source.js';

/**
 * A round of reads starts at most this often, whether or not the last one found records: each shard
 * is read 4 times a second (as AWS Lambda's stream poller does), under DynamoDB's 5 per shard, and a
 * row's change waits 125 ms on average for the next read (250 ms at worst).
 */
const ROUND_MS = 250;
/** New shards appear on splits; listing this often finds them without spending DescribeStream calls. */
const DISCOVERY_MS = 10_000;
const RECORDS_PER_CALL = 1000;
const RETRY = { baseMs: 500, maxMs: 30_000, jitter: 0.2 } as const;

/** The stream (or a shard of it) is gone: disabled, replaced, or the table deleted. */
export class StreamGoneError extends Error {
  override name = 'StreamGoneError';
}

export interface StreamReaderOptions {
  client: DynamoDBStreamsClient;
  streamArn: string;
  observeRetries: RetryObserver;
  logger: Logger;
}

const rescan = (reason: string): ChangeBatch => ({ changes: [{ kind: 'rescan', reason }] });
const EMPTY: ChangeBatch = { changes: [] };

export class StreamReader {
  private readonly tracker = new ShardTracker();
  private discoveredAt = Number.NEGATIVE_INFINITY;
  private failures = 0;
  private lostShards: string[] = [];

  constructor(private readonly options: StreamReaderOptions) {}

  /** Lists the shards and pins LATEST iterators on the open ones, before the initial scan. */
  async start(signal: AbortSignal): Promise<void> {
    await this.discover(true, signal);
    for (const shard of this.tracker.readable()) await this.iteratorFor(shard, signal);
  }

  /**
   * Batches of changes until the signal aborts. A batch is handed over once its records are
   * counted as read: the consumer must take it in before it next awaits.
   */
  async *batches(signal: AbortSignal): AsyncGenerator<ChangeBatch> {
    for (;;) {
      const started = performance.now();
      try {
        for await (const batch of this.round(signal)) yield batch;
        this.failures = 0;
      } catch (err) {
        if (signal.aborted || err instanceof StreamGoneError) throw err;
        await this.backOff(err, signal);
        continue;
      }
      const left = ROUND_MS - (performance.now() - started);
      if (left > 0) await sleep(left, signal);
    }
  }

  /** One GetRecords on each readable shard; yields the batches that hold changes. */
  private async *round(signal: AbortSignal): AsyncGenerator<ChangeBatch> {
    if (performance.now() - this.discoveredAt > DISCOVERY_MS) await this.discover(false, signal);
    if (this.lostShards.length > 0) yield this.takeLost();
    for (const shard of this.tracker.readable()) {
      const batch = await this.read(shard, signal);
      if (batch.changes.length > 0) yield batch;
    }
  }

  private takeLost(): ChangeBatch {
    const ids = this.lostShards.join(', ');
    this.lostShards = [];
    return rescan(`stream shards ${ids} were trimmed before they were read to their end`);
  }

  private async discover(initial: boolean, signal: AbortSignal): Promise<void> {
    const listed: (ListedShard & { closed: boolean })[] = [];
    let startId: string | undefined;
    do {
      const command = new DescribeStreamCommand({
        StreamArn: this.options.streamArn,
        ExclusiveStartShardId: startId,
      });
      const out = await this.call('DescribeStream', () =>
        this.options.client.send(command, { abortSignal: signal }),
      );
      const description = out.StreamDescription;
      if (description?.StreamStatus === 'DISABLED') throw new StreamGoneError('the stream is disabled');
      for (const shard of description?.Shards ?? []) {
        if (shard.ShardId === undefined) continue;
        const closed = shard.SequenceNumberRange?.EndingSequenceNumber !== undefined;
        listed.push({ id: shard.ShardId, parentId: shard.ParentShardId, closed });
      }
      startId = description?.LastEvaluatedShardId;
    } while (startId !== undefined);
    this.lostShards.push(...this.tracker.update(listed, initial));
    this.discoveredAt = performance.now();
  }

  private async read(shard: ShardState, signal: AbortSignal): Promise<ChangeBatch> {
    try {
      const iterator = await this.iteratorFor(shard, signal);
      if (iterator === undefined) return EMPTY;
      const command = new GetRecordsCommand({ ShardIterator: iterator, Limit: RECORDS_PER_CALL });
      const out = await this.call('GetRecords', () =>
        this.options.client.send(command, { abortSignal: signal }),
      );
      const records = out.Records ?? [];
      const next = out.NextShardIterator ?? undefined;
      this.tracker.advance(shard.id, next, records.at(-1)?.dynamodb?.SequenceNumber);
      // A shard read to its end has children to find.
      if (next === undefined) this.discoveredAt = Number.NEGATIVE_INFINITY;
      return toBatch(records);
    } catch (err) {
      if (isExpiredIterator(err)) {
        return this.tracker.expire(shard.id) ? rescan(`the iterator of shard ${shard.id} expired`) : EMPTY;
      }
      if (!isTrimmed(err)) throw err;
      this.tracker.lose(shard.id);
      return rescan(`shard ${shard.id} was trimmed past the last record read`);
    }
  }

  private async iteratorFor(shard: ShardState, signal: AbortSignal): Promise<string | undefined> {
    if (shard.iterator !== undefined) return shard.iterator;
    const position = this.tracker.position(shard.id);
    const command = new GetShardIteratorCommand({
      StreamArn: this.options.streamArn,
      ShardId: shard.id,
      ShardIteratorType: position.type,
      ...(position.type === 'AFTER_SEQUENCE_NUMBER' ? { SequenceNumber: position.sequence } : {}),
    });
    const out = await this.call('GetShardIterator', () =>
      this.options.client.send(command, { abortSignal: signal }),
    );
    if (out.ShardIterator === undefined) {
      // No iterator: a closed shard with nothing left to read at this position.
      this.tracker.advance(shard.id, undefined, undefined);
      return undefined;
    }
    this.tracker.setIterator(shard.id, out.ShardIterator);
    return out.ShardIterator;
  }

  private async call<T>(operation: string, send: () => Promise<T>): Promise<T> {
    try {
      return await counted(operation, this.options.observeRetries, send);
    } catch (err) {
      if (isTableNotFound(err)) throw new StreamGoneError(`${operation}: ${describeError(err)}`);
      throw err;
    }
  }

  private async backOff(err: unknown, signal: AbortSignal): Promise<void> {
    const delayMs = backoffDelay(this.failures++, RETRY.baseMs, RETRY.maxMs, RETRY.jitter);
    this.options.logger.warn(SYNC_LOG.streamFailed, { error: describeError(err), delayMs });
    await sleep(delayMs, signal);
  }
}
