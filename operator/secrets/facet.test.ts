// The secrets facet: what it decides for a class with and without secrets, its children and the
// copies it keeps, and the SecretsReady it reports from the children as converging left them.
import { describe, expect, it } from 'vitest';
import type { KubernetesObject } from '@kubernetes/client-node';
import { API_VERSION, KIND, type Tenant } from '../../api/tenant.js';
import { resolvedClass, type ClassSecret } from '../../api/tenantclass.js';
import { testConfig } from '../../testing/policy.js';
import type { FacetInput } from '../facets/contract.js';
import { clusterView } from '../facets/view.js';
import { secretsFacet, type SecretsDecision } from './facet.js';
import type { SecretSources } from './sources.js';

const tenant: Tenant = { apiVersion: API_VERSION, kind: KIND, metadata: { name: 'acme', uid: 'u-1' } };
const sources: SecretSources = {
  secret: (namespace, name) =>
    `${namespace}/${name}` === 'platform-secrets/sendgrid'
      ? { type: 'Opaque', data: { k: 'dg==' } }
      : undefined,
  externalSecrets: true,
};
/** sendgrid (shared) and acme-db, bound to `tenantUid` (undefined: not annotated). */
const withDb = (tenantUid: string | undefined): SecretSources => ({
  secret: (namespace, name) =>
    `${namespace}/${name}` === 'platform-secrets/acme-db'
      ? { type: 'Opaque', data: { p: 'dg==' }, ...(tenantUid === undefined ? {} : { tenantUid }) }
      : sources.secret(namespace, name),
  externalSecrets: true,
});
const SHARED: ClassSecret = { name: 'sendgrid', from: { namespace: 'platform-secrets', name: 'sendgrid' } };
const MISSING: ClassSecret = { name: 'db', from: { namespace: 'platform-secrets', name: '{name}-db' } };
const EXTERNAL: ClassSecret = {
  name: 'api',
  externalSecret: { storeRef: { kind: 'ClusterSecretStore', name: 'vault' }, remoteKey: 'tenants/{name}' },
};

function input(secrets: ClassSecret[], shared = false, known = sources): FacetInput {
  const tenantClass = resolvedClass('standard', 1, { secrets });
  const policy = testConfig({ tenantClass, secretSourceNamespaces: ['platform-secrets'] });
  return {
    tenant,
    policy,
    state: 'active',
    namespace: shared ? undefined : 'acme',
    cluster: clusterView(new Map([[secretsFacet, known]])),
  };
}

function decided(secrets: ClassSecret[], known = sources): SecretsDecision {
  const result = secretsFacet.decide(input(secrets, false, known));
  if (!result.ok) throw new Error(result.refusal.message);
  return result.decision;
}

const noDecisions = { of: () => undefined };

describe('the secrets facet', () => {
  it('adds nothing and reports nothing for a class without secrets', () => {
    expect(decided([])).toBeUndefined();
    expect(secretsFacet.children(input([]), undefined, noDecisions)).toEqual({ ok: true, children: [] });
    expect(secretsFacet.condition!(undefined, () => undefined)).toBeUndefined();
  });

  it('refuses a Shared class with secrets: no namespace of the tenant’s own to put them in', () => {
    expect(secretsFacet.decide(input([SHARED], true))).toMatchObject({
      ok: false,
      refusal: { reason: 'SecretsNotAllowed' },
    });
  });

  it('copies what exists, keeps the copy of a missing source, and says which is missing', () => {
    const decision = decided([SHARED, MISSING]);
    const made = secretsFacet.children(input([SHARED, MISSING]), decision, noDecisions);
    if (!made.ok) throw new Error('refused');
    expect(made.children.map((c) => c.ref.name)).toEqual(['sendgrid']);
    expect(made.retained).toEqual([expect.objectContaining({ kind: 'Secret', name: 'db' })]);
    expect(secretsFacet.condition!(decision, () => undefined)).toMatchObject({
      type: 'SecretsReady',
      status: 'False',
      reason: 'SecretSourceNotFound',
    });
  });

  it('reports an ExternalSecret as ESO reports it, read after the apply', () => {
    const decision = decided([EXTERNAL]);
    expect(secretsFacet.condition!(decision, () => undefined)).toMatchObject({
      status: 'False',
      reason: 'ExternalSecretNotReady',
    });
    const ready: KubernetesObject = {
      status: { conditions: [{ type: 'Ready', status: 'True' }] },
    } as KubernetesObject;
    expect(secretsFacet.condition!(decision, () => ready)).toMatchObject({
      status: 'True',
      reason: 'SecretsReady',
    });
  });

  it.each([
    { name: 'bound to this Tenant: copied', uid: 'u-1', made: ['sendgrid', 'db'], reason: 'SecretsReady' },
    { name: 'not annotated: not copied', uid: undefined, made: ['sendgrid'], reason: 'SecretSourceNotBound' },
    {
      name: 'bound to another uid: not copied',
      uid: 'u-0',
      made: ['sendgrid'],
      reason: 'SecretSourceNotBound',
    },
  ])('a per-tenant source $name, the shared one copied all the same', ({ uid, made, reason }) => {
    const known = withDb(uid);
    const decision = decided([SHARED, MISSING], known);
    const children = secretsFacet.children(input([SHARED, MISSING], false, known), decision, noDecisions);
    if (!children.ok) throw new Error('refused');
    expect(children.children.map((c) => c.ref.name)).toEqual(made);
    expect(secretsFacet.condition!(decision, () => undefined)).toMatchObject({ reason });
  });

  it('gives a warm pool member the shared copies only, never a per-tenant one, bound or not', () => {
    const tenantClass = resolvedClass('standard', 1, { secrets: [SHARED, MISSING] });
    const policy = testConfig({ tenantClass, secretSourceNamespaces: ['platform-secrets'] });
    const member = secretsFacet.member!({
      policy,
      cluster: clusterView(new Map([[secretsFacet, withDb('u-1')]])),
    });
    if (!member.ok) throw new Error('refused');
    expect(member.objects.map((o) => o.ref.name)).toEqual(['sendgrid']);
  });
});
