// One worker's part of a purge: take a batch of keys off the queue, wait for the rate ceiling,
// delete it with BatchWriteItem, and send again what DynamoDB left unprocessed (after a backoff that
// grows only while nothing gets through), until the batch is gone.
import {
  BatchWriteItemCommand,
  type AttributeValue,
  type DynamoDBClient,
  type WriteRequest,
} from '@aws-sdk/client-dynamodb';
import type { BoundedQueue } from './bounded-queue.js';
import { RetryablePurgeError } from './errors.js';
import type { WriteRateLimiter } from './rate-limiter.js';
import { pause, withRetries, type RetryContext } from './retry.js';

export type Key = Record<string, AttributeValue>;

/** BatchWriteItem's limit of requests per call. */
const BATCH_SIZE = 25;

export interface DeleteContext extends RetryContext {
  client: DynamoDBClient;
  table: string;
  limiter: WriteRateLimiter | undefined;
  /** Called with the number of items each answer confirmed deleted. */
  onDeleted(count: number): void;
}

/** Cuts keys into BatchWriteItem-sized batches. */
export function batches<T>(keys: readonly T[], size = BATCH_SIZE): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < keys.length; i += size) out.push(keys.slice(i, i + size));
  return out;
}

/** A worker: deletes batches until the queue is closed and empty. */
export async function drain(queue: BoundedQueue<Key[]>, ctx: DeleteContext): Promise<void> {
  for (let batch = await queue.take(); batch !== undefined; batch = await queue.take()) {
    await deleteBatch(batch, ctx);
  }
}

/** Deletes every key of the batch, resending UnprocessedItems; throws a typed purge error otherwise. */
async function deleteBatch(keys: readonly Key[], ctx: DeleteContext): Promise<void> {
  let pending: WriteRequest[] = keys.map((Key) => ({ DeleteRequest: { Key } }));
  let stalled = 0;
  while (pending.length > 0) {
    await ctx.limiter?.take(pending.length, ctx.signal);
    const left = await send(pending, ctx);
    ctx.onDeleted(pending.length - left.length);
    if (left.length === 0) return;
    // DynamoDB took less than asked: that is throttling too, answered with a 200.
    ctx.onThrottle(1);
    stalled = left.length < pending.length ? 0 : stalled + 1;
    if (stalled >= ctx.policy.maxAttempts) {
      throw new RetryablePurgeError(
        `BatchWriteItem: ${left.length} items still unprocessed after ${stalled} attempts without progress`,
      );
    }
    await pause(stalled, ctx);
    pending = left;
  }
}

async function send(pending: WriteRequest[], ctx: DeleteContext): Promise<WriteRequest[]> {
  const command = new BatchWriteItemCommand({ RequestItems: { [ctx.table]: pending } });
  const out = await withRetries(
    'BatchWriteItem',
    () => ctx.client.send(command, { abortSignal: ctx.signal }),
    ctx,
  );
  return out.UnprocessedItems?.[ctx.table] ?? [];
}
