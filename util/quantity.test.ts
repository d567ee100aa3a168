import { describe, expect, it } from 'vitest';
import { quantityValue } from './quantity.js';

describe('quantityValue', () => {
  it.each<[unknown, number]>([
    ['1Gi', 2 ** 30],
    ['512Mi', 512 * 2 ** 20],
    ['1.5Gi', 1.5 * 2 ** 30],
    ['1G', 1e9],
    ['100k', 1e5],
    ['500m', 0.5],
    ['1e3', 1000],
    ['2E6', 2e6],
    ['.5Ki', 512],
    ['123', 123],
    [4096, 4096],
    ['0.5', 0.5],
  ])('%s is %d', (text, value) => {
    expect(quantityValue(text)).toBeCloseTo(value);
  });

  it.each<unknown>([
    '',
    'Gi',
    '1 Gi',
    '1GB',
    '1gi',
    'ten',
    '1Gi ',
    'nginx:1',
    null,
    {},
    Number.POSITIVE_INFINITY,
  ])('%j is not a quantity', (text) => {
    expect(quantityValue(text)).toBeUndefined();
  });
});
