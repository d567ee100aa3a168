// What a member holds, pure: the pool's Deployment as the policy shapes a row's (placed in the
// member's namespace, whether or not it names one; the docs' example class makes members), the
// class's objects, copies of the shared secret sources only with a hash that moves with their
// values (a rotated source replaces the unclaimed members), the member's Namespace controlled by
// its class, and every object stamped for the Applier's drift check.
import { readFileSync } from 'node:fs';
import type { V1Deployment } from '@kubernetes/client-node';
import { load } from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { ANNOTATION, LABEL, MANAGED_BY } from '../../api/tenant.js';
import { policyOf, type ClassSecret, type TenantClass } from '../../api/tenantclass.js';
import { perTenant, testConfig, validDeployment } from '../../testing/policy.js';
import { SPEC_HASH_ANNOTATION } from '../desired.js';
import { clusterView } from '../facets/view.js';
import { secretsFacet } from '../secrets/facet.js';
import type { SecretSources, SourceSecret } from '../secrets/sources.js';
import {
  memberChildren,
  memberContents,
  memberNamespace,
  poolBlueprint,
  type MemberObject,
  type PoolBlueprint,
} from './member-objects.js';

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
  const made = poolBlueprint(policy, clusterView(new Map([[secretsFacet, sources(sendgrid)]])));
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
    expect(made.ok && made.deployments[0]!.spec?.template.metadata?.labels).toMatchObject({
      [LABEL.exposed]: 'app',
    });
  });
});

/** A class keeping a pool of 2 running `deployment`, named "quick-{id}", with a quota and limits. */
function pooledPolicy(deployment: V1Deployment = validDeployment()) {
  return testConfig({
    tenantClass: {
      ...perTenant('quick-{id}'),
      name: 'quick',
      resourceQuota: { hard: { pods: '10' } },
      limitRange: { limits: [{ type: 'Container', default: { cpu: '500m' } }] },
      warmPool: { size: 2, deployment: deployment as unknown as Record<string, unknown>, maxUnavailable: 1 },
    },
  });
}

function accepted(made: PoolBlueprint): Extract<PoolBlueprint, { ok: true }> {
  if (!made.ok) throw new Error(`refused: ${made.refusal.reason}: ${made.refusal.message}`);
  return made;
}

function withoutNamespace(deployment: V1Deployment): V1Deployment {
  const metadata = { ...deployment.metadata };
  delete metadata.namespace;
  return { ...deployment, metadata };
}

describe('poolBlueprint: the Deployment', () => {
  it('takes a Deployment without metadata.namespace, as the same one naming any namespace', () => {
    const named = accepted(poolBlueprint(pooledPolicy()));
    const unnamed = accepted(poolBlueprint(pooledPolicy(withoutNamespace(validDeployment()))));
    expect(unnamed.deployments).toEqual(named.deployments);
    expect(unnamed.hash).toBe(named.hash);
    expect(unnamed.deployments[0]!.metadata?.namespace).toBe('');
  });

  it("puts a namespace-less Deployment in the member's namespace", () => {
    const made = accepted(poolBlueprint(pooledPolicy(withoutNamespace(validDeployment()))));
    const deployment = memberContents(made, 'quick', 'quick-abc').find((o) => o.ref.kind === 'Deployment');
    expect(deployment?.ref).toMatchObject({ namespace: 'quick-abc', name: 'web' });
    expect(deployment?.manifest.metadata?.namespace).toBe('quick-abc');
  });

  it('refuses a Deployment the policy refuses a row, with its reason', () => {
    const privileged = validDeployment();
    privileged.spec!.template.spec!.containers[0]!.securityContext = { privileged: true };
    const made = poolBlueprint(pooledPolicy(withoutNamespace(privileged)));
    expect(made.ok).toBe(false);
    expect(!made.ok && made.refusal.reason).toBe('PodSecurityViolation');
  });

  it("makes members from docs/warm-pool.md's example class as written", () => {
    const text = readFileSync(new URL('../../docs/warm-pool.md', import.meta.url), 'utf8');
    const example = /```yaml\n([\s\S]*?)```/.exec(text)![1]!;
    const tc = load(example) as TenantClass;
    const made = accepted(poolBlueprint(testConfig({ tenantClass: policyOf(tc) })));
    const children = memberChildren(made, policyOf(tc), 'uid-1', 't-abc');
    expect(children.find((c) => c.ref.kind === 'Deployment')?.ref).toMatchObject({
      namespace: 't-abc',
      name: 'app',
    });
  });
});

describe("a member's objects", () => {
  const made = accepted(poolBlueprint(pooledPolicy()));
  const policy = pooledPolicy().tenantClass;

  it('the Namespace: labelled with its class, its hash, controlled by the class without blocking its deletion', () => {
    const ns = memberNamespace(policy, 'uid-1', 'quick-abc', made.hash);
    expect(ns.metadata).toMatchObject({
      name: 'quick-abc',
      labels: { [LABEL.pool]: 'quick', [LABEL.managedBy]: MANAGED_BY.operator },
      annotations: { [ANNOTATION.poolHash]: made.hash },
    });
    expect(ns.metadata?.labels?.['pod-security.kubernetes.io/enforce']).toBe('baseline');
    expect(ns.metadata?.ownerReferences).toEqual([
      {
        apiVersion: 'landlord.dev/v1alpha1',
        kind: 'TenantClass',
        name: 'quick',
        uid: 'uid-1',
        controller: true,
      },
    ]);
  });

  it("the contents: in the member's namespace, labelled with the pool, owned by nobody, the Deployment last", () => {
    const contents: MemberObject[] = memberContents(made, 'quick', 'quick-abc');
    expect(contents.map((c) => c.ref.kind)).toEqual([
      'ServiceAccount',
      'ResourceQuota',
      'LimitRange',
      'NetworkPolicy',
      'Deployment',
    ]);
    for (const { ref, manifest } of contents) {
      expect(ref.namespace).toBe('quick-abc');
      expect(manifest.metadata).toMatchObject({ namespace: 'quick-abc', labels: { [LABEL.pool]: 'quick' } });
      expect(manifest.metadata?.ownerReferences).toBeUndefined();
    }
  });

  it("memberChildren: the Namespace first, each stamped with its manifest's hash, the pool's pod template unchanged", () => {
    const children = memberChildren(made, policy, 'uid-1', 'quick-abc');
    expect(children[0]!.ref).toMatchObject({ kind: 'Namespace', name: 'quick-abc', namespace: '' });
    for (const child of children)
      expect(child.manifest.metadata?.annotations?.[SPEC_HASH_ANNOTATION]).toBe(child.hash);
    const deployment = children.find((c) => c.ref.kind === 'Deployment')!.manifest as V1Deployment;
    expect(deployment.spec?.template).toEqual(made.deployments[0]!.spec?.template);
  });

  it('memberChildren: the same for the same class, another hash per member and per spec', () => {
    const hashes = (name: string, blueprint = made): string[] =>
      memberChildren(blueprint, policy, 'uid-1', name).map((c) => c.hash);
    expect(hashes('quick-abc')).toEqual(hashes('quick-abc'));
    expect(hashes('quick-def')).not.toEqual(hashes('quick-abc'));
    const other = validDeployment();
    other.spec!.replicas = 3;
    const changed = accepted(poolBlueprint(pooledPolicy(other)));
    expect(changed.hash).not.toBe(made.hash);
    expect(hashes('quick-abc', changed)).not.toEqual(hashes('quick-abc'));
  });
});

/** A Deployment of `name` whose pods carry app=<name> and listen on `port`. */
function service(name: string, port: number): V1Deployment {
  const d = validDeployment();
  d.metadata = { name };
  d.spec!.selector = { matchLabels: { app: name } };
  d.spec!.template.metadata = { labels: { app: name } };
  d.spec!.template.spec!.containers[0]!.ports = [{ containerPort: port }];
  return d;
}

/** Pods labelled tier=front too; `selecting`: its selector asks only for that, so it selects a sibling's. */
function tiered(d: V1Deployment, selecting = false): V1Deployment {
  d.spec!.template.metadata!.labels = { ...d.spec!.template.metadata!.labels, tier: 'front' };
  if (selecting) d.spec!.selector = { matchLabels: { tier: 'front' } };
  return d;
}

/** A class whose members run `deployments` (warmPool.deployments), exposed when `expose` names one. */
function severalPolicy(deployments: V1Deployment[], exposed?: string) {
  const config = pooledPolicy();
  const pool = config.tenantClass.warmPool!;
  const expose = {
    port: 8080,
    host: '{name}.apps.example.com',
    ingressClassName: 'nginx',
    deployment: exposed,
  };
  return testConfig({
    tenantClass: {
      ...config.tenantClass,
      ...(exposed === undefined ? {} : { expose, allowedDomains: ['apps.example.com'] }),
      warmPool: { ...pool, deployment: {}, deployments: deployments as unknown as Record<string, unknown>[] },
    },
  });
}

describe('poolBlueprint: a pool of several Deployments (warmPool.deployments)', () => {
  it('runs each in the list order, last in the member, the one the route reaches labelled for it', () => {
    const made = accepted(poolBlueprint(severalPolicy([service('web', 8080), service('api', 9000)], 'api')));
    expect(made.deployments.map((d) => d.metadata?.name)).toEqual(['web', 'api']);
    const labels = made.deployments.map((d) => d.spec?.template.metadata?.labels?.[LABEL.exposed]);
    expect(labels).toEqual([undefined, 'app']);
    const contents = memberContents(made, 'quick', 'quick-abc');
    expect(contents.slice(-2).map((c) => [c.ref.kind, c.ref.name, c.ref.namespace])).toEqual([
      ['Deployment', 'web', 'quick-abc'],
      ['Deployment', 'api', 'quick-abc'],
    ]);
  });

  it('hashes a pool of one as before lists existed, and a list of two otherwise', () => {
    const one = accepted(poolBlueprint(pooledPolicy()));
    const two = accepted(poolBlueprint(severalPolicy([validDeployment(), service('api', 9000)])));
    expect(two.hash).not.toBe(one.hash);
    expect(two.deployments[0]).toEqual(one.deployments[0]);
  });

  it.each<[string, V1Deployment[], string, RegExp]>([
    ['two of one name', [service('web', 1), service('web', 2)], 'DuplicateChild', /"web" is/],
    [
      'a selector over a sibling',
      [tiered(service('web', 1)), tiered(service('api', 2), true)],
      'LabelConflict',
      /selects the pods of/,
    ],
  ])('refuses %s as a row list is refused', (_, deployments, reason, message) => {
    const made = poolBlueprint(severalPolicy(deployments));
    expect(made.ok).toBe(false);
    expect(!made.ok && made.refusal.reason).toBe(reason);
    expect(!made.ok && made.refusal.message).toMatch(message);
  });

  it('refuses a deployment written beside the list, as a Tenant holding both is refused', () => {
    const config = severalPolicy([service('web', 1)]);
    const pool = {
      ...config.tenantClass.warmPool!,
      deployment: validDeployment() as unknown as Record<string, unknown>,
    };
    const made = poolBlueprint({ ...config, tenantClass: { ...config.tenantClass, warmPool: pool } });
    expect(!made.ok && made.refusal.reason).toBe('InvalidSpec');
  });
});
