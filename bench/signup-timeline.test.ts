// Where a signup's wait goes, and the signups' table and command line: pure, no cluster.
import { describe, expect, it } from 'vitest';
import { API_VERSION, KIND, type Tenant } from '../api/tenant.js';
import { parseArgs } from './args.js';
import { scheduledAt, signupOf, type SignupResult } from './scenarios/signups.js';
import { signupRows, signupTable } from './signup-table.js';
import {
  observe,
  observeNamespace,
  observeWorkload,
  stagesOf,
  summarizeSignups,
  type SignupTimeline,
} from './signup-timeline.js';

function tenant(conditions: [string, string][] = []): Tenant {
  return {
    apiVersion: API_VERSION,
    kind: KIND,
    metadata: { name: 'su-00000' },
    status: {
      conditions: conditions.map(([type, status]) => ({
        type,
        status,
        reason: 'R',
        message: '',
        lastTransitionTime: '2026-12-06T00:00:00Z',
      })),
    },
  } as Tenant;
}

describe('--signups', () => {
  it('runs the signups scenario alone, at 10 rows/s for 60 s with 2 edits/s unless told', () => {
    const options = parseArgs(['--signups', '--sizes=1000']);
    expect(options.scenarios).toEqual(['signups']);
    expect(options.signups).toEqual({ rate: 10, seconds: 60, editRate: 2, pool: 20 });
  });

  it('takes a rate, a duration, an edit rate and a pool size, and refuses what is not one', () => {
    const options = parseArgs([
      '--signups',
      '--signup-rate=2.5',
      '--signup-seconds=30',
      '--signup-edit-rate=0',
      '--signup-pool=120',
    ]);
    expect(options.signups).toEqual({ rate: 2.5, seconds: 30, editRate: 0, pool: 120 });
    expect(() => parseArgs(['--signups', '--signup-rate=0'])).toThrow();
    expect(() => parseArgs(['--signups', '--signup-seconds=1.5'])).toThrow();
    expect(() => parseArgs(['--signups', '--signup-edit-rate=-1'])).toThrow();
    expect(() => parseArgs(['--signups', '--signup-pool=0'])).toThrow();
  });

  it('schedules rows evenly and alternates the pooled class and the cold one', () => {
    expect([0, 1, 10].map((i) => scheduledAt(i, 10))).toEqual([0, 100, 1000]);
    expect(signupOf(0)).toEqual({ name: 'su-00000', className: 'bench-pooled' });
    expect(signupOf(1)).toEqual({ name: 'su-00001', className: 'bench-slow' });
  });
});

describe('a signup timeline', () => {
  it('takes each step the first time the watch sees it', () => {
    const t: SignupTimeline = { writtenAt: 1000 };
    observe(t, tenant(), 1100);
    observe(t, tenant([['Synced', 'True']]), 1150);
    expect(t).toEqual({ writtenAt: 1000, createdAt: 1100 });
    observe(
      t,
      tenant([
        ['Applied', 'True'],
        ['Available', 'False'],
        ['Ready', 'False'],
      ]),
      1300,
    );
    observe(
      t,
      tenant([
        ['Available', 'True'],
        ['Ready', 'False'],
      ]),
      21_300,
    );
    observe(
      t,
      tenant([
        ['Available', 'True'],
        ['Ready', 'True'],
      ]),
      21_350,
    );
    observe(
      t,
      tenant([
        ['Available', 'True'],
        ['Ready', 'True'],
      ]),
      30_000,
    );
    expect(stagesOf(t)).toEqual({
      sync: 100,
      operator: 200,
      workload: 20_000,
      app: 0,
      status: 50,
      total: 20_350,
    });
  });

  it('fills the steps a watch skipped with the moment it saw a later one', () => {
    const t: SignupTimeline = { writtenAt: 0 };
    observe(
      t,
      tenant([
        ['Available', 'True'],
        ['Ready', 'True'],
      ]),
      500,
    );
    expect(stagesOf(t)).toEqual({ sync: 500, operator: 0, workload: 0, app: 0, status: 0, total: 500 });
  });

  it("takes the operator's first reconcile from the tenant's namespace when it comes before a status", () => {
    const t: SignupTimeline = { writtenAt: 0 };
    observe(t, tenant(), 100);
    observeNamespace(t, 400, 300);
    observeWorkload(t, 900);
    observe(
      t,
      tenant([
        ['Available', 'True'],
        ['Ready', 'True'],
      ]),
      20_400,
    );
    observeNamespace(t, 20_500, 300);
    observeWorkload(t, 20_600);
    expect(stagesOf(t)).toEqual({
      sync: 100,
      operator: 300,
      workload: 500,
      app: 19_500,
      status: 0,
      total: 20_400,
    });
  });

  it("takes the namespace's moment from the tenant's Deployment when its watch saw that first", () => {
    const t: SignupTimeline = { writtenAt: 0, createdAt: 100 };
    observeWorkload(t, 350);
    observeNamespace(t, 380, 0);
    expect(t).toEqual({ writtenAt: 0, createdAt: 100, reconciledAt: 350, workloadAt: 350, claimed: false });
  });

  it('tells a claimed pool member (made a second or more before the row) from a namespace made cold', () => {
    const claimed: SignupTimeline = { writtenAt: 60_700 };
    observeNamespace(claimed, 61_000, 30_000);
    const cold: SignupTimeline = { writtenAt: 60_700 };
    // creationTimestamp keeps the second: a namespace made 0.2 s after the row reads as 60.000.
    observeNamespace(cold, 61_000, 60_000);
    expect([claimed.claimed, cold.claimed]).toEqual([true, false]);
  });

  it('has no stages until Ready', () => {
    const t: SignupTimeline = { writtenAt: 0 };
    observe(t, tenant([['Applied', 'True']]), 10);
    expect(stagesOf(t)).toBeUndefined();
  });

  it('summarizes only the Ready ones, each stage on its own', () => {
    const timelines: SignupTimeline[] = [
      ...Array.from({ length: 10 }, (_, i) => ({
        writtenAt: 0,
        createdAt: 100,
        reconciledAt: 200 + i,
        workloadAt: 300 + i,
        availableAt: 1000 * (i + 1),
        readyAt: 1000 * (i + 1) + 10,
      })),
      { writtenAt: 0, createdAt: 100 },
    ];
    const summary = summarizeSignups(timelines);
    expect([summary.written, summary.ready]).toEqual([11, 10]);
    expect(summary.total).toMatchObject({ p50Ms: 5010, p90Ms: 9010, p99Ms: 10_010 });
    expect(summary.stages.sync).toMatchObject({ p50Ms: 100, p99Ms: 100 });
    expect(summary.stages.status).toMatchObject({ p50Ms: 10 });
  });
});

describe('the signups table', () => {
  const summary = summarizeSignups([
    { writtenAt: 0, createdAt: 80, reconciledAt: 300, workloadAt: 450, availableAt: 500, readyAt: 520 },
  ]);
  const result: SignupResult = {
    tenants: 1000,
    rate: 10,
    seconds: 60,
    editRate: 2,
    appStartSeconds: 20,
    poolSize: 20,
    classes: { 'bench-pooled': summary, 'bench-slow': summary },
    warmClaims: 20,
    edits: 120,
    rollout: { startedAfterSeconds: 20, tenants: 1000, seconds: 31.5 },
    backgroundSeconds: 90,
  };

  it('has a row per class at each size, with its percentiles and stages', () => {
    expect(signupRows([result]).map((r) => r.className)).toEqual(['bench-pooled', 'bench-slow']);
    const table = signupTable([result, { error: 'boom' }]);
    expect(table).toMatch(
      /\| +1000 \| bench-pooled \| +1\/1 \| +520\/520\/520 \| +80\/80 \| +220\/220 \| +150\/150 \| +50\/50 \| +20\/20 \|/,
    );
    expect(table).toContain(
      '120 edits of running rows; class rollout to 1000 tenants started at 20.0 s, done in 31.5 s',
    );
  });

  it('is empty when no size completed', () => {
    expect(signupTable([{ error: 'boom' }])).toBe('');
  });
});
