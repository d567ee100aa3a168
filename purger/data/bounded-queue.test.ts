import { describe, expect, it } from 'vitest';
import { batches } from './batch-delete.js';
import { BoundedQueue } from './bounded-queue.js';
import { classifyError } from './errors.js';

describe('BoundedQueue', () => {
  it('holds the producer while full and lets it on as consumers take', async () => {
    const queue = new BoundedQueue<number>(2);
    let put = 0;
    const producer = (async () => {
      for (let i = 0; i < 5; i++) if (await queue.put(i)) put += 1;
      queue.close();
    })();
    await new Promise((resolve) => setTimeout(resolve, 0)); // the producer runs until the queue is full
    expect(put).toBe(2);
    expect(queue.length).toBe(2);
    const taken: number[] = [];
    for (let item = await queue.take(); item !== undefined; item = await queue.take()) {
      taken.push(item);
      expect(queue.length).toBeLessThanOrEqual(2);
    }
    await producer;
    expect(taken).toEqual([0, 1, 2, 3, 4]);
  });

  it('on close, drains what is left, then gives undefined; a waiting put fails', async () => {
    const queue = new BoundedQueue<string>(1);
    await queue.put('a');
    const blocked = queue.put('b');
    queue.close();
    expect(await blocked).toBe(false);
    expect(await queue.take()).toBe('a');
    expect(await queue.take()).toBeUndefined();
  });

  it('wakes a waiting consumer with an item or with the close', async () => {
    const queue = new BoundedQueue<string>(1);
    const first = queue.take();
    await queue.put('x');
    expect(await first).toBe('x');
    const second = queue.take();
    queue.close();
    expect(await second).toBeUndefined();
  });
});

describe('batches', () => {
  it('cuts keys into BatchWriteItem batches of 25 at most', () => {
    const keys = Array.from({ length: 61 }, (_, i) => i);
    expect(batches(keys).map((b) => b.length)).toEqual([25, 25, 11]);
    expect(batches(keys).flat()).toEqual(keys);
    expect(batches([])).toEqual([]);
  });
});

describe('classifyError', () => {
  const awsError = (name: string, status?: number): Error =>
    Object.assign(new Error('boom'), { name, $metadata: { httpStatusCode: status } });

  it.each([
    ['ProvisionedThroughputExceededException', 400, 'throttled'],
    ['ThrottlingException', 400, 'throttled'],
    ['RequestLimitExceeded', 400, 'throttled'],
    ['InternalServerError', 500, 'transient'],
    ['ServiceUnavailable', 503, 'transient'],
    ['TimeoutError', undefined, 'transient'],
    ['TransactionConflictException', 400, 'transient'],
    ['ResourceNotFoundException', 400, 'permanent'],
    ['AccessDeniedException', 400, 'permanent'],
    ['ValidationException', 400, 'permanent'],
    ['SomethingNew', 400, 'permanent'],
  ] as const)('%s (HTTP %s) is %s', (name, status, kind) => {
    expect(classifyError(awsError(name, status))).toBe(kind);
  });

  it('counts a dropped connection as transient', () => {
    expect(classifyError(Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }))).toBe(
      'transient',
    );
  });
});
