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
  'platform-secrets/acme-db': { type: 'kubernetes.io/basic-auth', data: { password: VALUE } },
});
const SHARED: ClassSecret = { name: 'sendgrid', from: { namespace: 'platform-secrets', name: 'sendgrid' } };
const OWN: ClassSecret = { name: 'db', from: { namespace: 'platform-secrets', name: '{name}-db' } };

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
