import { describe, expect, it } from 'vitest';
import { API_VERSION, KIND, type Tenant } from '../api/tenant.js';
import { admitPurge, BUDGET_WINDOW_MS, PurgeStarts } from './budget.js';

const NOW = Date.parse('2026-12-01T12:00:00Z');
const MIN = 60_000;
const ago = (minutes: number): number => NOW - minutes * MIN;

describe('admitPurge', () => {
  it.each<[string, number[], number, ReturnType<typeof admitPurge>]>([
    ['no purge started yet', [], 10, { admitted: true }],
    ['fewer starts than the budget', [ago(1), ago(2)], 3, { admitted: true }],
    [
      'as many as the budget: wait for the oldest to leave the hour',
      [ago(5), ago(50)],
      2,
      {
        admitted: false,
        retryAt: ago(50) + BUDGET_WINDOW_MS,
      },
    ],
    [
      'more than the budget (two replicas raced): wait until enough leave',
      [ago(1), ago(10), ago(20)],
      2,
      {
        admitted: false,
        retryAt: ago(10) + BUDGET_WINDOW_MS,
      },
    ],
    ['starts an hour old or older no longer count', [ago(60), ago(61), ago(90)], 1, { admitted: true }],
    ['a start in the future (a clock ahead) does not count', [NOW + MIN], 1, { admitted: true }],
    [
      'budget 1, one start a minute ago',
      [ago(1)],
      1,
      { admitted: false, retryAt: ago(1) + BUDGET_WINDOW_MS },
    ],
  ])('%s', (_name, starts, perHour, expected) => {
    expect(admitPurge(starts, NOW, perHour)).toEqual(expected);
  });

  it('admits exactly the budget out of a burst, one after another', () => {
    const starts: number[] = [];
    for (let i = 0; i < 25; i++) if (admitPurge(starts, NOW, 10).admitted) starts.push(NOW);
    expect(starts).toHaveLength(10);
  });
});

function tenant(uid: string, startedAt?: string, purgeUid = uid): Tenant {
  return {
    apiVersion: API_VERSION,
    kind: KIND,
    metadata: { name: uid, uid },
    status:
      startedAt === undefined
        ? {}
        : {
            purge: {
              phase: 'Running',
              scheduledAt: startedAt,
              startsAt: startedAt,
              startedAt,
              uid: purgeUid,
              tables: [],
            },
          },
  };
}

describe('PurgeStarts', () => {
  it("counts this process's starts and the Tenants' recorded ones, each Tenant once", () => {
    const starts = new PurgeStarts();
    starts.record('a', ago(5));
    const tenants = [
      tenant('a', new Date(ago(5)).toISOString()),
      tenant('b', new Date(ago(30)).toISOString()),
      tenant('c'),
    ];
    expect(starts.recent(tenants, NOW).sort()).toEqual([ago(30), ago(5)].sort());
  });

  it('keeps a start after its Tenant is gone, and forgets it an hour later', () => {
    const starts = new PurgeStarts();
    starts.record('gone', ago(59));
    expect(starts.recent([], NOW)).toEqual([ago(59)]);
    expect(starts.recent([], NOW + 2 * MIN)).toEqual([]);
  });

  it('does not count a purge recorded for another Tenant of the same name', () => {
    const starts = new PurgeStarts();
    expect(starts.recent([tenant('new', new Date(ago(5)).toISOString(), 'old')], NOW)).toEqual([]);
  });
});
