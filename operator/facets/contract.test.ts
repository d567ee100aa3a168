// The facet contract as the engine carries it out, with facets made for the test: decisions in the
// list's order and the first refusal ending the walk, children in the list's order whatever facet
// they read, retained children and status fields gathered, conditions reported in order; a facet's
// effects (act) turning a retained child into one to apply; what a facet watches beyond its
// children: its own slice of the cluster view (view.of), and whom an event of it wakes.
import { describe, expect, it } from 'vitest';
import type { KubernetesObject } from '@kubernetes/client-node';
import { CONDITION } from '../../api/tenant.js';
import { testConfig, validTenant } from '../../testing/policy.js';
import { childRef } from '../child-ref.js';
import { withOwnership } from '../desired.js';
import { refusal } from '../policy/index.js';
import type { Facet } from './contract.js';
import { actAll, desiredState, keptReports, reportsOf } from './engine.js';
import { NO_CLUSTER, clusterView } from './view.js';
import { servedWatches, watchNamespaces } from './kinds.js';
import { indexesOf } from '../cluster-indexes.js';

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
    const wanted = desiredState(tenant, testConfig(), NO_CLUSTER, [fences, hosts]);
    expect(asked).toEqual(['fences', 'hosts']);
    if (!wanted.ok) throw new Error(wanted.refusal.message);
    expect(wanted.children.map((c) => c.ref.name)).toEqual(['ns-for-acme.example.com', 'route']);
    expect(wanted.retained).toEqual([childRef('Secret', 'acme', 'kept')]);
    expect(wanted.status).toEqual({ url: 'http://acme.example.com' });
  });

  it('stops at the first refusal: no later facet decides, no child is made', () => {
    asked = [];
    const wanted = desiredState(tenant, testConfig(), NO_CLUSTER, [fences, refusing, hosts]);
    expect(asked).toEqual(['fences', 'refusing']);
    expect(wanted).toMatchObject({ ok: false, refusal: { reason: 'SecretsNotAllowed' } });
  });

  it('refuses when a facet refuses its children, whatever the others made', () => {
    const wanted = desiredState(tenant, testConfig(), NO_CLUSTER, [fences, refusingLate, hosts]);
    expect(wanted).toMatchObject({ ok: false, refusal: { reason: 'SpecMissing' } });
  });

  it('reports each facet’s condition from the children as converging left them', () => {
    const wanted = desiredState(tenant, testConfig(), NO_CLUSTER, [fences, hosts]);
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
    const wanted = desiredState(tenant, testConfig(), NO_CLUSTER, [hosts, acting]);
    if (!wanted.ok) throw new Error('refused');
    expect(wanted.retained).toEqual([childRef('Secret', 'acme', 'db-main')]);
    const { wanted: acted, retry } = await actAll(wanted, effects, [hosts, acting]);
    expect(acted.retained).toEqual([]);
    expect(acted.children.map((c) => c.ref.name)).toEqual(['route', 'db-main']);
    expect(reportsOf(acted, () => undefined, [hosts, acting]).conditions).toMatchObject([{ status: 'True' }]);
    expect(retry).toEqual({ reason: 'ServerUnreachable', message: 'down' });
  });

  it('leaves the wanted state as it is when no facet acts', async () => {
    const wanted = desiredState(tenant, testConfig(), NO_CLUSTER, [hosts]);
    if (!wanted.ok) throw new Error('refused');
    expect((await actAll(wanted, effects, [hosts])).wanted).toBe(wanted);
  });
});

describe('what a facet watches beyond its children', () => {
  /** A facet that counts the objects of one kind it watches, and reads them through its context. */
  const counting = (name: string): Facet<undefined, { count: number; read: (n: string) => unknown }> => ({
    name,
    kinds: [],
    watches: {
      kinds: [{ apiVersion: 'v1', kind: 'Secret', scope: (policy) => policy.secretSourceNamespaces ?? [] }],
      index: (context) => {
        const view = { count: 0, read: (n: string) => context.read('Secret', 'src', n) };
        return {
          view,
          changed: (_kind, object, deleted) => {
            view.count += deleted ? -1 : 1;
            const paced = object.metadata?.name === 'shared';
            return { tenants: () => context.tenants().map((t) => t.metadata.name ?? ''), paced, pool: true };
          },
          tenantChanged: (t) => [`rival-of-${t.metadata.name}`],
        };
      },
    },
    decide: () => ({ ok: true, decision: undefined }),
    children: () => ({ ok: true, children: [] }),
  });
  const secret = (name: string): KubernetesObject => ({ metadata: { name, namespace: 'src' } });
  const base = {
    tenants: [tenant],
    classes: [],
    builtInClass: undefined,
    apis: { gatewayApi: false, externalSecrets: false },
  };

  it("reaches a facet's own slice through view.of(facet), filled from a listing as from a watch", () => {
    const one = counting('one');
    const other = counting('other');
    const indexes = indexesOf({
      ...base,
      watched: [{ facet: one, kind: 'Secret', object: secret('shared') }],
      facets: [one, other],
    });
    const view = indexes.view();
    expect(view.of(one)?.count).toBe(1);
    expect(view.of(other)?.count).toBe(0);
    // Each facet reads only the objects its own watches hold, never another facet's of the same kind.
    expect(view.of(one)?.read('shared')).toEqual(secret('shared'));
    expect(view.of(other)?.read('shared')).toBeUndefined();
    expect(view.of(hosts)).toBeUndefined();
  });

  it('routes an event through its facet only: whom it wakes, at what pace, and the pools', () => {
    const one = counting('one');
    const indexes = indexesOf({ ...base, watched: [], facets: [one] });
    const wakes = indexes.watchedChanged(one, 'Secret', secret('shared'), false);
    expect(wakes).toMatchObject({ paced: true, pool: true });
    expect(wakes.tenants()).toEqual([tenant.metadata.name]);
    expect(indexes.watchedChanged(hosts, 'Secret', secret('x'), false).tenants()).toEqual([]);
    expect(indexes.tenantChanged(tenant)).toEqual([`rival-of-${tenant.metadata.name}`]);
  });

  it('is watched where the cluster serves it, in the namespaces its scope names', () => {
    const policy = testConfig({ secretSourceNamespaces: ['src', 'more'] });
    const [watch] = counting('one').watches!.kinds;
    expect(watchNamespaces(watch!, policy)).toEqual(['src', 'more']);
    expect(watchNamespaces({ ...watch!, scope: 'cluster' }, policy)).toEqual([undefined]);
    const served = (gatewayApi: boolean): string[] =>
      servedWatches({ gatewayApi, externalSecrets: false }).map((w) => `${w.facet.name} ${w.watch.kind}`);
    expect(served(false)).toEqual(['secrets Secret', 'exposure Ingress']);
    expect(served(true)).toEqual(['secrets Secret', 'exposure Ingress', 'exposure HTTPRoute']);
  });

  it('knows nothing offline: no slice in the empty view', () => {
    expect(NO_CLUSTER.of(counting('one'))).toBeUndefined();
    const slice = { count: 3, read: () => undefined };
    const one = counting('one');
    expect(clusterView(new Map([[one, slice]])).of(one)).toBe(slice);
  });
});
