import { describe, expect, it } from 'vitest';
import { TokenBucket } from './rate.js';

describe('TokenBucket', () => {
  it('allows a second of burst, then perSecond, and says how long to wait', () => {
    const bucket = new TokenBucket(2, 0);
    expect(bucket.take(0)).toBe(true);
    expect(bucket.take(0)).toBe(true);
    expect(bucket.take(0)).toBe(false);
    expect(bucket.waitMs(0)).toBe(500);
    expect(bucket.take(500)).toBe(true);
    expect(bucket.take(500)).toBe(false);
    // Never more than one second's worth saved up.
    expect(bucket.take(60_000)).toBe(true);
    expect(bucket.take(60_000)).toBe(true);
    expect(bucket.take(60_000)).toBe(false);
  });
});
