import { describe, expect, it } from 'vitest';
import { GROWTH_BYTES, QUIET_UTILIZATION, shouldReturn } from './memory-return.js';

const MiB = 2 ** 20;

describe('shouldReturn', () => {
  it('returns memory the first time the process is quiet', () => {
    expect(shouldReturn({ utilization: 0.01, rssBytes: 90 * MiB }, 0)).toBe(true);
  });

  it('waits while the event loop is busy, however much the process grew', () => {
    expect(shouldReturn({ utilization: QUIET_UTILIZATION, rssBytes: 900 * MiB }, 90 * MiB)).toBe(false);
    expect(shouldReturn({ utilization: 0.8, rssBytes: 900 * MiB }, 90 * MiB)).toBe(false);
  });

  it('collects again only after the resident set grew by GROWTH_BYTES since the last return', () => {
    const after = 120 * MiB;
    expect(shouldReturn({ utilization: 0, rssBytes: after + GROWTH_BYTES - 1 }, after)).toBe(false);
    expect(shouldReturn({ utilization: 0, rssBytes: after + GROWTH_BYTES }, after)).toBe(true);
    // A process that shrank on its own (the system took pages back) is no reason either.
    expect(shouldReturn({ utilization: 0, rssBytes: after - 10 * MiB }, after)).toBe(false);
  });
});
