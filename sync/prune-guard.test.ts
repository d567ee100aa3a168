import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { allowance, DeletionBudget } from './prune-guard.js';

describe('allowance', () => {
  it.each([
    { tenants: 0, fraction: 0.1, minimum: 5, expected: 5 },
    { tenants: 20, fraction: 0.1, minimum: 2, expected: 2 },
    { tenants: 49, fraction: 0.1, minimum: 5, expected: 5 },
    { tenants: 60, fraction: 0.1, minimum: 5, expected: 6 },
    { tenants: 5000, fraction: 0.1, minimum: 5, expected: 500 },
    { tenants: 5000, fraction: 0, minimum: 0, expected: 0 },
    { tenants: 7, fraction: 1, minimum: 0, expected: 7 },
  ])('is max(minimum, floor(fraction × tenants)): $tenants tenants → $expected', (c) => {
    expect(allowance(c.tenants, { fraction: c.fraction, minimum: c.minimum })).toBe(c.expected);
  });
});

describe('DeletionBudget', () => {
  it('grants nothing before the first complete scan', () => {
    expect(new DeletionBudget({ fraction: 0.1, minimum: 5 }).take(1)).toBe(0);
  });

  it('holds back what exceeds the interval, wherever the requests come from', () => {
    const budget = new DeletionBudget({ fraction: 0.1, minimum: 2 });
    budget.reset(20);
    expect(budget.take(1)).toBe(1); // a stream REMOVE
    expect(budget.take(18)).toBe(1); // the rest, from a scan: one left
    expect(budget.take(1)).toBe(0);
    budget.reset(18);
    expect(budget.take(17)).toBe(2);
  });

  it('never grants more in one interval than the allowance, nor a negative count', () => {
    const input = fc.record({
      tenants: fc.integer({ min: 0, max: 10_000 }),
      fraction: fc.double({ min: 0, max: 1, noNaN: true }),
      minimum: fc.integer({ min: 0, max: 50 }),
      asks: fc.array(fc.integer({ min: -5, max: 1000 }), { maxLength: 30 }),
    });
    fc.assert(
      fc.property(input, ({ tenants, fraction, minimum, asks }) => {
        const budget = new DeletionBudget({ fraction, minimum });
        const limit = budget.reset(tenants);
        const granted = asks.map((ask) => budget.take(ask));
        expect(granted.every((g) => g >= 0)).toBe(true);
        expect(granted.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(limit);
        expect(limit).toBe(allowance(tenants, { fraction, minimum }));
      }),
    );
  });
});
