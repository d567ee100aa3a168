// Deletes one tenant's partition from one data table. One querier pages through the partition by
// key equality (only the key attributes travel) and feeds a bounded queue of 25-key batches;
// several workers delete them with BatchWriteItem under the shared rate ceiling, resending what
// DynamoDB leaves unprocessed. When the last page is done it queries again from the start, until a
// query finds nothing: that also catches items written meanwhile, and it is why a purge that was
// stopped simply starts over: it keeps no bookkeeping, the data is the bookkeeping.
import {
  DescribeTableCommand,
  QueryCommand,
  type AttributeValue,
  type DynamoDBClient,
} from '@aws-sdk/client-dynamodb';
import { batches, drain, type DeleteContext, type Key } from './batch-delete.js';
import { BoundedQueue } from './bounded-queue.js';
import { partitionValueFor, type DataTableSpec } from './data-table.js';
import { PermanentPurgeError, PurgeAbortedError } from './errors.js';
import { partitionKeyValue, samePartition, tableKey, type TableKey } from './key-schema.js';
import type { WriteRateLimiter } from './rate-limiter.js';
import { DEFAULT_RETRY, withRetries, type RetryPolicy } from './retry.js';

interface PurgeProgress {
  deleted: number;
  throttled: number;
}

export interface PartitionPurgeOptions {
  /** Low-level client: keys stay AttributeValues. createPurgeClient gives one with modest SDK retries. */
  client: DynamoDBClient;
  table: DataTableSpec;
  /** The partition value is partitionValueFor(table, tenant). */
  tenant: string;
  /** Parallel BatchWriteItem writers (default 8). */
  workers?: number;
  limiter?: WriteRateLimiter;
  /** Stops the purge between requests; it then rejects with PurgeAbortedError. */
  signal?: AbortSignal;
  /** Cumulative counts for this call, after every answer that changed them. */
  onProgress?: (progress: PurgeProgress) => void;
  /** Backoff for throttling and UnprocessedItems (default DEFAULT_RETRY). */
  retry?: Partial<RetryPolicy>;
  /** Keys per Query page (default 1000). */
  pageSize?: number;
}

export interface PartitionPurgeResult {
  deleted: number;
  throttled: number;
  /** Query pages read, the final empty one included. */
  pages: number;
}

export const DEFAULT_WORKERS = 8;
const DEFAULT_PAGE_SIZE = 1000;

/** What every pass of one purge shares. */
interface Run {
  options: PartitionPurgeOptions;
  key: TableKey;
  partition: AttributeValue;
  result: PartitionPurgeResult;
  policy: RetryPolicy;
  signal: AbortSignal;
}

/** Deletes every item of the tenant's partition; never an item of another partition. */
export async function purgePartition(options: PartitionPurgeOptions): Promise<PartitionPurgeResult> {
  const run = await prepare(options);
  for (;;) {
    if (run.signal.aborted) throw new PurgeAbortedError();
    const found = await purgePass(run);
    if (found === 0) return { ...run.result };
  }
}

async function prepare(options: PartitionPurgeOptions): Promise<Run> {
  const workers = options.workers ?? DEFAULT_WORKERS;
  if (!Number.isInteger(workers) || workers < 1) {
    throw new RangeError(`workers must be an integer ≥ 1, got ${workers}`);
  }
  const signal = options.signal ?? new AbortController().signal;
  const policy = { ...DEFAULT_RETRY, ...options.retry };
  const result: PartitionPurgeResult = { deleted: 0, throttled: 0, pages: 0 };
  const name = options.table.table;
  const retry = { policy, signal, onThrottle: () => undefined };
  const described = await withRetries(
    'DescribeTable',
    () => options.client.send(new DescribeTableCommand({ TableName: name }), { abortSignal: signal }),
    retry,
  );
  if (described.Table === undefined) throw new PermanentPurgeError(`table ${name}: not described`);
  const key = tableKey(name, described.Table, options.table.partitionKey);
  const value = partitionValue(options.table, options.tenant);
  return { options, key, partition: partitionKeyValue(name, key.hashType, value), result, policy, signal };
}

/** A template without exactly one {name} is a configuration mistake: retrying cannot fix it. */
function partitionValue(table: DataTableSpec, tenant: string): string {
  try {
    return partitionValueFor(table, tenant);
  } catch (err) {
    throw new PermanentPurgeError(`table ${table.table}: ${(err as Error).message}`, { cause: err });
  }
}

/**
 * One pass from the start of the partition to its end; returns the number of keys it found. The
 * first failure (of the querier or of a worker) stops the others and is what the pass throws.
 */
async function purgePass(run: Run): Promise<number> {
  const workers = run.options.workers ?? DEFAULT_WORKERS;
  const stop = new AbortController();
  const signal = AbortSignal.any([run.signal, stop.signal]);
  // Two batches per worker keep them busy while the querier fetches the next page.
  const queue = new BoundedQueue<Key[]>(workers * 2);
  let failure: Error | undefined;
  const guard = <T>(task: Promise<T>): Promise<T> =>
    task.catch((err: unknown) => {
      failure ??= err instanceof Error ? err : new Error(String(err));
      stop.abort();
      queue.close();
      throw err;
    });
  const ctx = deleteContext(run, signal);
  const querier = guard(feed(run, queue, signal).finally(() => queue.close()));
  const writers = Array.from({ length: workers }, () => guard(drain(queue, ctx)));
  const [fed] = await Promise.allSettled([querier, ...writers]);
  if (failure !== undefined) throw failure;
  if (run.signal.aborted) throw new PurgeAbortedError();
  return fed?.status === 'fulfilled' ? fed.value : 0;
}

function deleteContext(run: Run, signal: AbortSignal): DeleteContext {
  const report = (): void =>
    run.options.onProgress?.({ deleted: run.result.deleted, throttled: run.result.throttled });
  return {
    client: run.options.client,
    table: run.options.table.table,
    limiter: run.options.limiter,
    policy: run.policy,
    signal,
    onThrottle: (count) => {
      run.result.throttled += count;
      report();
    },
    onDeleted: (count) => {
      run.result.deleted += count;
      report();
    },
  };
}

/** The querier: pages through the partition, queueing its keys in batches. Returns the keys found. */
async function feed(run: Run, queue: BoundedQueue<Key[]>, signal: AbortSignal): Promise<number> {
  const retry = deleteContext(run, signal);
  let found = 0;
  let startKey: Key | undefined;
  do {
    const command = queryCommand(run, startKey);
    const page = await withRetries(
      'Query',
      () => run.options.client.send(command, { abortSignal: signal }),
      retry,
    );
    run.result.pages += 1;
    const keys = checkedKeys(run, page.Items ?? []);
    found += keys.length;
    for (const batch of batches(keys)) {
      if (!(await queue.put(batch))) return found;
    }
    startKey = page.LastEvaluatedKey;
  } while (startKey !== undefined);
  return found;
}

function queryCommand(run: Run, startKey: Key | undefined): QueryCommand {
  const { hash, range } = run.key;
  return new QueryCommand({
    TableName: run.options.table.table,
    KeyConditionExpression: '#pk = :pk',
    // Only the key attributes: an item of 400 KB costs a few bytes to find.
    ProjectionExpression: range === undefined ? '#pk' : '#pk, #sk',
    ExpressionAttributeNames: range === undefined ? { '#pk': hash } : { '#pk': hash, '#sk': range },
    ExpressionAttributeValues: { ':pk': run.partition },
    // A consistent read: the last, empty query must not miss an item that is still there.
    ConsistentRead: true,
    Limit: run.options.pageSize ?? DEFAULT_PAGE_SIZE,
    ExclusiveStartKey: startKey,
  });
}

/**
 * The keys of a page, each checked to lie in the partition asked for. Key equality in the query is
 * what keeps neighbours safe; this check is the second line, in case anything between here and the
 * table (a proxy, an emulator, a future change of this code) ever gets it wrong.
 */
function checkedKeys(run: Run, items: readonly Key[]): Key[] {
  const { hash, range } = run.key;
  return items.map((item) => {
    const sort = range === undefined ? undefined : item[range];
    if (!samePartition(item[hash], run.partition) || (range !== undefined && sort === undefined)) {
      throw new PermanentPurgeError(
        `table ${run.options.table.table}: Query returned an item outside partition ${JSON.stringify(run.partition)}; nothing of it was deleted`,
      );
    }
    return range === undefined ? { [hash]: run.partition } : { [hash]: run.partition, [range]: sort! };
  });
}
