import { describe, expect, it } from 'vitest';
import { API_VERSION, KIND, type PurgeStatus, type Tenant } from '../api/tenant.js';
import { decidePurge, keepsPurging, type DecideInput } from './decide.js';

const NOW = new Date('2026-12-01T12:00:00Z');
const HOUR = 3_600_000;
const INPUT: DecideInput = { delayMs: 24 * HOUR, tableCount: 2 };

/** A Tenant in state purged at generation 3, with no purge recorded; tweaks make each case. */
function tenant(...tweaks: ((t: Tenant) => void)[]): Tenant {
  const t: Tenant = {
    apiVersion: API_VERSION,
    kind: KIND,
    metadata: { name: 'acme', generation: 3 },
    spec: { state: 'purged' },
    status: {},
  };
  tweaks.forEach((tweak) => tweak(t));
  return t;
}

const state =
  (s: 'active' | 'suspended' | 'archived' | 'purged' | undefined) =>
  (t: Tenant): void => {
    t.spec = s === undefined ? {} : { state: s };
  };

const purge =
  (phase: PurgeStatus['phase'], scheduledAt = '2026-12-01T00:00:00Z', observedGeneration = 3) =>
  (t: Tenant): void => {
    t.status!.purge = { phase, scheduledAt, startsAt: 'ignored', observedGeneration, tables: [] };
  };

const deleting = (t: Tenant): void => {
  t.metadata.deletionTimestamp = new Date('2026-12-01T11:00:00Z');
};

const condition = (reason: string) => (t: Tenant) => {
  t.status!.conditions = [
    { type: 'Purged', status: 'False', reason, message: '', lastTransitionTime: '2026-12-01T00:00:00Z' },
  ];
};

describe('decidePurge', () => {
  it.each<[string, Tenant, Partial<DecideInput>, ReturnType<typeof decidePurge>]>([
    ['active, never purged: nothing', tenant(state('active')), {}, { kind: 'nothing' }],
    ['no state (a row without one): nothing', tenant(state(undefined)), {}, { kind: 'nothing' }],
    ['archived: nothing (archived keeps the data)', tenant(state('archived')), {}, { kind: 'nothing' }],
    ['purged but being deleted (deleted: true): nothing', tenant(deleting), {}, { kind: 'nothing' }],
    [
      'purged and running, then deleted: nothing (the watch aborts the run)',
      tenant(purge('Running'), deleting),
      {},
      { kind: 'nothing' },
    ],
    [
      'first seen purged: schedule, from now',
      tenant(),
      {},
      { kind: 'schedule', scheduledAt: '2026-12-01T12:00:00Z', startsAt: '2026-12-02T12:00:00Z' },
    ],
    [
      'first seen purged with delay 0: schedule to start now',
      tenant(),
      { delayMs: 0 },
      { kind: 'schedule', scheduledAt: '2026-12-01T12:00:00Z', startsAt: '2026-12-01T12:00:00Z' },
    ],
    ['purged, no data tables: say so', tenant(), { tableCount: 0 }, { kind: 'noTables' }],
    [
      'scheduled, delay not over: wait, counted from the recorded first sighting',
      tenant(purge('Scheduled')),
      {},
      { kind: 'wait', scheduledAt: '2026-12-01T00:00:00Z', startsAt: '2026-12-02T00:00:00Z' },
    ],
    [
      'scheduled, delay over: start',
      tenant(purge('Scheduled')),
      { delayMs: 12 * HOUR },
      { kind: 'start', scheduledAt: '2026-12-01T00:00:00Z', startsAt: '2026-12-01T12:00:00Z' },
    ],
    [
      'running (a restart): start again whatever the delay says now',
      tenant(purge('Running')),
      {},
      { kind: 'start', scheduledAt: '2026-12-01T00:00:00Z', startsAt: '2026-12-02T00:00:00Z' },
    ],
    [
      'failed: start again (the queue spaces the retries)',
      tenant(purge('Failed')),
      {},
      { kind: 'start', scheduledAt: '2026-12-01T00:00:00Z', startsAt: '2026-12-02T00:00:00Z' },
    ],
    [
      'failed for good at this generation: nothing',
      tenant(purge('Failed')),
      { stalledGeneration: 3 },
      { kind: 'nothing' },
    ],
    [
      'failed for good at an older generation: start',
      tenant(purge('Failed')),
      { stalledGeneration: 2 },
      { kind: 'start', scheduledAt: '2026-12-01T00:00:00Z', startsAt: '2026-12-02T00:00:00Z' },
    ],
    ['completed, same generation: nothing', tenant(purge('Completed')), {}, { kind: 'nothing' }],
    [
      'completed, and no data tables configured now: nothing (the record stays)',
      tenant(purge('Completed')),
      { tableCount: 0 },
      { kind: 'nothing' },
    ],
    [
      'completed, then the spec changed (active and back): a new cycle',
      tenant(purge('Completed', '2026-11-01T00:00:00Z', 2)),
      {},
      { kind: 'schedule', scheduledAt: '2026-12-01T12:00:00Z', startsAt: '2026-12-02T12:00:00Z' },
    ],
    [
      'cancelled, purged again: a new cycle with a fresh delay',
      tenant(purge('Cancelled')),
      {},
      { kind: 'schedule', scheduledAt: '2026-12-01T12:00:00Z', startsAt: '2026-12-02T12:00:00Z' },
    ],
    [
      'scheduled, set back to active: cancel',
      tenant(purge('Scheduled'), state('active')),
      {},
      { kind: 'cancel' },
    ],
    ['running, set to archived: cancel', tenant(purge('Running'), state('archived')), {}, { kind: 'cancel' }],
    ['failed, set back to active: cancel', tenant(purge('Failed'), state('active')), {}, { kind: 'cancel' }],
    [
      'completed, set back to active: nothing (it starts empty)',
      tenant(purge('Completed'), state('active')),
      {},
      { kind: 'nothing' },
    ],
    ['cancelled and active: nothing', tenant(purge('Cancelled'), state('active')), {}, { kind: 'nothing' }],
    [
      'NoDataTables reported, set back to active: cancel (withdraws the report)',
      tenant(condition('NoDataTables'), state('active')),
      {},
      { kind: 'cancel' },
    ],
    [
      'PurgeCancelled reported and active: nothing',
      tenant(condition('PurgeCancelled'), state('active')),
      {},
      { kind: 'nothing' },
    ],
  ])('%s', (_name, t, input, expected) => {
    expect(decidePurge(t, NOW, { ...INPUT, ...input })).toEqual(expected);
  });

  it('never deletes before the delay: every scheduled purge waits until its startsAt', () => {
    for (let hour = 0; hour < 24; hour++) {
      const now = new Date(Date.parse('2026-12-01T00:00:00Z') + hour * HOUR);
      expect(decidePurge(tenant(purge('Scheduled')), now, INPUT).kind).toBe('wait');
    }
  });
});

describe('keepsPurging', () => {
  it.each<[string, Tenant | undefined, boolean]>([
    ['purged', tenant(), true],
    ['active', tenant(state('active')), false],
    ['being deleted', tenant(deleting), false],
    ['gone', undefined, false],
  ])('%s: %s', (_name, t, expected) => {
    expect(keepsPurging(t)).toBe(expected);
  });
});
