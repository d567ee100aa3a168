// How a list sizes its pages: smaller after a page of large objects, back up after small ones.
import { describe, expect, it } from 'vitest';
import { nextPageSize } from './list.js';

const MiB = 2 ** 20;

describe('nextPageSize', () => {
  it('keeps pages of small objects at their size, and grows a small first page up to the most', () => {
    expect(nextPageSize(100, 300_000, 100)).toBe(100);
    expect(nextPageSize(16, 50_000, 100)).toBe(32);
    expect(nextPageSize(64, 200_000, 100)).toBe(100);
  });

  it('shrinks in proportion after a page over 8 MiB, never below one object', () => {
    // 16 objects of 320 KB: 5 MiB, kept at 16; 100 ConfigMaps of 1 MB: 100 MiB, down to 8.
    expect(nextPageSize(16, 5 * MiB, 100)).toBe(16);
    expect(nextPageSize(100, 100 * MiB, 100)).toBe(8);
    expect(nextPageSize(1, 20 * MiB, 100)).toBe(1);
  });
});
