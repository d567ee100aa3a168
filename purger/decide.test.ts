import { describe, expect, it } from 'vitest';
import { sourceTableLabel } from '../api/table-identity.js';
import {
  ANNOTATION,
  API_VERSION,
  KIND,
  LABEL,
  MANAGED_BY,
  type PurgeStatus,
  type Tenant,
} from '../api/tenant.js';
import { entry, syncEntry } from '../testing/stamp.js';
import { decidePurge, keepsPurging, type DecideInput } from './decide.js';

const NOW = new Date('2026-12-01T12:00:00Z');
const HOUR = 3_600_000;
const INPUT: DecideInput = { delayMs: 24 * HOUR, tableCount: 2, tenantTables: ['tenants'] };

/** Labels and annotation as sync writes them for a Tenant of `table`, owned by sync's field manager. */
const fromTable = (table: string) => (t: Tenant) => {
  t.metadata.labels = { [LABEL.managedBy]: MANAGED_BY.sync, [LABEL.sourceTable]: sourceTableLabel(table) };
  t.metadata.annotations = { [ANNOTATION.table]: table };
  t.metadata.managedFields = [syncEntry()];
};

/**
 * A Tenant sync made from the table "tenants", in state purged at generation 3, with no purge
 * recorded; tweaks make each case.
 */
function tenant(...tweaks: ((t: Tenant) => void)[]): Tenant {
  const t: Tenant = {
    apiVersion: API_VERSION,
    kind: KIND,
    metadata: { name: 'acme', generation: 3, uid: 'uid-now' },
    spec: { state: 'purged' },
    status: {},
  };
  fromTable('tenants')(t);
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
    t.status!.purge = {
      phase,
      scheduledAt,
      startsAt: 'ignored',
      observedGeneration,
      uid: 'uid-now',
      tables: [],
    };
  };

/** The recorded purge was scheduled for another Tenant of the same name (undefined: before uids were kept). */
const purgeUid = (uid: string | undefined) => (t: Tenant) => {
  const purge = { ...t.status!.purge! };
  delete purge.uid;
  t.status!.purge = uid === undefined ? purge : { ...purge, uid };
};

const byHand = (t: Tenant): void => {
  t.metadata.labels = { team: 'x' };
  t.metadata.annotations = {};
};

/** sync's marks, but the source-table label alone (an annotation removed by hand). */
const labelOnly = (table: string) => (t: Tenant) => {
  fromTable(table)(t);
  t.metadata.annotations = {};
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
      { kind: 'start', scheduledAt: '2026-12-01T00:00:00Z', startsAt: '2026-12-01T12:00:00Z', fresh: true },
    ],
    [
      'running (a restart): start again whatever the delay says now',
      tenant(purge('Running')),
      {},
      { kind: 'start', scheduledAt: '2026-12-01T00:00:00Z', startsAt: '2026-12-02T00:00:00Z', fresh: false },
    ],
    [
      'failed: start again (the queue spaces the retries)',
      tenant(purge('Failed')),
      {},
      { kind: 'start', scheduledAt: '2026-12-01T00:00:00Z', startsAt: '2026-12-02T00:00:00Z', fresh: false },
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
      { kind: 'start', scheduledAt: '2026-12-01T00:00:00Z', startsAt: '2026-12-02T00:00:00Z', fresh: false },
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
      'made by hand (no sync marks): refuse',
      tenant(byHand),
      {},
      { kind: 'refuse', mismatch: { cause: 'unmarked' } },
    ],
    [
      'made by hand, with no tenant table configured: refuse as unmarked',
      tenant(byHand),
      { tenantTables: [] },
      { kind: 'refuse', mismatch: { cause: 'unmarked' } },
    ],
    [
      "sync's marks for this table, written by a person (kubectl), not by sync: refuse as unmarked",
      tenant((t) => (t.metadata.managedFields = [entry('kubectl-create', 'Update', {})])),
      {},
      { kind: 'refuse', mismatch: { cause: 'unmarked' } },
    ],
    [
      'made by sync from another table: refuse, naming that table',
      tenant(fromTable('other-tenants')),
      {},
      { kind: 'refuse', mismatch: { cause: 'otherTable', otherTable: 'other-tenants' } },
    ],
    [
      "another table's label with this table's annotation (a forged annotation): refuse",
      tenant(fromTable('other-tenants'), (t) => (t.metadata.annotations = { [ANNOTATION.table]: 'tenants' })),
      {},
      { kind: 'refuse', mismatch: { cause: 'otherTable', otherTable: 'tenants' } },
    ],
    [
      "this table's label, another table's annotation: refuse",
      tenant((t) => (t.metadata.annotations = { [ANNOTATION.table]: 'other-tenants' })),
      {},
      { kind: 'refuse', mismatch: { cause: 'otherTable', otherTable: 'other-tenants' } },
    ],
    [
      'sync-made, no tenant table configured: refuse',
      tenant(),
      { tenantTables: [] },
      { kind: 'refuse', mismatch: { cause: 'otherTable', otherTable: 'tenants' } },
    ],
    [
      'the label of the second configured table, no annotation: schedule',
      tenant(labelOnly('tenants-eu')),
      { tenantTables: ['tenants', 'tenants-eu'] },
      { kind: 'schedule', scheduledAt: '2026-12-01T12:00:00Z', startsAt: '2026-12-02T12:00:00Z' },
    ],
    [
      'made by hand, running before the upgrade: refuse (it stops)',
      tenant(purge('Running'), byHand),
      {},
      { kind: 'refuse', mismatch: { cause: 'unmarked' } },
    ],
    [
      'made by hand, completed: nothing (the record stays)',
      tenant(purge('Completed'), byHand),
      {},
      { kind: 'nothing' },
    ],
    [
      'refused as NotSyncedTenant, set back to active: cancel (withdraws the refusal)',
      tenant(byHand, condition('NotSyncedTenant'), state('active')),
      {},
      { kind: 'cancel' },
    ],
    [
      'refused as OtherTenantTable, set back to active: cancel (withdraws the refusal)',
      tenant(condition('OtherTenantTable'), state('active')),
      {},
      { kind: 'cancel' },
    ],
    [
      "another uid's schedule, its delay over: schedule afresh, never start",
      tenant(purge('Scheduled'), purgeUid('uid-before')),
      { delayMs: 12 * HOUR },
      { kind: 'schedule', scheduledAt: '2026-12-01T12:00:00Z', startsAt: '2026-12-02T00:00:00Z' },
    ],
    [
      "another uid's running purge: schedule afresh",
      tenant(purge('Running'), purgeUid('uid-before')),
      {},
      { kind: 'schedule', scheduledAt: '2026-12-01T12:00:00Z', startsAt: '2026-12-02T12:00:00Z' },
    ],
    [
      "another uid's completed purge: schedule afresh (its end is not this Tenant's)",
      tenant(purge('Completed'), purgeUid('uid-before')),
      {},
      { kind: 'schedule', scheduledAt: '2026-12-01T12:00:00Z', startsAt: '2026-12-02T12:00:00Z' },
    ],
    [
      "another uid's schedule, and this Tenant active: nothing to cancel",
      tenant(purge('Scheduled'), purgeUid('uid-before'), state('active')),
      {},
      { kind: 'nothing' },
    ],
    [
      "a schedule recorded without a uid (before uids were kept): this Tenant's",
      tenant(purge('Scheduled'), purgeUid(undefined)),
      {},
      { kind: 'wait', scheduledAt: '2026-12-01T00:00:00Z', startsAt: '2026-12-02T00:00:00Z' },
    ],
    [
      'held back (over the budget), set back to active: cancel',
      tenant(purge('Scheduled'), condition('PurgeHeldBack'), state('active')),
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
