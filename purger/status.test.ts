import { describe, expect, it } from 'vitest';
import { API_VERSION, KIND, type PurgeStatus, type Tenant } from '../api/tenant.js';
import {
  cancelledCondition,
  endedPurge,
  progressCondition,
  purgerStatus,
  scheduledPurge,
  startedPurge,
  statusCurrent,
  totalDeleted,
  withTable,
} from './status.js';

const NOW = new Date('2026-12-01T12:00:00Z');
const TIMES = { scheduledAt: '2026-12-01T11:00:00Z', startsAt: '2026-12-01T12:00:00Z' };

function tenant(purge?: PurgeStatus): Tenant {
  return {
    apiVersion: API_VERSION,
    kind: KIND,
    metadata: { name: 'acme', generation: 4 },
    spec: { state: 'purged' },
    status: { purge },
  };
}

describe('purge status', () => {
  it('a new cycle lists every configured table as pending, nothing deleted', () => {
    expect(scheduledPurge(tenant(), TIMES, ['orders', 'events'])).toEqual({
      phase: 'Scheduled',
      ...TIMES,
      observedGeneration: 4,
      tables: [
        { table: 'orders', phase: 'Pending', deleted: 0 },
        { table: 'events', phase: 'Pending', deleted: 0 },
      ],
    });
  });

  it('resuming keeps completed tables and counts, and the first start time', () => {
    const before: PurgeStatus = {
      phase: 'Running',
      ...TIMES,
      startedAt: '2026-12-01T11:30:00Z',
      tables: [
        { table: 'orders', phase: 'Completed', deleted: 10, startedAt: 'a', finishedAt: 'b' },
        { table: 'events', phase: 'Running', deleted: 7, startedAt: 'c' },
      ],
    };
    const started = startedPurge(tenant(before), TIMES, ['orders', 'events', 'audit'], NOW);
    expect(started.startedAt).toBe('2026-12-01T11:30:00Z');
    expect(started.tables).toEqual([
      { table: 'orders', phase: 'Completed', deleted: 10, startedAt: 'a', finishedAt: 'b' },
      { table: 'events', phase: 'Pending', deleted: 7, startedAt: 'c' },
      { table: 'audit', phase: 'Pending', deleted: 0 },
    ]);
    expect(totalDeleted(started)).toBe(17);
  });

  it('a first start records now', () => {
    const started = startedPurge(tenant(scheduledPurge(tenant(), TIMES, ['t'])), TIMES, ['t'], NOW);
    expect(started).toMatchObject({ phase: 'Running', startedAt: '2026-12-01T12:00:00Z' });
  });

  it('an end records its phase and time', () => {
    const ended = endedPurge(
      withTable(scheduledPurge(tenant(), TIMES, ['t']), 't', { deleted: 3 }),
      'Completed',
      NOW,
    );
    expect(ended).toMatchObject({ phase: 'Completed', finishedAt: '2026-12-01T12:00:00Z' });
    expect(totalDeleted(ended)).toBe(3);
  });
});

describe('the Purged condition', () => {
  it.each<[PurgeStatus['phase'], string, string]>([
    ['Scheduled', 'False', 'PurgeScheduled'],
    ['Running', 'False', 'Purging'],
    ['Completed', 'True', 'Purged'],
  ])('%s → %s %s', (phase, status, reason) => {
    expect(progressCondition({ ...scheduledPurge(tenant(), TIMES, ['t']), phase })).toMatchObject({
      type: 'Purged',
      status,
      reason,
    });
  });

  it('scheduled says when deleting starts and how to cancel', () => {
    expect(progressCondition(scheduledPurge(tenant(), TIMES, ['orders'])).message).toBe(
      "state purged: the tenant's data in orders will be deleted from 2026-12-01T12:00:00Z; set the row's state back to active before then to cancel",
    );
  });

  it('running says no count, so progress never rewrites the condition', () => {
    const a = withTable(startedPurge(tenant(), TIMES, ['t'], NOW), 't', { deleted: 1 });
    const b = withTable(a, 't', { deleted: 5000 });
    expect(progressCondition(a)).toEqual(progressCondition(b));
  });

  it('cancelled says what had been deleted', () => {
    expect(cancelledCondition('active', 12).message).toMatch(/\(active\).* 12 items had been deleted/);
  });
});

describe('statusCurrent', () => {
  it('is true for what the Tenant already says, so the steady state costs no write', () => {
    const purge = scheduledPurge(tenant(), TIMES, ['t']);
    const written = purgerStatus(tenant(purge), purge, progressCondition(purge), NOW);
    const t = { ...tenant(purge), status: { purge, conditions: written.conditions } };
    const again = purgerStatus(t, purge, progressCondition(purge), new Date('2026-12-01T13:00:00Z'));
    expect(again.conditions[0]!.lastTransitionTime).toBe(written.conditions[0]!.lastTransitionTime);
    expect(statusCurrent(t, again)).toBe(true);
    expect(statusCurrent(t, { ...again, purge: withTable(purge, 't', { deleted: 1 }) })).toBe(false);
  });
});
