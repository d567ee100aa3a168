// The bench's command line, the rows it writes and the PerTenant class: pure, no cluster.
import { describe, expect, it } from 'vitest';
import type { V1Secret } from '@kubernetes/client-node';
import { API_VERSION, KIND, type Tenant } from '../api/tenant.js';
import { parseArgs } from './args.js';
import { nodeOptionsFor, type Sizing } from './deployed.js';
import { limitGoMemory } from './go-memory.js';
import { benchReplicas, deployment, row } from './rows.js';
import { SECRET_SOURCE_NAMESPACE, knownSources, sourceSecrets } from './secrets.js';
import { benchClass, benchPolicy, perTenantWaves } from './tenancy.js';

describe('--no-pods', () => {
  it('is off by default: every Deployment runs one pod', () => {
    const options = parseArgs(['--quick']);
    expect(options.pods).toBe(true);
    expect(benchReplicas(options)).toBe(1);
  });

  it('gives Deployments no replica, in the rows and the baseline alike', () => {
    const options = parseArgs(['--quick', '--no-pods']);
    expect(options.pods).toBe(false);
    const replicas = benchReplicas(options);
    expect(replicas).toBe(0);
    expect(deployment('t-00001', 'nginx:1.27', replicas).spec?.replicas).toBe(0);
    const spec = JSON.parse(row('t-00001', { replicas, services: 1 }).spec!.S!) as {
      spec: { replicas: number };
    };
    expect(spec.spec.replicas).toBe(0);
  });
});

describe('--expose', () => {
  it('is off by default, and on when asked', () => {
    expect(parseArgs(['--quick']).expose).toBe(false);
    expect(parseArgs(['--quick', '--expose']).expose).toBe(true);
  });
});

describe('--headless-services', () => {
  it("is off by default; on, the class's Services are headless in landlord's class and the baseline's", () => {
    expect(parseArgs(['--quick']).headlessServices).toBe(false);
    expect(parseArgs(['--quick', '--headless-services']).headlessServices).toBe(true);
    expect(benchClass({ expose: true, secrets: false }).spec?.services).toBeUndefined();
    expect(benchClass({ expose: true, secrets: false, headlessServices: true }).spec?.services).toEqual({
      headless: true,
    });
  });
});

describe("the operator's old-space cap, as the manifests advise", () => {
  const cap = (n: number, sizing: Sizing): number =>
    Number(/--max-old-space-size=(\d+)/.exec(nodeOptionsFor('operator', n, sizing))![1]);
  it('adds 10 MiB per 1,000 Shared tenants beyond 5,000, 8 PerTenant and 14 with features beyond 2,000', () => {
    const deployed = cap(1000, 'shared');
    expect([cap(5000, 'shared'), cap(20000, 'shared')]).toEqual([deployed, deployed + 150]);
    expect([cap(2000, 'pertenant'), cap(20000, 'pertenant')]).toEqual([deployed, deployed + 144]);
    expect([cap(2000, 'featured'), cap(20000, 'featured')]).toEqual([deployed, deployed + 252]);
  });
});

describe("the control plane's soft memory limit", () => {
  it('is 55 % of the machine unless the environment sets one', () => {
    const env: NodeJS.ProcessEnv = {};
    expect(limitGoMemory(env, 24 * 2 ** 30)).toBe('13516MiB');
    expect(env.GOMEMLIMIT).toBe('13516MiB');
    expect(limitGoMemory({ GOMEMLIMIT: '8GiB' }, 24 * 2 ** 30)).toBe('8GiB');
  });
});

describe('--secrets', () => {
  it('is off by default, and on when asked, alone or with --expose', () => {
    expect(parseArgs(['--quick']).secrets).toBe(false);
    expect(parseArgs(['--quick', '--secrets'])).toMatchObject({ secrets: true, expose: false });
    expect(parseArgs(['--quick', '--secrets', '--expose'])).toMatchObject({ secrets: true, expose: true });
  });

  it('gives the class a shared secret and one of each tenant, from the source namespace', () => {
    expect(benchClass({ expose: false, secrets: false }).spec?.secrets).toBeUndefined();
    const spec = benchClass({ expose: true, secrets: true }).spec!;
    expect(spec.expose).toBeDefined();
    expect(spec.secrets).toEqual([
      { name: 'shared', from: { namespace: SECRET_SOURCE_NAMESPACE, name: 'shared' } },
      { name: 'db', from: { namespace: SECRET_SOURCE_NAMESPACE, name: '{name}-db' } },
    ]);
  });

  it('makes a source per tenant and one shared, with a few small values', () => {
    const secrets = sourceSecrets(['t-00000', 't-00001']);
    expect(secrets.map((s) => `${s.metadata?.namespace}/${s.metadata?.name}`)).toEqual([
      `${SECRET_SOURCE_NAMESPACE}/shared`,
      `${SECRET_SOURCE_NAMESPACE}/t-00000-db`,
      `${SECRET_SOURCE_NAMESPACE}/t-00001-db`,
    ]);
    for (const s of secrets) expect(Object.keys(s.data ?? {})).toHaveLength(3);
    expect(Buffer.from(secrets[1]!.data!.user!, 'base64').toString()).toBe('t-00000');
  });

  it("puts the baseline's two copies, owned, in the wave of the namespace's objects", () => {
    const options = { expose: false, secrets: true };
    const tenant: Tenant = {
      apiVersion: API_VERSION,
      kind: KIND,
      metadata: { name: 't-00001', uid: 'u-1' },
      spec: { deployment: deployment('t-00001') },
    };
    const sources = sourceSecrets(['t-00001']);
    const [namespaceWave, fenceWave, workload] = perTenantWaves(
      tenant,
      benchPolicy(options),
      { replicas: 0, services: 1 },
      knownSources(sources, (name) => (name === 't-00001' ? 'u-1' : undefined)),
    );
    const copies = fenceWave!.filter((o) => o.kind === 'Secret') as V1Secret[];
    expect(copies.map((c) => c.metadata?.name)).toEqual(['shared', 'db']);
    const namespace = namespaceWave![0]!.metadata!.name!;
    for (const copy of copies) {
      expect(copy.metadata?.namespace).toBe(namespace);
      expect(copy.metadata?.ownerReferences?.[0]?.uid).toBe('u-1');
    }
    expect(copies[1]!.data).toEqual(sources[1]!.data);
    expect(workload!.map((o) => o.kind)).toEqual(['Deployment', 'ConfigMap']);
  });

  it('leaves the waves without copies when the class has no secrets', () => {
    const tenant: Tenant = { apiVersion: API_VERSION, kind: KIND, metadata: { name: 't-00002', uid: 'u-2' } };
    const waves = perTenantWaves(tenant, benchPolicy({ expose: false, secrets: false }), {
      replicas: 0,
      services: 1,
    });
    expect(waves.flat().some((o) => o.kind === 'Secret')).toBe(false);
  });
});
