import { afterEach, describe, expect, it, vi } from 'vitest';
import { memoryLogger } from '../testing/sync.js';
import { createMetrics } from './metrics.js';
import {
  CHECK_MS,
  GROWTH_BYTES,
  MemoryReturn,
  MIN_INTERVAL_MS,
  PRESSURE_INTERVAL_MS,
  PRESSURE_SHARE,
  QUIET_UTILIZATION,
  type Reading,
  shouldReturn,
} from './memory-return.js';

const MiB = 2 ** 20;
const last = { rssBytes: 120 * MiB, at: 1_000_000 };
const later = last.at + MIN_INTERVAL_MS;

describe('shouldReturn', () => {
  it('returns memory the first time the process is quiet', () => {
    expect(shouldReturn({ utilization: 0.01, rssBytes: 90 * MiB, at: 0 }, undefined)).toBe('quiet');
  });

  it('waits while the event loop is busy, however much the process grew', () => {
    expect(
      shouldReturn({ utilization: QUIET_UTILIZATION, rssBytes: 900 * MiB, at: later }, last),
    ).toBeUndefined();
    expect(shouldReturn({ utilization: 0.8, rssBytes: 900 * MiB, at: 0 }, undefined)).toBeUndefined();
  });

  it('collects again only after the resident set grew by GROWTH_BYTES since the last return', () => {
    const grown = last.rssBytes + GROWTH_BYTES;
    expect(shouldReturn({ utilization: 0, rssBytes: grown - 1, at: later }, last)).toBeUndefined();
    expect(shouldReturn({ utilization: 0, rssBytes: grown, at: later }, last)).toBe('quiet');
    // A process that shrank on its own (the system took pages back) is no reason either.
    expect(
      shouldReturn({ utilization: 0, rssBytes: last.rssBytes - 10 * MiB, at: later }, last),
    ).toBeUndefined();
  });

  it('collects again no sooner than MIN_INTERVAL_MS after the last return', () => {
    const grown = last.rssBytes + 4 * GROWTH_BYTES;
    expect(shouldReturn({ utilization: 0, rssBytes: grown, at: later - 1 }, last)).toBeUndefined();
    expect(shouldReturn({ utilization: 0, rssBytes: grown, at: later }, last)).toBe('quiet');
  });
});

describe('shouldReturn near the memory request', () => {
  const request = 256 * MiB;
  const near = Math.ceil(PRESSURE_SHARE * request);
  const busy = 0.9;
  const soon = last.at + PRESSURE_INTERVAL_MS;

  it('collects while busy once the resident set nears the request', () => {
    expect(shouldReturn({ utilization: busy, rssBytes: near, at: 0 }, undefined, request)).toBe('pressure');
    expect(shouldReturn({ utilization: busy, rssBytes: near, at: soon }, last, request)).toBe('pressure');
  });

  it('does not while busy below the share, or when the request is not known', () => {
    expect(shouldReturn({ utilization: busy, rssBytes: near - 1, at: soon }, last, request)).toBeUndefined();
    expect(shouldReturn({ utilization: busy, rssBytes: 2 * request, at: soon }, last)).toBeUndefined();
  });

  it('waits PRESSURE_INTERVAL_MS between returns, and for GROWTH_BYTES of growth', () => {
    const atNear = { rssBytes: near, at: last.at };
    const grown = near + GROWTH_BYTES;
    expect(
      shouldReturn({ utilization: busy, rssBytes: grown, at: soon - 1 }, atNear, request),
    ).toBeUndefined();
    // A live heap above the request on its own: the last return could not go below it.
    expect(
      shouldReturn({ utilization: busy, rssBytes: grown - 1, at: soon }, atNear, request),
    ).toBeUndefined();
    expect(shouldReturn({ utilization: busy, rssBytes: grown, at: soon }, atNear, request)).toBe('pressure');
  });

  it('says quiet when the process is also quiet and due', () => {
    expect(shouldReturn({ utilization: 0, rssBytes: near, at: 0 }, undefined, request)).toBe('quiet');
  });
});

describe('MemoryReturn', () => {
  afterEach(() => vi.useRealTimers());

  it('collects while busy near the request, counts it by reason and logs what it freed', async () => {
    vi.useFakeTimers();
    const request = 256 * MiB;
    const readings: Reading[] = [
      { utilization: 0.9, rssBytes: 180 * MiB, at: 0 },
      { utilization: 0.9, rssBytes: 240 * MiB, at: 0 },
      { utilization: 0, rssBytes: 190 * MiB, at: 0 },
    ];
    const collect = vi.fn();
    const { logger, lines } = memoryLogger();
    const metrics = createMetrics('operator');
    const memory = new MemoryReturn({
      logger,
      requestBytes: request,
      returns: metrics.memoryReturnsTotal,
      collect,
      read: () => readings.shift()!,
    });
    memory.start();
    vi.advanceTimersByTime(CHECK_MS);
    expect(collect).not.toHaveBeenCalled();
    vi.advanceTimersByTime(CHECK_MS);
    memory.stop();
    expect(collect).toHaveBeenCalledTimes(1);
    expect(lines.at(-1)).toMatchObject({ reason: 'pressure', rssBeforeMiB: 240, rssAfterMiB: 190 });
    const returns = await metrics.memoryReturnsTotal.get();
    expect(Object.fromEntries(returns.values.map((v) => [v.labels.reason, v.value]))).toEqual({
      quiet: 0,
      pressure: 1,
    });
  });

  it('says once that it cannot, without the collection', () => {
    const { logger, lines } = memoryLogger();
    new MemoryReturn({ logger, collect: undefined }).start();
    expect(lines).toHaveLength(1);
    expect(String(lines[0]!.msg)).toContain('--expose-gc');
  });
});
