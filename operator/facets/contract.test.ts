// The facet contract as the engine carries it out, with facets made for the test: decisions in the
// list's order and the first refusal ending the walk, children in the list's order whatever facet
// they read, retained children and status fields gathered, conditions reported in order; a facet's
// effects (act) turning a retained child into one to apply.
import { describe, expect, it } from 'vitest';
import type { KubernetesObject } from '@kubernetes/client-node';
import { CONDITION } from '../../api/tenant.js';
import { testConfig, validTenant } from '../../testing/policy.js';
import { childRef } from '../child-ref.js';
import { withOwnership } from '../desired.js';
import { refusal } from '../policy/index.js';
import type { Facet } from './contract.js';
import { actAll, desiredState, keptReports, reportsOf } from './engine.js';

const tenant = validTenant();
const configMap = (name: string): KubernetesObject => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, namespace: 'default' },
});

/** Asked facets, in the order they were asked. */
let asked: string[] = [];

const hosts: Facet<string> = {
  name: 'hosts',
  kinds: [{ kind: 'Service', wave: 1, scope: 'cluster' }],
  decide: () => (asked.push('hosts'), { ok: true, decision: 'acme.example.com' }),
  children: () => ({ ok: true, children: [withOwnership(configMap('route'), tenant, 'ConfigMap')] }),
  status: (host) => ({ url: `http://${host}` }),
};

/** Listed before `hosts`, yet its children read the hosts' decision. */
const fences: Facet<undefined> = {
  name: 'fences',
  kinds: [{ kind: 'Namespace', wave: 0, scope: 'cluster' }],
  decide: () => (asked.push('fences'), { ok: true, decision: undefined }),
  children: (_input, _decision, decisions) => ({
    ok: true,
    children: [withOwnership(configMap(`ns-for-${decisions.of(hosts)}`), tenant, 'ConfigMap')],
    retained: [childRef('Secret', 'acme', 'kept')],
  }),
  conditionType: CONDITION.secretsReady,
  condition: (_decision, read) => ({
    type: CONDITION.secretsReady,
    status: read(childRef('Secret', 'acme', 'kept')) === undefined ? 'False' : 'True',
    reason: 'Checked',
    message: 'looked at the kept copy',
  }),
};

const refusing: Facet<undefined> = {
  name: 'refusing',
  kinds: [],
  decide: () => (asked.push('refusing'), { ok: false, refusal: refusal.secretsNotAllowed('strict') }),
  children: () => ({ ok: true, children: [] }),
};

const refusingLate: Facet<undefined> = {
  name: 'refusing-late',
  kinds: [],
  decide: () => ({ ok: true, decision: undefined }),
  children: () => ({ ok: false, refusal: refusal.specMissing() }),
};

describe('the desired-state engine', () => {
  it('asks every facet to decide in order, then makes each one’s children in the same order', () => {
    asked = [];
    const wanted = desiredState(tenant, testConfig(), {}, [fences, hosts]);
    expect(asked).toEqual(['fences', 'hosts']);
    if (!wanted.ok) throw new Error(wanted.refusal.message);
    expect(wanted.children.map((c) => c.ref.name)).toEqual(['ns-for-acme.example.com', 'route']);
    expect(wanted.retained).toEqual([childRef('Secret', 'acme', 'kept')]);
    expect(wanted.status).toEqual({ url: 'http://acme.example.com' });
  });

  it('stops at the first refusal: no later facet decides, no child is made', () => {
    asked = [];
    const wanted = desiredState(tenant, testConfig(), {}, [fences, refusing, hosts]);
    expect(asked).toEqual(['fences', 'refusing']);
    expect(wanted).toMatchObject({ ok: false, refusal: { reason: 'SecretsNotAllowed' } });
  });

  it('refuses when a facet refuses its children, whatever the others made', () => {
    const wanted = desiredState(tenant, testConfig(), {}, [fences, refusingLate, hosts]);
    expect(wanted).toMatchObject({ ok: false, refusal: { reason: 'SpecMissing' } });
  });

  it('reports each facet’s condition from the children as converging left them', () => {
    const wanted = desiredState(tenant, testConfig(), {}, [fences, hosts]);
    if (!wanted.ok) throw new Error(wanted.refusal.message);
    const none = reportsOf(wanted, () => undefined, [fences, hosts]);
    expect(none.conditions.map((c) => c.status)).toEqual(['False']);
    const kept = reportsOf(wanted, () => configMap('kept'), [fences, hosts]);
    expect(kept).toEqual({
      conditions: [expect.objectContaining({ type: CONDITION.secretsReady, status: 'True' })],
      status: { url: 'http://acme.example.com' },
    });
  });
});

describe('keptReports', () => {
  it('keeps the facet conditions and fields the Tenant carries, and nothing of the summary', () => {
    const t = validTenant();
    const at = '2026-01-01T00:00:00Z';
    const condition = (type: string) => ({
      type,
      status: 'False' as const,
      reason: 'R',
      message: 'm',
      lastTransitionTime: at,
    });
    t.status = {
      url: 'https://acme.example.com',
      conditions: [condition(CONDITION.ready), condition(CONDITION.secretsReady)],
    };
    expect(keptReports(t)).toEqual({
      conditions: [condition(CONDITION.secretsReady)],
      status: { url: 'https://acme.example.com' },
    });
    expect(keptReports(validTenant())).toEqual({ conditions: [], status: {} });
  });
});

/** Makes the Secret it retained, and says so in the decision its condition reads. */
const acting: Facet<{ made: boolean }> = {
  name: 'acting',
  kinds: [],
  decide: () => ({ ok: true, decision: { made: false } }),
  children: () => ({ ok: true, children: [], retained: [childRef('Secret', 'acme', 'db-main')] }),
  act: (decision) =>
    Promise.resolve({
      decision: { made: true },
      children: [
        withOwnership(
          { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'db-main', namespace: 'acme' } },
          tenant,
          'Secret',
        ),
      ],
      ...(decision.made ? {} : { retry: { reason: 'ServerUnreachable', message: 'down' } }),
    }),
  condition: (decision) => ({
    type: CONDITION.databasesReady,
    status: decision.made ? 'True' : 'False',
    reason: 'Checked',
    message: 'acted',
  }),
};

describe('actAll', () => {
  const effects = { read: () => undefined, api: undefined as never, namespace: 'landlord-system' };

  it("applies what the effects made instead of retaining it, and reports from the effects' decision", async () => {
    const wanted = desiredState(tenant, testConfig(), {}, [hosts, acting]);
    if (!wanted.ok) throw new Error('refused');
    expect(wanted.retained).toEqual([childRef('Secret', 'acme', 'db-main')]);
    const { wanted: acted, retry } = await actAll(wanted, effects, [hosts, acting]);
    expect(acted.retained).toEqual([]);
    expect(acted.children.map((c) => c.ref.name)).toEqual(['route', 'db-main']);
    expect(reportsOf(acted, () => undefined, [hosts, acting]).conditions).toMatchObject([{ status: 'True' }]);
    expect(retry).toEqual({ reason: 'ServerUnreachable', message: 'down' });
  });

  it('leaves the wanted state as it is when no facet acts', async () => {
    const wanted = desiredState(tenant, testConfig(), {}, [hosts]);
    if (!wanted.ok) throw new Error('refused');
    expect((await actAll(wanted, effects, [hosts])).wanted).toBe(wanted);
  });
});
