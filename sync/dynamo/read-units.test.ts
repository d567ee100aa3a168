import { describe, expect, it } from 'vitest';
import { itemSize, readUnits } from './read-units.js';

describe('read units', () => {
  it('sizes an item by its attribute names and values', () => {
    expect(itemSize({ name: { S: 'ab' }, deleted: { BOOL: false } })).toBe(4 + 2 + 7 + 1);
  });

  it('rounds the summed size up to 4 KB, halved when eventually consistent', () => {
    const item = { name: { S: 'x'.repeat(996) } }; // 1000 bytes
    expect(readUnits([item], true)).toBe(1);
    expect(
      readUnits(
        Array.from({ length: 5 }, () => item),
        true,
      ),
    ).toBe(2);
    expect(
      readUnits(
        Array.from({ length: 5 }, () => item),
        false,
      ),
    ).toBe(1);
    expect(readUnits([], true)).toBe(0);
  });
});
