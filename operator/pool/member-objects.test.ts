// What a member holds of its class's secrets: copies of the shared sources only, and a hash that
// moves with their values, so a rotated source replaces the unclaimed members.
import { describe, expect, it } from 'vitest';
import { LABEL } from '../../api/tenant.js';
import type { ClassSecret } from '../../api/tenantclass.js';
import { perTenant, testConfig, validDeployment } from '../../testing/policy.js';
import type { SecretSources, SourceSecret } from '../secrets/sources.js';
import { poolBlueprint } from './member-objects.js';

const SECRETS: ClassSecret[] = [
  { name: 'sendgrid', from: { namespace: 'platform-secrets', name: 'sendgrid' } },
  { name: 'db', from: { namespace: 'platform-secrets', name: '{name}-db' } },
  { name: 'stray', from: { namespace: 'kube-system', name: 'token' } },
  { name: 'gone', from: { namespace: 'platform-secrets', name: 'missing' } },
  {
    name: 'payments',
    externalSecret: {
      storeRef: { kind: 'ClusterSecretStore', name: 'aws' },
      remoteKey: 'tenants/{name}/pay',
    },
  },
];

function sources(sendgrid: string): SecretSources {
  const known: Record<string, SourceSecret> = {
    'platform-secrets/sendgrid': { type: 'Opaque', data: { key: sendgrid } },
    'platform-secrets/acme-db': { type: 'Opaque', data: { password: 'cHc=' } },
    'kube-system/token': { type: 'Opaque', data: { token: 'dA==' } },
  };
  return { secret: (namespace, name) => known[`${namespace}/${name}`], externalSecrets: true };
}

function blueprint(sendgrid = 'a2V5') {
  const policy = testConfig({
    secretSourceNamespaces: ['platform-secrets'],
    tenantClass: {
      ...perTenant('quick-{id}'),
      name: 'quick',
      secrets: SECRETS,
      warmPool: {
        size: 2,
        deployment: validDeployment() as unknown as Record<string, unknown>,
        maxUnavailable: 1,
      },
    },
  });
  const made = poolBlueprint(policy, sources(sendgrid));
  if (!made.ok) throw new Error(`refused: ${made.refusal.message}`);
  return made;
}

describe('poolBlueprint: secrets', () => {
  it('copies only the shared sources the operator reads and finds, with their type and data', () => {
    const copies = blueprint().objects.filter((o) => o.ref.kind === 'Secret');
    expect(copies.map((c) => c.ref.name)).toEqual(['sendgrid']);
    expect(copies[0]!.manifest).toMatchObject({
      type: 'Opaque',
      data: { key: 'a2V5' },
      metadata: {
        name: 'sendgrid',
        annotations: { 'landlord.dev/secret-source': 'platform-secrets/sendgrid' },
      },
    });
  });

  it("moves the hash when a shared source's value changes, and not otherwise", () => {
    expect(blueprint().hash).toBe(blueprint().hash);
    expect(blueprint('b3RoZXI=').hash).not.toBe(blueprint().hash);
  });

  it('holds no copy when no source is known', () => {
    const policy = testConfig({ tenantClass: { ...perTenant('quick-{id}'), secrets: SECRETS } });
    const made = poolBlueprint(policy);
    expect(made.ok && made.objects.some((o) => o.ref.kind === 'Secret')).toBe(false);
  });
});

describe('poolBlueprint: an exposed class', () => {
  it("labels the members' pods as the tenants' Services select them, so a claim keeps them", () => {
    const policy = testConfig({
      tenantClass: {
        ...perTenant('web-{id}'),
        name: 'web',
        expose: { port: 8080, host: '{name}.apps.example.com', ingressClassName: 'nginx' },
        allowedDomains: ['apps.example.com'],
        warmPool: {
          size: 2,
          deployment: validDeployment() as unknown as Record<string, unknown>,
          maxUnavailable: 1,
        },
      },
    });
    const made = poolBlueprint(policy);
    expect(made.ok && made.deployment.spec?.template.metadata?.labels).toMatchObject({
      [LABEL.exposed]: 'app',
    });
  });
});
