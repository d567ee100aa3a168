import { describe, expect, it } from 'vitest';
import { PurgeAbortedError } from './errors.js';
import { WriteRateLimiter, type LimiterClock } from './rate-limiter.js';

/** A clock that only moves when told to; sleeping records the wait and moves time by it. */
function fakeClock(): LimiterClock & { time: number; waits: number[] } {
  const clock = {
    time: 1000,
    waits: [] as number[],
    now: () => clock.time,
    sleep: (ms: number) => {
      clock.waits.push(ms);
      return Promise.resolve();
    },
  };
  return clock;
}

describe('WriteRateLimiter', () => {
  it('spaces takes by their items at the ceiling: 25 items at 500/s is one take per 50 ms', () => {
    const clock = fakeClock();
    const limiter = new WriteRateLimiter(500, clock);
    expect([1, 2, 3, 4].map(() => limiter.reserve(25))).toEqual([50, 100, 150, 200]);
  });

  it('never lets more items through by any time than the ceiling allows since it got busy', () => {
    const clock = fakeClock();
    const limiter = new WriteRateLimiter(300, clock);
    const start = clock.time;
    let items = 0;
    for (let i = 0; i < 1000; i++) {
      const size = 1 + (i % 25);
      const wait = limiter.reserve(size);
      clock.time += wait + (i % 3); // the caller starts at its turn, and asks again a little later
      items += size;
      const allowed = ((clock.time - start) / 1000) * 300;
      expect(items).toBeLessThanOrEqual(allowed + 1e-9);
    }
  });

  it('saves nothing up while idle: after a pause the next takes are spaced again', () => {
    const clock = fakeClock();
    const limiter = new WriteRateLimiter(100, clock);
    expect(limiter.reserve(10)).toBe(100);
    clock.time += 60_000;
    expect([limiter.reserve(10), limiter.reserve(10)]).toEqual([100, 200]);
  });

  it('is off at 0 and at Infinity, and refuses a negative ceiling', async () => {
    for (const rate of [0, Infinity]) {
      const clock = fakeClock();
      const limiter = new WriteRateLimiter(rate, clock);
      for (let i = 0; i < 100; i++) await limiter.take(25);
      expect(clock.waits).toEqual([]);
      expect(limiter.limited).toBe(false);
    }
    expect(() => new WriteRateLimiter(-1)).toThrow(RangeError);
    expect(() => new WriteRateLimiter(Number.NaN)).toThrow(RangeError);
  });

  it('shares one schedule between callers, and waits through the clock', async () => {
    const clock = fakeClock();
    const limiter = new WriteRateLimiter(1000, clock);
    await Promise.all([limiter.take(25), limiter.take(25), limiter.take(25)]);
    expect(clock.waits).toEqual([25, 50, 75]);
  });

  it('stops waiting with PurgeAbortedError when the signal aborts', async () => {
    const limiter = new WriteRateLimiter(1);
    limiter.reserve(1000); // the next turn is 1000 s away
    const controller = new AbortController();
    const taking = limiter.take(1, controller.signal);
    controller.abort();
    await expect(taking).rejects.toBeInstanceOf(PurgeAbortedError);
    await expect(limiter.take(1, controller.signal)).rejects.toBeInstanceOf(PurgeAbortedError);
  });
});
