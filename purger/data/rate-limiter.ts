// A ceiling on delete throughput in items per second, shared by every worker of every purge in the
// process, so that a purge leaves the table's capacity to production traffic. Each take books its
// items on one schedule and goes once their slot has passed: callers go in the order they asked,
// and by any time t the items let through never exceed the ceiling times the time since the
// limiter got busy, so a measured rate cannot exceed the ceiling either.
import { sleep } from '../../util/backoff.js';
import { PurgeAbortedError } from './errors.js';

/** Time as the limiter sees it; tests pass a fake one to check the arithmetic without waiting. */
export interface LimiterClock {
  now(): number;
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

const REAL_CLOCK: LimiterClock = { now: () => performance.now(), sleep };

export class WriteRateLimiter {
  /** Where the booked slots end: the next take's slot starts here, or now if that is later (clock ms). */
  private nextFree = -Infinity;
  private readonly msPerItem: number;

  /** `itemsPerSecond`: the ceiling; 0 or Infinity means none. */
  constructor(
    readonly itemsPerSecond: number,
    private readonly clock: LimiterClock = REAL_CLOCK,
  ) {
    if (Number.isNaN(itemsPerSecond) || itemsPerSecond < 0) {
      throw new RangeError(
        `write rate must be 0 (no ceiling) or more items per second, got ${itemsPerSecond}`,
      );
    }
    this.msPerItem = itemsPerSecond === 0 || itemsPerSecond === Infinity ? 0 : 1000 / itemsPerSecond;
  }

  get limited(): boolean {
    return this.msPerItem > 0;
  }

  /** Resolves when `items` may be written; rejects with PurgeAbortedError if the signal aborts first. */
  async take(items: number, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted === true) throw new PurgeAbortedError();
    const wait = this.reserve(items);
    if (wait <= 0) return;
    try {
      await this.clock.sleep(wait, signal);
    } catch {
      throw new PurgeAbortedError();
    }
  }

  /** Books `items` on the schedule and says how long the caller waits until their slot ends (ms). */
  reserve(items: number): number {
    if (!this.limited || items <= 0) return 0;
    const now = this.clock.now();
    // An idle limiter saves nothing up: a burst after a pause starts at the ceiling, not above it.
    this.nextFree = Math.max(now, this.nextFree) + items * this.msPerItem;
    return this.nextFree - now;
  }
}
