import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { API_VERSION, KIND, type Tenant } from '../api/tenant.js';
import {
  afterCompleteScan,
  allowance,
  TakedownBudget,
  doomedTenants,
  dueForEvent,
  liveTenants,
} from './takedown-budget.js';

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

describe('TakedownBudget', () => {
  it('grants nothing before the first complete scan', () => {
    expect(new TakedownBudget({ fraction: 0.1, minimum: 5 }).take(1)).toBe(0);
  });

  it('holds back what exceeds the interval, wherever the requests come from', () => {
    const budget = new TakedownBudget({ fraction: 0.1, minimum: 2 });
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
        const budget = new TakedownBudget({ fraction, minimum });
        const limit = budget.reset(tenants);
        const granted = asks.map((ask) => budget.take(ask));
        expect(granted.every((g) => g >= 0)).toBe(true);
        expect(granted.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(limit);
        expect(limit).toBe(allowance(tenants, { fraction, minimum }));
      }),
    );
  });
});

const tenant = (name: string, deleting = false): Tenant => ({
  apiVersion: API_VERSION,
  kind: KIND,
  metadata: { name, ...(deleting ? { deletionTimestamp: new Date('2026-01-01T00:00:00Z') } : {}) },
});

describe('TakedownBudget.plan', () => {
  it.each([
    { name: 'everything, within the budget', left: 5, names: ['a', 'b'], approved: ['a', 'b'], heldBack: [] },
    {
      name: 'the first ones, in order',
      left: 2,
      names: ['a', 'b', 'c'],
      approved: ['a', 'b'],
      heldBack: ['c'],
    },
    { name: 'nothing, with no budget', left: 0, names: ['a'], approved: [], heldBack: ['a'] },
    { name: 'nothing asked', left: 3, names: [], approved: [], heldBack: [] },
  ])('approves $name', ({ left, names, approved, heldBack }) => {
    const budget = new TakedownBudget({ fraction: 0, minimum: left });
    budget.reset(0);
    expect(budget.plan(names)).toEqual({ approved, heldBack });
    expect(budget.remaining).toBe(left - approved.length);
  });

  it('shares one budget between a scan and the stream', () => {
    const budget = new TakedownBudget({ fraction: 0, minimum: 2 });
    budget.reset(10);
    expect(budget.plan(['x'])).toEqual({ approved: ['x'], heldBack: [] });
    expect(budget.plan(['a', 'b'])).toEqual({ approved: ['a'], heldBack: ['b'] });
  });
});

describe('liveTenants and doomedTenants', () => {
  const tenants = [tenant('c'), tenant('a'), tenant('going', true), tenant('b'), tenant('')];

  it('counts only Tenants not already being deleted', () => {
    expect(liveTenants(tenants).map((t) => t.metadata.name)).toEqual(['c', 'a', 'b', '']);
  });

  it.each([
    { name: 'every row present', present: ['a', 'b', 'c'], gone: [] },
    { name: 'two rows gone, sorted', present: ['b'], gone: ['a', 'c'] },
    { name: 'an empty table', present: [], gone: ['a', 'b', 'c'] },
  ])('finds the gone rows: $name', ({ present, gone }) => {
    expect(doomedTenants(liveTenants(tenants), (name) => !present.includes(name))).toEqual(gone);
  });
});

describe('afterCompleteScan: one budget for every cause', () => {
  const names = Array.from({ length: 40 }, (_, i) => `t${String(i).padStart(2, '0')}`);
  const tenants = names.map((name) => tenant(name));
  const limits = { fraction: 0.1, minimum: 2 };

  it('holds back `deleted: true` rows beyond the budget, as it does gone rows', () => {
    const plan = afterCompleteScan(new TakedownBudget(limits), tenants, () => true);
    expect(plan.approved).toEqual(['t00', 't01', 't02', 't03']);
    expect(plan.heldBack).toHaveLength(36);
  });

  it('shares the budget between both causes, in name order', () => {
    const deleted = new Set(['t01', 't03', 't05']);
    const gone = new Set(['t00', 't02', 't04']);
    const plan = afterCompleteScan(
      new TakedownBudget(limits),
      tenants,
      (name) => deleted.has(name) || gone.has(name),
    );
    expect(plan.approved).toEqual(['t00', 't01', 't02', 't03']);
    expect(plan.heldBack).toEqual(['t04', 't05']);
  });

  it('keeps what is left of the budget when a complete read does not start a new interval', () => {
    const budget = new TakedownBudget(limits);
    expect(afterCompleteScan(budget, tenants, (name) => name < 't02').approved).toEqual(['t00', 't01']);
    // The next poll of the same interval finds more gone: only the rest of the 4 may go.
    const next = afterCompleteScan(budget, tenants.slice(2), (name) => name < 't10', false);
    expect(next.approved).toEqual(['t02', 't03']);
    expect(next.heldBack).toHaveLength(6);
    // A new interval is sized afresh, from the 36 left: 3.
    expect(afterCompleteScan(budget, tenants.slice(4), (name) => name < 't10').approved).toHaveLength(3);
  });

  it('lets the minimum through at once in a small table', () => {
    const budget = new TakedownBudget(limits);
    const plan = afterCompleteScan(budget, tenants.slice(0, 3), (name) => name === 't01');
    expect(plan).toMatchObject({ approved: ['t01'], heldBack: [] });
    expect(budget.remaining).toBe(1);
  });

  it('deletes every marked Tenant over later passes and none other', () => {
    const marked = new Set(names.slice(0, 30));
    const budget = new TakedownBudget(limits);
    let left = tenants;
    const deleted: string[] = [];
    for (let pass = 0; pass < 20 && left.some((t) => marked.has(t.metadata.name!)); pass++) {
      const { approved } = afterCompleteScan(budget, left, (name) => marked.has(name));
      expect(approved.length).toBeLessThanOrEqual(Math.max(2, Math.floor(0.1 * left.length)));
      deleted.push(...approved);
      left = left.filter((t) => !approved.includes(t.metadata.name!));
    }
    expect(deleted.sort()).toEqual([...marked].sort());
    expect(left.map((t) => t.metadata.name)).toEqual(names.slice(30));
  });
});

describe('dueForEvent', () => {
  const INTERVAL = 1000;
  it.each([
    { name: 'never reported', last: undefined, now: 5, due: true },
    { name: 'reported just now', last: 5, now: 5, due: false },
    { name: 'reported within the interval', last: 0, now: 999, due: false },
    { name: 'reported exactly one interval ago', last: 0, now: 1000, due: true },
    { name: 'reported long ago', last: 0, now: 50_000, due: true },
  ])('a held-back Tenant $name: due $due', ({ last, now, due }) => {
    const lastEventAt = new Map(last === undefined ? [] : [['a', last]]);
    expect(dueForEvent(['a'], lastEventAt, now, INTERVAL)).toEqual(due ? ['a'] : []);
  });
});
