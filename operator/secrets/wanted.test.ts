// What a class's secrets come to for one tenant, one case per way an entry can go, and the
// SecretsReady condition each gives. No case may put a value into a message.
import { describe, expect, it } from 'vitest';
import { API_VERSION, KIND, LABEL, type Tenant } from '../../api/tenant.js';
import { resolvedClass, type ClassSecret } from '../../api/tenantclass.js';
import { SPEC_HASH_ANNOTATION } from '../desired.js';
import { secretsCondition } from './condition.js';
import { SOURCE_ANNOTATION } from './copy.js';
import type { SecretSources, SourceSecret } from './sources.js';
import { wantedSecrets } from './wanted.js';

const VALUE = 'c2VjcmV0LXZhbHVl'; // "secret-value"
const tenant: Tenant = { apiVersion: API_VERSION, kind: KIND, metadata: { name: 'acme', uid: 'u-1' } };

const sourcesOf = (secrets: Record<string, SourceSecret>, externalSecrets = false): SecretSources => ({
  secret: (namespace, name) => secrets[`${namespace}/${name}`],
  externalSecrets,
});
const ALL = sourcesOf({
  'platform-secrets/sendgrid': { type: 'Opaque', data: { key: VALUE } },
  'platform-secrets/acme-db': {
    type: 'kubernetes.io/basic-auth',
    data: { password: VALUE },
    tenantUid: 'u-1',
  },
});
const SHARED: ClassSecret = { name: 'sendgrid', from: { namespace: 'platform-secrets', name: 'sendgrid' } };
const OWN: ClassSecret = { name: 'db', from: { namespace: 'platform-secrets', name: '{name}-db' } };

/** The shared source, and acme's own bound to `tenantUid` (undefined: not annotated). */
const withDb = (tenantUid: string | undefined): SecretSources =>
  sourcesOf({
    'platform-secrets/sendgrid': { type: 'Opaque', data: { key: VALUE } },
    'platform-secrets/acme-db': {
      type: 'Opaque',
      data: { password: VALUE },
      ...(tenantUid ? { tenantUid } : {}),
    },
  });

function wanted(entries: ClassSecret[], sources = ALL, sourceNamespaces = ['platform-secrets']) {
  const tenantClass = resolvedClass('standard', 1, { secrets: entries });
  return wantedSecrets(tenant, tenantClass, 'acme', { sourceNamespaces, sources });
}

describe('wantedSecrets', () => {
  it('copies a shared and a templated source, type and data, owned by the Tenant', () => {
    const result = wanted([SHARED, OWN]);
    expect(result.problems).toEqual([]);
    expect(result.retained).toEqual([]);
    const [shared, own] = result.children.map((c) => c.manifest as Record<string, unknown>);
    expect(shared).toMatchObject({
      kind: 'Secret',
      metadata: { name: 'sendgrid', namespace: 'acme', labels: { [LABEL.tenant]: 'acme' } },
      type: 'Opaque',
      data: { key: VALUE },
    });
    expect(own).toMatchObject({
      metadata: { name: 'db', annotations: { [SOURCE_ANNOTATION]: 'platform-secrets/acme-db' } },
      type: 'kubernetes.io/basic-auth',
    });
    expect(result.children[0]!.ref).toMatchObject({ kind: 'Secret', namespace: 'acme', name: 'sendgrid' });
  });

  it('gives a copy another hash when, and only when, the source values change', () => {
    const hash = (data: Record<string, string>): string =>
      wanted([SHARED], sourcesOf({ 'platform-secrets/sendgrid': { type: 'Opaque', data } })).children[0]!
        .hash;
    expect(hash({ key: VALUE })).toBe(hash({ key: VALUE }));
    expect(hash({ key: VALUE })).not.toBe(hash({ key: 'b3RoZXI=' }));
    const copy = wanted([SHARED]).children[0]!;
    expect(copy.manifest.metadata?.annotations?.[SPEC_HASH_ANNOTATION]).toBe(copy.hash);
  });

  it.each([
    {
      name: 'a missing source: SecretSourceNotFound, the copy kept',
      entries: [SHARED, OWN],
      sources: sourcesOf({ 'platform-secrets/sendgrid': { type: 'Opaque', data: { key: VALUE } } }),
      reason: 'SecretSourceNotFound',
      says: ['secret db', 'platform-secrets/acme-db', 'not found'],
      retained: ['db'],
    },
    {
      name: 'a per-tenant source without the tenant-uid annotation: SecretSourceNotBound, the copy kept',
      entries: [SHARED, OWN],
      sources: withDb(undefined),
      reason: 'SecretSourceNotBound',
      says: [
        'secret db',
        'platform-secrets/acme-db',
        'carries no landlord.dev/tenant-uid',
        'landlord.dev/tenant-uid: u-1',
      ],
      retained: ['db'],
    },
    {
      name: "a per-tenant source bound to another uid (a deleted tenant's): SecretSourceNotBound, the copy kept",
      entries: [OWN],
      sources: withDb('u-0'),
      reason: 'SecretSourceNotBound',
      says: ['platform-secrets/acme-db', 'names another Tenant (u-0)', 'landlord.dev/tenant-uid: u-1'],
      retained: ['db'],
    },
    {
      name: 'a source outside the allowed namespaces: SecretSourceNotAllowed, the copy kept',
      entries: [{ name: 'token', from: { namespace: 'kube-system', name: 'bootstrap' } }],
      sources: ALL,
      reason: 'SecretSourceNotAllowed',
      says: ['secret token', 'kube-system/bootstrap', 'LANDLORD_SECRET_SOURCE_NAMESPACES: platform-secrets'],
      retained: ['token'],
    },
    {
      name: 'an ExternalSecret without External Secrets Operator: ExternalSecretsNotInstalled',
      entries: [
        {
          name: 'payments',
          externalSecret: {
            storeRef: { kind: 'ClusterSecretStore' as const, name: 'aws' },
            remoteKey: 'k/{name}',
          },
        },
      ],
      sources: ALL,
      reason: 'ExternalSecretsNotInstalled',
      says: ['secret payments', 'external-secrets.io/v1'],
      retained: [],
    },
  ])('$name', ({ entries, sources, reason, says, retained }) => {
    const result = wanted(entries, sources);
    expect(result.problems.map((p) => p.reason)).toEqual([reason]);
    expect(result.retained.map((r) => r.name)).toEqual(retained);
    const condition = secretsCondition(result, 'acme')!;
    expect(condition).toMatchObject({ type: 'SecretsReady', status: 'False', reason });
    for (const text of says) expect(condition.message).toContain(text);
    expect(condition.message).not.toContain(VALUE);
  });
});

describe('a per-tenant source bound to one Tenant uid', () => {
  it('is copied to the Tenant whose uid it carries, and to no other Tenant of the same name', () => {
    const tenantClass = resolvedClass('standard', 1, { secrets: [SHARED, OWN] });
    const scope = { sourceNamespaces: ['platform-secrets'], sources: withDb('u-1') };
    const bound = wantedSecrets(tenant, tenantClass, 'acme', scope);
    expect(bound.children.map((c) => c.ref.name)).toEqual(['sendgrid', 'db']);
    const recycled = { ...tenant, metadata: { ...tenant.metadata, uid: 'u-2' } };
    const refused = wantedSecrets(recycled, tenantClass, 'acme', scope);
    expect(refused.children.map((c) => c.ref.name)).toEqual(['sendgrid']);
    expect(refused.problems.map((p) => p.reason)).toEqual(['SecretSourceNotBound']);
  });

  it('leaves shared sources alone: a shared source needs no binding, and one that carries a uid is still shared', () => {
    const tenantClass = resolvedClass('standard', 1, { secrets: [SHARED] });
    const annotated = sourcesOf({
      'platform-secrets/sendgrid': { type: 'Opaque', data: { key: VALUE }, tenantUid: 'u-9' },
    });
    for (const sources of [ALL, annotated]) {
      const result = wantedSecrets(tenant, tenantClass, 'acme', {
        sourceNamespaces: ['platform-secrets'],
        sources,
      });
      expect(result.problems).toEqual([]);
      expect(result.children.map((c) => c.ref.name)).toEqual(['sendgrid']);
    }
  });

  it('cannot be bound to a Tenant that has no uid yet (a row `landlord plan` sees before sync made it)', () => {
    const tenantClass = resolvedClass('standard', 1, { secrets: [OWN] });
    const unmade = { ...tenant, metadata: { name: 'acme' } };
    const result = wantedSecrets(unmade, tenantClass, 'acme', {
      sourceNamespaces: ['platform-secrets'],
      sources: withDb(undefined),
    });
    expect(result.problems.map((p) => p.reason)).toEqual(['SecretSourceNotBound']);
    expect(result.problems[0]!.message).toContain('does not exist yet');
  });
});

describe('a TLS private key', () => {
  const certificate = { type: 'kubernetes.io/tls', data: { 'tls.crt': VALUE, 'tls.key': VALUE } };
  const WILDCARD: ClassSecret = { name: 'tls', from: { namespace: 'platform-secrets', name: 'wildcard' } };
  const OWN_TLS: ClassSecret = { name: 'tls', from: { namespace: 'platform-secrets', name: '{name}-tls' } };

  it('is never copied from one source into every tenant namespace, and a copy made before is kept', () => {
    const result = wanted(
      [SHARED, WILDCARD],
      sourcesOf({ ...withSendgrid(), 'platform-secrets/wildcard': certificate }),
    );
    expect(result.children.map((c) => c.ref.name)).toEqual(['sendgrid']);
    expect(result.retained.map((r) => r.name)).toEqual(['tls']);
    const condition = secretsCondition(result, 'acme')!;
    expect(condition).toMatchObject({ status: 'False', reason: 'SecretSharedPrivateKey' });
    expect(condition.message).toContain('platform-secrets/wildcard');
    expect(condition.message).toContain('shared Gateway');
    expect(condition.message).not.toContain(VALUE);
  });

  it('is copied from a per-tenant source bound to the Tenant: each tenant holds its own key', () => {
    const own = { ...certificate, tenantUid: 'u-1' };
    const result = wanted([OWN_TLS], sourcesOf({ 'platform-secrets/acme-tls': own }));
    expect(result.problems).toEqual([]);
    expect(result.children.map((c) => c.manifest as Record<string, unknown>)[0]).toMatchObject({
      type: 'kubernetes.io/tls',
    });
  });
});

const withSendgrid = (): Record<string, SourceSecret> => ({
  'platform-secrets/sendgrid': { type: 'Opaque', data: { key: VALUE } },
});

describe('secretsCondition', () => {
  it('is True naming every entry, and absent for a class without secrets', () => {
    expect(secretsCondition(wanted([SHARED, OWN]), 'acme')).toEqual({
      type: 'SecretsReady',
      status: 'True',
      reason: 'SecretsReady',
      message: '2 secrets in namespace acme: sendgrid, db',
    });
    expect(secretsCondition(wanted([]), 'acme')).toBeUndefined();
    expect(secretsCondition(undefined, 'acme')).toBeUndefined();
  });
});
