// One case per line of the table below: the cases are the specification of decide(), so they stay
// together in one file even past 250 lines.
import { describe, expect, it } from 'vitest';
import { ANNOTATION, LABEL, type Tenant } from '../api/tenant.js';
import { syncedTenant } from '../testing/sync.js';
import { decide, needsReconcile, specCurrent, type Situation, type SyncAction } from './decide.js';
import { tableIdentity } from './identity.js';
import type { Verdict } from './status.js';

const identity = tableIdentity('tenants');
const NOW = new Date('2026-01-01T00:00:00Z');
const LATER = new Date('2026-01-01T01:00:00Z');

/** A Tenant exactly as sync leaves it for a row with this verdict (a valid row with hash h1 by default). */
const tenantFor = (verdict: Verdict = { kind: 'synced', hash: 'h1' }): Tenant =>
  syncedTenant(identity, verdict, 'h1', NOW);

/** The default case: a valid row, read again, whose Tenant already reflects it. */
function situation(...tweaks: ((s: Situation) => void)[]): Situation {
  const s: Situation = {
    row: { kind: 'tenant', hash: 'h1', state: 'active' },
    verdict: { kind: 'synced', hash: 'h1' },
    tenant: tenantFor(),
    reported: undefined,
    approval: undefined,
    heldBack: undefined,
    applied: undefined,
    identity,
    now: LATER,
  };
  for (const tweak of tweaks) tweak(s);
  return s;
}

// Tweaks: each changes one fact of the default case.
const rowHash =
  (hash: string) =>
  (s: Situation): void => {
    s.row = { kind: 'tenant', hash, state: 'active' };
    s.verdict = { kind: 'synced', hash };
  };
const invalidRow =
  (message = 'spec: bad') =>
  (s: Situation): void => {
    s.row = { kind: 'invalid', attribute: 'spec', message };
    s.verdict = { kind: 'invalid', message };
  };
const rejectedRow = (s: Situation): void => {
  s.row = { kind: 'tenant', hash: 'h2', state: 'active' };
  s.verdict = { kind: 'rejected', hash: 'h2', message: 'refused' };
};
const deletedRow = (s: Situation): void => {
  s.row = { kind: 'deleted' };
  s.verdict = undefined;
};
const goneRow = (s: Situation): void => {
  s.row = undefined;
  s.verdict = undefined;
};
const noTenant = (s: Situation): void => {
  s.tenant = undefined;
};
const approved =
  (pass: number) =>
  (s: Situation): void => {
    s.approval = pass;
  };
const tenant =
  (edit: (t: Tenant) => void) =>
  (s: Situation): void => {
    if (s.tenant !== undefined) edit(s.tenant);
  };
const unmarked = tenant((t) => {
  t.metadata.labels = { app: 'by-hand' };
  t.metadata.annotations = {};
});
const otherTable = tenant((t) => (t.metadata.labels![LABEL.sourceTable] = 'ffff'));
/** The conflict decide() reports for the default Tenant (uid u1) made by hand was reported already. */
const reported = (s: Situation): void => {
  s.reported = 'u1/unmarked/';
};
const ownApply =
  (hash: string, generation: number) =>
  (s: Situation): void => {
    s.applied = { hash, generation };
  };
const tenantReports =
  (verdict: Verdict) =>
  (s: Situation): void => {
    s.tenant = tenantFor(verdict);
  };

interface Case {
  name: string;
  tweaks: ((s: Situation) => void)[];
  expected: SyncAction['kind'];
}

const cases: Case[] = [
  { name: 'an unchanged row and an up-to-date Tenant', tweaks: [], expected: 'nothing' },
  // The spec: applied whenever the Tenant does not hold the row's spec as sync wrote it.
  { name: 'a new row', tweaks: [noTenant], expected: 'applySpec' },
  { name: 'a changed row', tweaks: [rowHash('h2')], expected: 'applySpec' },
  {
    name: 'a Tenant without the row-hash annotation',
    tweaks: [tenant((t) => delete t.metadata.annotations![ANNOTATION.rowHash])],
    expected: 'applySpec',
  },
  {
    name: 'a Tenant without the table annotation',
    tweaks: [tenant((t) => delete t.metadata.annotations![ANNOTATION.table])],
    expected: 'applySpec',
  },
  {
    name: 'a Tenant without the managed-by label (not sync’s: never taken over)',
    tweaks: [tenant((t) => delete t.metadata.labels![LABEL.managedBy])],
    expected: 'reportForeign',
  },
  {
    name: 'a Tenant labelled for another table',
    tweaks: [otherTable],
    expected: 'reportForeign',
  },
  { name: 'a Tenant made by hand (kubectl), no marks', tweaks: [unmarked], expected: 'reportForeign' },
  {
    name: 'a Tenant with this table’s label but another table’s annotation',
    tweaks: [tenant((t) => (t.metadata.annotations![ANNOTATION.table] = 'other'))],
    expected: 'reportForeign',
  },
  { name: 'a foreign Tenant already reported', tweaks: [unmarked, reported], expected: 'nothing' },
  {
    name: 'a foreign Tenant replaced since its conflict was reported',
    tweaks: [unmarked, reported, tenant((t) => (t.metadata.uid = 'u2'))],
    expected: 'reportForeign',
  },
  {
    name: 'an invalid row naming a foreign Tenant',
    tweaks: [invalidRow(), unmarked],
    expected: 'reportForeign',
  },
  {
    name: 'deleted: true naming a foreign Tenant',
    tweaks: [deletedRow, unmarked],
    expected: 'reportForeign',
  },
  {
    name: 'deleted: true naming a foreign Tenant, approved by mistake',
    tweaks: [deletedRow, unmarked, reported, approved(1)],
    expected: 'nothing',
  },
  {
    name: 'a gone row whose name a foreign Tenant has, approved',
    tweaks: [goneRow, unmarked, approved(1)],
    expected: 'nothing',
  },
  {
    name: 'a foreign Tenant being deleted (the name is about to be free)',
    tweaks: [unmarked, tenant((t) => (t.metadata.deletionTimestamp = NOW))],
    expected: 'nothing',
  },
  {
    name: 'a spec edited by someone else (a generation Synced=True has not seen)',
    tweaks: [tenant((t) => (t.metadata.generation = 2))],
    expected: 'applySpec',
  },
  {
    name: 'sync’s own apply, before its status records the new generation',
    tweaks: [tenant((t) => (t.metadata.generation = 2)), ownApply('h1', 2)],
    expected: 'applyStatus',
  },
  {
    name: 'an edit made after sync’s own apply',
    tweaks: [tenant((t) => (t.metadata.generation = 3)), ownApply('h1', 2)],
    expected: 'applySpec',
  },
  {
    name: 'an edit, when sync’s own apply was of another row',
    tweaks: [tenant((t) => (t.metadata.generation = 2)), ownApply('h0', 2)],
    expected: 'applySpec',
  },
  {
    name: 'a Tenant being deleted while its row is valid',
    tweaks: [tenant((t) => (t.metadata.deletionTimestamp = NOW))],
    expected: 'applySpec',
  },
  {
    name: 'a changed row whose Tenant was deleted',
    tweaks: [rowHash('h2'), noTenant],
    expected: 'applySpec',
  },
  // The status: written only when it differs from what sync would write.
  {
    name: 'a Tenant without the Synced condition',
    tweaks: [tenant((t) => (t.status!.conditions = []))],
    expected: 'applyStatus',
  },
  {
    name: 'a Tenant without status.sync',
    tweaks: [tenant((t) => delete t.status!.sync)],
    expected: 'applyStatus',
  },
  {
    name: 'a Tenant whose status.sync names another row hash',
    tweaks: [tenant((t) => (t.status!.sync!.rowHash = 'h0'))],
    expected: 'applyStatus',
  },
  {
    name: 'a Tenant whose status.sync names another table',
    tweaks: [tenant((t) => (t.status!.sync!.table = 'other'))],
    expected: 'applyStatus',
  },
  {
    name: 'a row fixed after a refusal',
    tweaks: [tenantReports({ kind: 'invalid', message: 'spec: bad' })],
    expected: 'applyStatus',
  },
  {
    name: 'an operator condition beside sync’s',
    tweaks: [
      tenant((t) =>
        t.status!.conditions!.push({
          type: 'Ready',
          status: 'False',
          reason: 'Progressing',
          message: 'waiting',
          lastTransitionTime: '2026-01-01T00:01:00Z',
        }),
      ),
    ],
    expected: 'nothing',
  },
  { name: 'an approval left over while the row exists', tweaks: [approved(3)], expected: 'nothing' },
  // A refused row: never a spec write, so the last valid spec stays applied.
  { name: 'a newly invalid row', tweaks: [invalidRow()], expected: 'applyStatus' },
  {
    name: 'an invalid row the Tenant already reports',
    tweaks: [invalidRow(), tenantReports({ kind: 'invalid', message: 'spec: bad' })],
    expected: 'nothing',
  },
  {
    name: 'an invalid row with a new problem',
    tweaks: [invalidRow('spec: worse'), tenantReports({ kind: 'invalid', message: 'spec: bad' })],
    expected: 'applyStatus',
  },
  {
    name: 'an invalid row whose Tenant someone edited',
    tweaks: [
      invalidRow(),
      tenantReports({ kind: 'invalid', message: 'spec: bad' }),
      tenant((t) => (t.metadata.generation = 2)),
    ],
    expected: 'applyStatus',
  },
  { name: 'an invalid row without a Tenant', tweaks: [invalidRow(), noTenant], expected: 'createBare' },
  { name: 'a newly rejected row', tweaks: [rejectedRow], expected: 'applyStatus' },
  {
    name: 'a rejected row the Tenant already reports',
    tweaks: [rejectedRow, tenantReports({ kind: 'rejected', hash: 'h2', message: 'refused' })],
    expected: 'nothing',
  },
  { name: 'a rejected row without a Tenant', tweaks: [rejectedRow, noTenant], expected: 'createBare' },
  // deleted: true counts against the same budget as a gone row: only an approval deletes.
  { name: 'deleted: true not yet approved', tweaks: [deletedRow], expected: 'awaitApproval' },
  { name: 'deleted: true approved', tweaks: [deletedRow, approved(2)], expected: 'delete' },
  { name: 'deleted: true without a Tenant', tweaks: [deletedRow, noTenant], expected: 'nothing' },
  {
    name: 'deleted: true approved, the Tenant already gone',
    tweaks: [deletedRow, noTenant, approved(2)],
    expected: 'nothing',
  },
  {
    name: 'deleted: true approved, the Tenant already going',
    tweaks: [deletedRow, approved(2), tenant((t) => (t.metadata.deletionTimestamp = NOW))],
    expected: 'delete',
  },
  // A gone row: only the budget's approval leads to a delete, and only after a confirming read.
  { name: 'a gone row not yet approved', tweaks: [goneRow], expected: 'awaitApproval' },
  { name: 'a gone row approved', tweaks: [goneRow, approved(1)], expected: 'confirmGone' },
  { name: 'a gone row without a Tenant', tweaks: [goneRow, noTenant], expected: 'nothing' },
  {
    name: 'a gone row approved whose Tenant went meanwhile',
    tweaks: [goneRow, noTenant, approved(1)],
    expected: 'confirmGone',
  },
  {
    name: 'a gone row whose Tenant is being deleted',
    tweaks: [goneRow, tenant((t) => (t.metadata.deletionTimestamp = NOW))],
    expected: 'awaitApproval',
  },
];

describe('decide', () => {
  it.each(cases)('$name → $expected', ({ tweaks, expected }) => {
    expect(decide(situation(...tweaks)).kind).toBe(expected);
  });

  it.each(cases.filter((c) => c.expected === 'applyStatus'))(
    'writes the status once for $name: with it written, nothing is left',
    ({ tweaks }) => {
      const s = situation(...tweaks);
      const action = decide(s);
      if (action.kind !== 'applyStatus') throw new Error('expected a status write');
      s.tenant!.status = { ...s.tenant!.status, ...action.status };
      expect(decide({ ...s, now: new Date('2026-01-02T00:00:00Z') })).toEqual({ kind: 'nothing' });
    },
  );

  it('names the hash to apply, and the pass that approved a deletion', () => {
    expect(decide(situation(rowHash('h7')))).toEqual({ kind: 'applySpec', hash: 'h7' });
    expect(decide(situation(goneRow, approved(4)))).toEqual({ kind: 'confirmGone', pass: 4 });
    expect(decide(situation(deletedRow, approved(5)))).toEqual({ kind: 'delete', pass: 5 });
  });

  it('says which cause a held deletion has', () => {
    expect(decide(situation(goneRow))).toEqual({ kind: 'awaitApproval', cause: 'rowGone' });
    expect(decide(situation(deletedRow))).toEqual({ kind: 'awaitApproval', cause: 'rowDeleted' });
  });

  it('names the conflict it reports, so that the same one is reported once', () => {
    expect(decide(situation(unmarked))).toEqual({
      kind: 'reportForeign',
      conflict: { cause: 'unmarked', key: 'u1/unmarked/' },
    });
    const other = tenant((t) => {
      t.metadata.labels![LABEL.sourceTable] = 'ffff';
      t.metadata.annotations![ANNOTATION.table] = 'billing';
    });
    expect(decide(situation(other))).toEqual({
      kind: 'reportForeign',
      conflict: { cause: 'otherTable', otherTable: 'billing', key: 'u1/otherTable/billing' },
    });
  });

  it('reports the verdict with the status it writes', () => {
    const action = decide(situation(invalidRow('spec: bad')));
    expect(action).toMatchObject({
      kind: 'applyStatus',
      verdict: { kind: 'invalid', message: 'spec: bad' },
      status: { conditions: [{ reason: 'InvalidRecord', message: 'spec: bad' }], sync: { rowHash: 'h1' } },
    });
  });
});

describe('needsReconcile', () => {
  it.each<[SyncAction, boolean]>([
    [{ kind: 'applySpec', hash: 'h1' }, true],
    [{ kind: 'createBare' }, true],
    [decide(situation(invalidRow())), true],
    [{ kind: 'delete', pass: 1 }, true],
    [{ kind: 'reportForeign', conflict: { cause: 'unmarked', key: 'u1/unmarked/' } }, true],
    [{ kind: 'confirmGone', pass: 1 }, true],
    [{ kind: 'writeRevision' }, true],
    [{ kind: 'forgetRevision' }, true],
    [{ kind: 'awaitApproval', cause: 'rowGone' }, false],
    [{ kind: 'nothing' }, false],
  ])('%o → %s', (action, expected) => {
    expect(needsReconcile(action)).toBe(expected);
  });
});

describe('specCurrent', () => {
  it('does not call a refused Tenant drifted: the row, not the spec, is what changed', () => {
    const refused = tenantFor({ kind: 'invalid', message: 'spec: bad' });
    refused.metadata.generation = 2;
    expect(specCurrent(refused, 'h1', identity)).toBe(true);
  });
});

describe('decide: a row that takes its Tenant down by state waits for the budget', () => {
  const stateRow =
    (state: 'active' | 'suspended' | 'archived' | 'purged') =>
    (s: Situation): void => {
      s.row = { kind: 'tenant', hash: 'h2', state };
      s.verdict = { kind: 'synced', hash: 'h2' };
    };
  const runningIn = (state: 'active' | 'archived' | 'purged'): ((s: Situation) => void) =>
    tenant((t) => (t.spec = { deployment: {}, configMaps: [], state }));
  const held = (s: Situation): void => {
    s.heldBack = 'held back: the budget';
  };

  it.each<[string, ((s: Situation) => void)[], SyncAction['kind']]>([
    [
      'active → archived, not yet judged by the budget',
      [stateRow('archived'), runningIn('active')],
      'awaitApproval',
    ],
    ['active → purged', [stateRow('purged'), runningIn('active')], 'awaitApproval'],
    ['archived → purged', [stateRow('purged'), runningIn('archived')], 'awaitApproval'],
    ['active → archived, approved', [stateRow('archived'), runningIn('active'), approved(3)], 'applySpec'],
    [
      'active → archived, held back: Synced says why',
      [stateRow('archived'), runningIn('active'), held],
      'applyStatus',
    ],
    ['active → suspended: no takedown', [stateRow('suspended'), runningIn('active')], 'applySpec'],
    ['purged → archived: coming back', [stateRow('archived'), runningIn('purged')], 'applySpec'],
    ['archived → archived with another spec', [stateRow('archived'), runningIn('archived')], 'applySpec'],
    ['a new tenant, archived from the start', [stateRow('archived'), noTenant], 'applySpec'],
  ])('%s → %s', (_name, tweaks, expected) => {
    expect(decide(situation(...tweaks)).kind).toBe(expected);
  });

  it('names the cause, and writes the held-back status once', () => {
    const s = situation(stateRow('purged'), runningIn('active'));
    expect(decide(s)).toEqual({ kind: 'awaitApproval', cause: 'purged' });
    held(s);
    const action = decide(s);
    if (action.kind !== 'applyStatus') throw new Error('expected a status write');
    expect(action.status.conditions[0]).toMatchObject({
      type: 'Synced',
      status: 'False',
      reason: 'TakedownHeldBack',
      message: 'held back: the budget',
    });
    // The Tenant still holds the spec it had: the status names that spec's hash, not the row's.
    expect(action.status.sync.rowHash).toBe('h1');
    s.tenant!.status = { ...s.tenant!.status, ...action.status };
    expect(decide({ ...s, now: new Date('2026-01-02T00:00:00Z') })).toEqual({
      kind: 'awaitApproval',
      cause: 'purged',
    });
  });
});

describe('decide: a spec whose apply timed out twice is parked', () => {
  const changed = (s: Situation): void => {
    s.row = { kind: 'tenant', hash: 'h2', state: 'active' };
    s.verdict = { kind: 'synced', hash: 'h2' };
  };
  const parked =
    (hash: string, until: number) =>
    (s: Situation): void => {
      s.parked = { hash, until };
    };

  it('is not resent before the wait is over', () => {
    expect(decide(situation(changed, parked('h2', LATER.getTime() + 1)))).toEqual({ kind: 'nothing' });
  });

  it('is resent once the wait is over', () => {
    expect(decide(situation(changed, parked('h2', LATER.getTime())))).toEqual({
      kind: 'applySpec',
      hash: 'h2',
    });
  });

  it('is no reason to hold a changed row', () => {
    expect(decide(situation(changed, parked('h1', LATER.getTime() + 1)))).toEqual({
      kind: 'applySpec',
      hash: 'h2',
    });
  });
});

describe('decide: a revision an earlier apply could not write', () => {
  const owed =
    (uid = 'u1') =>
    (s: Situation): void => {
      s.owedRevision = { uid };
    };
  const reconcileStart = (s: Situation): void => {
    s.reconcileStart = true;
  };

  it.each<[string, ((s: Situation) => void)[], SyncAction['kind']]>([
    ['is written at the start of a reconcile', [owed(), reconcileStart], 'writeRevision'],
    [
      'is written before the changed row is applied',
      [owed(), rowHash('h2'), reconcileStart],
      'writeRevision',
    ],
    ['waits for the next reconcile once the first decision is made', [owed(), rowHash('h2')], 'applySpec'],
    ['waits for the next reconcile, holding up no status', [owed(), invalidRow()], 'applyStatus'],
    ['is dropped when its Tenant is gone', [owed(), noTenant, reconcileStart], 'forgetRevision'],
    ['is dropped when its Tenant was replaced', [owed('u0'), reconcileStart], 'forgetRevision'],
    ['is nothing to do when none is owed', [reconcileStart], 'nothing'],
    ['leaves the changed row to apply when none is owed', [rowHash('h2'), reconcileStart], 'applySpec'],
  ])('%s', (_case, tweaks, expected) => {
    expect(decide(situation(...tweaks)).kind).toBe(expected);
  });
});
