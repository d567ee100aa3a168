import { describe, expect, it } from 'vitest';
import { waitForCount } from './wait.js';

/** A count that answers the given values in turn, then keeps answering the last one. */
function counts(...values: number[]): () => Promise<number> {
  let i = 0;
  return () => Promise.resolve(values[Math.min(i++, values.length - 1)]!);
}

describe('waitForCount', () => {
  it('returns once the count reaches the target', async () => {
    await expect(waitForCount('n', counts(0, 1, 2, 3), 3, { stallMs: 1_000, intervalMs: 1 })).resolves.toBe(
      undefined,
    );
  });

  it('keeps waiting past the stall limit in total while the count keeps moving', async () => {
    const values = Array.from({ length: 40 }, (_, i) => i);
    // 40 polls 5 ms apart take far longer than the 50 ms stall limit; each one moves the count.
    await waitForCount('n', counts(...values), 39, { stallMs: 50, intervalMs: 5 });
  });

  it('fails with where it stuck when the count stops moving', async () => {
    await expect(
      waitForCount('tenants', counts(0, 4, 7), 10, { stallMs: 30, intervalMs: 1 }),
    ).rejects.toThrow(/waiting for tenants: stuck at 7 of 10 for 30 ms/);
  });

  it('counts down as well as up', async () => {
    await waitForCount('left', counts(5, 3, 1, 0), 0, { stallMs: 1_000, intervalMs: 1 });
  });

  it('names the last error when the count never answers', async () => {
    const failing = (): Promise<number> => Promise.reject(new Error('connection refused'));
    await expect(waitForCount('n', failing, 1, { stallMs: 20, intervalMs: 1 })).rejects.toThrow(
      /stuck at no answer of 1 .*connection refused/,
    );
  });

  it('stops at once when abortIf throws', async () => {
    const abortIf = (): void => {
      throw new Error('sync exited');
    };
    await expect(waitForCount('n', counts(0), 1, { stallMs: 60_000, abortIf })).rejects.toThrow(
      'sync exited',
    );
  });
});
