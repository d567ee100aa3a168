import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatDuration, parseDuration } from './duration.js';

describe('parseDuration', () => {
  it.each([
    ['24h', 86_400_000],
    ['90s', 90_000],
    ['0s', 0],
    ['0', 0],
    ['1h30m', 5_400_000],
    ['1.5h', 5_400_000],
    ['500ms', 500],
    ['2m3s', 123_000],
    ['.5s', 500],
    ['1500us', 2],
    ['1µs', 0],
  ])('%s is %d ms', (text, ms) => {
    expect(parseDuration(text)).toBe(ms);
  });

  it.each(['', '24', '-1h', '1d', 'h', '1h ', ' 1h', '1H', '1h30', 'forever', '1e3s'])(
    'refuses %j',
    (text) => {
      expect(parseDuration(text)).toBeUndefined();
    },
  );

  it('reads back what formatDuration writes, for whole seconds', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10 * 365 * 86_400 }), (seconds) => {
        expect(parseDuration(formatDuration(seconds * 1000))).toBe(seconds * 1000);
      }),
    );
  });
});

describe('formatDuration', () => {
  it.each([
    [0, '0s'],
    [86_400_000, '24h'],
    [90_000, '1m30s'],
    [3_601_000, '1h1s'],
  ])('%d ms is %s', (ms, text) => {
    expect(formatDuration(ms)).toBe(text);
  });
});
