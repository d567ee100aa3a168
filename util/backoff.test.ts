import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { backoffDelay, fullJitterDelay, sleep } from './backoff.js';

describe('fullJitterDelay', () => {
  it('draws from zero up to the doubled, capped ceiling', () => {
    expect([0, 1, 2, 3, 7].map((attempt) => fullJitterDelay(attempt, 50, 1000, () => 0.999999))).toEqual([
      50, 100, 200, 400, 1000,
    ]);
    expect(fullJitterDelay(5, 50, 1000, () => 0)).toBe(0);
    expect(fullJitterDelay(2, 50, 1000, () => 0.5)).toBe(100);
  });

  it('never leaves [0, cap] for any attempt', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 100_000 }),
        fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
        (attempt, random) => {
          const delay = fullJitterDelay(attempt, 50, 5000, () => random);
          expect(delay).toBeGreaterThanOrEqual(0);
          expect(delay).toBeLessThanOrEqual(5000);
        },
      ),
    );
  });
});

describe('backoffDelay', () => {
  it('doubles from the base and stops at the cap when there is no jitter', () => {
    const delays = [0, 1, 2, 3, 4, 5, 6].map((attempt) => backoffDelay(attempt, 250, 5000, 0));
    expect(delays).toEqual([250, 500, 1000, 2000, 4000, 5000, 5000]);
  });

  it('spreads by exactly ±jitter at the extremes of the random source', () => {
    expect(backoffDelay(2, 100, 10_000, 0.25, () => 0)).toBe(300);
    expect(backoffDelay(2, 100, 10_000, 0.25, () => 0.5)).toBe(400);
    expect(backoffDelay(2, 100, 10_000, 0.25, () => 1)).toBe(500);
  });

  it('stays within the jittered bounds for any input', () => {
    const input = fc.record({
      attempt: fc.integer({ min: 0, max: 10_000 }),
      base: fc.integer({ min: 0, max: 60_000 }),
      extra: fc.integer({ min: 0, max: 600_000 }),
      jitter: fc.double({ min: 0, max: 1, noNaN: true }),
      random: fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
    });
    fc.assert(
      fc.property(input, ({ attempt, base, extra, jitter, random }) => {
        const max = base + extra;
        const delay = backoffDelay(attempt, base, max, jitter, () => random);
        const capped = Math.min(max, base * 2 ** Math.min(attempt, 52));
        expect(Number.isInteger(delay)).toBe(true);
        expect(delay).toBeGreaterThanOrEqual(Math.floor(capped * (1 - jitter)));
        expect(delay).toBeLessThanOrEqual(Math.ceil(capped * (1 + jitter)));
      }),
    );
  });

  it('never grows with a zero base, however many attempts', () => {
    expect(backoffDelay(100_000, 0, 1000, 0.5)).toBe(0);
  });

  it('rejects arguments that have no sensible delay', () => {
    expect(() => backoffDelay(-1, 100, 1000, 0)).toThrow(RangeError);
    expect(() => backoffDelay(1.5, 100, 1000, 0)).toThrow(RangeError);
    expect(() => backoffDelay(0, 100, 50, 0)).toThrow(RangeError);
    expect(() => backoffDelay(0, 100, 1000, 1.5)).toThrow(RangeError);
    expect(() => backoffDelay(0, Number.NaN, 1000, 0)).toThrow(RangeError);
  });
});

describe('sleep', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('resolves after the delay, not before', async () => {
    let done = false;
    const slept = sleep(1000).then(() => (done = true));
    await vi.advanceTimersByTimeAsync(999);
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await slept;
    expect(done).toBe(true);
  });

  it('rejects with the abort reason as soon as the signal aborts, and leaves no timer', async () => {
    const controller = new AbortController();
    const slept = sleep(60_000, controller.signal);
    const reason = new Error('shutting down');
    controller.abort(reason);
    await expect(slept).rejects.toBe(reason);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('rejects at once when the signal has already aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(sleep(10, controller.signal)).rejects.toMatchObject({ name: 'AbortError' });
    expect(vi.getTimerCount()).toBe(0);
  });

  it('does not keep a listener on the signal once it resolved', async () => {
    const controller = new AbortController();
    const remove = vi.spyOn(controller.signal, 'removeEventListener');
    const slept = sleep(10, controller.signal);
    await vi.advanceTimersByTimeAsync(10);
    await slept;
    expect(remove).toHaveBeenCalledWith('abort', expect.any(Function));
  });
});
