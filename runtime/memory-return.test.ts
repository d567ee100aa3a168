import { describe, expect, it } from 'vitest';
import { GROWTH_BYTES, MIN_INTERVAL_MS, QUIET_UTILIZATION, shouldReturn } from './memory-return.js';

const MiB = 2 ** 20;
const last = { rssBytes: 120 * MiB, at: 1_000_000 };
const later = last.at + MIN_INTERVAL_MS;

describe('shouldReturn', () => {
  it('returns memory the first time the process is quiet', () => {
    expect(shouldReturn({ utilization: 0.01, rssBytes: 90 * MiB, at: 0 }, undefined)).toBe(true);
  });

  it('waits while the event loop is busy, however much the process grew', () => {
    expect(shouldReturn({ utilization: QUIET_UTILIZATION, rssBytes: 900 * MiB, at: later }, last)).toBe(
      false,
    );
    expect(shouldReturn({ utilization: 0.8, rssBytes: 900 * MiB, at: 0 }, undefined)).toBe(false);
  });

  it('collects again only after the resident set grew by GROWTH_BYTES since the last return', () => {
    const grown = last.rssBytes + GROWTH_BYTES;
    expect(shouldReturn({ utilization: 0, rssBytes: grown - 1, at: later }, last)).toBe(false);
    expect(shouldReturn({ utilization: 0, rssBytes: grown, at: later }, last)).toBe(true);
    // A process that shrank on its own (the system took pages back) is no reason either.
    expect(shouldReturn({ utilization: 0, rssBytes: last.rssBytes - 10 * MiB, at: later }, last)).toBe(false);
  });

  it('collects again no sooner than MIN_INTERVAL_MS after the last return', () => {
    const grown = last.rssBytes + 4 * GROWTH_BYTES;
    expect(shouldReturn({ utilization: 0, rssBytes: grown, at: later - 1 }, last)).toBe(false);
    expect(shouldReturn({ utilization: 0, rssBytes: grown, at: later }, last)).toBe(true);
  });
});
