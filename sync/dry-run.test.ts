// planSync is the running sync's decision, asked of a snapshot: these cases check it reaches the
// same answers (decide() and the takedown budget) without a queue, a clock or a cluster.
import { describe, expect, it } from 'vitest';
import type { Tenant, TenantSpec } from '../api/tenant.js';
import { syncedTenant } from '../testing/sync.js';
import { tableIdentity } from './identity.js';
import type { NamedRow } from './ledger.js';
import { planSync, type SyncSnapshot } from './dry-run.js';

const identity = tableIdentity('tenants');
const NOW = new Date('2026-01-01T00:00:00Z');
const spec = (image: string): TenantSpec => ({
  deployment: {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    spec: { selector: {}, template: { spec: { containers: [{ name: 'a', image }] } } },
  },
  configMaps: [],
});

/** Tenant `name` as sync leaves it for a valid row with this hash and spec. */
function tenant(name: string, hash = 'h1', image = 'nginx:1'): Tenant {
  const t = syncedTenant(identity, { kind: 'synced', hash }, hash, NOW);
  t.metadata.name = name;
  t.spec = spec(image);
  return t;
}

const valid = (name: string, hash = 'h1', image = 'nginx:1'): NamedRow => ({
  kind: 'tenant',
  name,
  hash,
  spec: spec(image),
});

function snapshot(rows: NamedRow[], tenants: Tenant[], minimum = 5): SyncSnapshot {
  return { rows, tenants, identity, limits: { fraction: 0, minimum } };
}

const actions = (s: SyncSnapshot): Record<string, string> =>
  Object.fromEntries(planSync(s).steps.map((step) => [step.name, step.action.kind]));

describe('planSync', () => {
  it('does nothing for rows their Tenants already hold', () => {
    expect(actions(snapshot([valid('a'), valid('b')], [tenant('a'), tenant('b')]))).toEqual({
      a: 'nothing',
      b: 'nothing',
    });
  });

  it("applies a new row and a changed one, with the row's spec as the Tenant's next spec", () => {
    const plan = planSync(snapshot([valid('a', 'h2', 'nginx:2'), valid('new')], [tenant('a')]));
    expect(plan.steps.map((s) => [s.name, s.action.kind, s.spec?.deployment])).toEqual([
      ['a', 'applySpec', spec('nginx:2').deployment],
      ['new', 'applySpec', spec('nginx:1').deployment],
    ]);
  });

  it('deletes Tenants whose rows say deleted: true within the same budget as gone rows', () => {
    const rows: NamedRow[] = [
      { kind: 'deleted', name: 'a' },
      { kind: 'deleted', name: 'c' },
    ];
    const tenants = ['a', 'b', 'c', 'd'].map((name) => tenant(name));
    expect(actions(snapshot(rows, tenants, 2))).toEqual({
      a: 'delete',
      b: 'confirmGone',
      c: 'awaitApproval',
      d: 'awaitApproval',
    });
  });

  it('shows a row naming a Tenant this sync did not make as a conflict, left out of the budget', () => {
    const byHand = tenant('a');
    byHand.metadata.labels = {};
    const other = tenant('z');
    other.metadata.labels = { ...other.metadata.labels, 'landlord.dev/source-table': 'ffff' };
    const plan = planSync(
      snapshot([valid('a'), { kind: 'deleted', name: 'b' }], [byHand, tenant('b'), other], 1),
    );
    expect(plan.steps.map((s) => [s.name, s.action.kind, s.owned])).toEqual([
      ['a', 'reportForeign', false],
      ['b', 'delete', true],
    ]);
    expect(plan.budget).toEqual({ allowed: 1, tenants: 1 });
  });

  it('deletes gone rows within the budget, in name order, and holds back the rest', () => {
    const tenants = ['d', 'b', 'c', 'a'].map((name) => tenant(name));
    const plan = planSync(snapshot([], tenants, 2));
    expect(plan.steps.map((s) => [s.name, s.action.kind])).toEqual([
      ['a', 'confirmGone'],
      ['b', 'confirmGone'],
      ['c', 'awaitApproval'],
      ['d', 'awaitApproval'],
    ]);
    expect(plan.budget).toEqual({ allowed: 2, tenants: 4 });
  });

  it('reports an invalid row on a new bare Tenant, and keeps the spec a refused row cannot replace', () => {
    const invalid = (name: string): NamedRow => ({
      kind: 'invalid',
      name,
      deleted: false,
      problem: { attribute: 'spec', message: 'spec: bad' },
    });
    const plan = planSync(snapshot([invalid('a'), invalid('new')], [tenant('a')]));
    expect(plan.steps.map((s) => [s.name, s.action.kind, s.verdict?.kind])).toEqual([
      ['a', 'applyStatus', 'invalid'],
      ['new', 'createBare', 'invalid'],
    ]);
    expect(plan.steps[0]?.spec).toEqual(spec('nginx:1'));
  });

  it('puts back a spec edited in the cluster', () => {
    const edited = tenant('a');
    edited.metadata.generation = 2;
    expect(actions(snapshot([valid('a')], [edited]))).toEqual({ a: 'applySpec' });
  });
});
