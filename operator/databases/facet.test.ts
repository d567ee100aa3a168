// The databases facet's desired state, as the engine asks it: what it decides for a class with and
// without databases, and in each state which Secrets it keeps as they are (made by act, never
// applied) and which it lets go; no condition until the reconcile's effects ran.
import { describe, expect, it } from 'vitest';
import { API_VERSION, KIND, type Tenant, type TenantState } from '../../api/tenant.js';
import { resolvedClass, type TenantClassSpec } from '../../api/tenantclass.js';
import { testConfig } from '../../testing/policy.js';
import type { Effects, FacetInput } from '../facets/contract.js';
import { NO_CLUSTER } from '../facets/view.js';
import type { DatabasesDecision } from './decision.js';
import { databasesFacet } from './facet.js';

const tenant: Tenant = { apiVersion: API_VERSION, kind: KIND, metadata: { name: 'acme', uid: 'u-1' } };
const MAIN = { name: 'main', engine: 'postgres' as const, server: { secretRef: { name: 'pg' } } };
const CACHE = { name: 'cache', engine: 'mysql' as const, server: { secretRef: { name: 'my' } } };

function input(
  databases: NonNullable<TenantClassSpec['databases']>,
  state: TenantState = 'active',
  shared = false,
): FacetInput {
  const tenantClass = resolvedClass('standard', 1, { databases });
  return {
    tenant,
    policy: testConfig({ tenantClass }),
    state,
    namespace: shared ? undefined : 'acme',
    cluster: NO_CLUSTER,
  };
}

/** What the engine asks of the facet: its decision, then its children in the tenant's state. */
function desired(at: FacetInput): ReturnType<typeof databasesFacet.children> & {
  decided: DatabasesDecision | undefined;
} {
  const decided = databasesFacet.decide(at);
  if (!decided.ok) throw new Error(decided.refusal.message);
  return {
    ...databasesFacet.children(at, decided.decision, { of: () => undefined }),
    decided: decided.decision,
  };
}

const NO_EFFECTS = {} as Effects;
const secretsIn = (namespace: string, ...names: string[]): unknown[] =>
  names.map((name) => expect.objectContaining({ kind: 'Secret', namespace, name }) as unknown);

describe('the databases facet', () => {
  it('decides nothing, makes nothing and reports nothing for a class without databases', async () => {
    const made = desired(input([]));
    expect(made).toEqual({ ok: true, children: [], decided: undefined });
    expect(databasesFacet.condition!(undefined, () => undefined)).toBeUndefined();
    expect(await databasesFacet.act!(undefined, input([]), NO_EFFECTS)).toEqual({
      decision: undefined,
      children: [],
    });
  });

  it.each<TenantState>(['active', 'suspended', 'archived'])(
    '%s: keeps each Secret db-<name> in the tenant namespace as it is, applies none',
    (state) => {
      const made = desired(input([MAIN, CACHE], state));
      expect(made.ok && made.children).toEqual([]);
      expect(made.ok && made.retained).toEqual(secretsIn('acme', 'db-main', 'db-cache'));
    },
  );

  it('purged: keeps none, so the Secrets go with the database the purger drops', () => {
    const made = desired(input([MAIN], 'purged'));
    expect(made).toMatchObject({ ok: true, children: [] });
    expect(made.ok && made.retained).toBeUndefined();
  });

  it('says nothing before the effects ran: plan and validate never run them', () => {
    const made = desired(input([MAIN]));
    expect(databasesFacet.condition!(made.decided, () => undefined)).toBeUndefined();
  });

  it('a Shared class: nothing kept, and DatabasesNotAllowed once the reconcile looked', () => {
    const made = desired(input([MAIN], 'active', true));
    expect(made.ok && made.retained).toEqual([]);
    const acted = { ...made.decided!, acted: true };
    expect(databasesFacet.condition!(acted, () => undefined)).toMatchObject({
      type: 'DatabasesReady',
      status: 'False',
      reason: 'DatabasesNotAllowed',
    });
  });
});
