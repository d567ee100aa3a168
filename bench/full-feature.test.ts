// The fullfeature scenario's two sides, its ratios and its table rows: pure, no cluster.
import { describe, expect, it } from 'vitest';
import { parseArgs } from './args.js';
import {
  FULL_FEATURE_SERVICES,
  apiServerMsPerTenant,
  databaseCpuSeconds,
  rowStatusCost,
  fullFeatureRows,
  fullFeatureTable,
  fullOptions,
  fullOverPlain,
  plainOptions,
} from './full-feature.js';
import type { SizeResult } from './report.js';
import { row, services, specText, SERVICE_PORT } from './rows.js';
import { callsDelta, operationOf } from './dynamo-calls.js';
import { itemBytes } from './dynamo.js';
import { benchClass, benchPolicy, perTenantWaves } from './tenancy.js';
import { adminSecret, benchDatabases, benchTenantDatabases } from './databases.js';
import { API_VERSION, KIND, type Tenant } from '../api/tenant.js';

function sized(n: number, apiServerCpu: number, operatorPeakMiB: number): SizeResult {
  return {
    n,
    ratio: 1.4,
    baseline: { seconds: 50, cpuSeconds: { 'kube-apiserver': apiServerCpu / 2 } } as never,
    landlord: {
      cold: { seconds: 70, cpuSeconds: { 'kube-apiserver': apiServerCpu } } as never,
      memory: { syncPeakMiB: 100, operatorPeakMiB, processes: {} },
      edits: { stream: { p50Ms: 310.4, p99Ms: 702.6 } as never },
    },
  };
}

describe('fullfeature', () => {
  it('is a scenario of its own, run beside nothing else when asked alone', () => {
    expect(parseArgs(['--scenarios=fullfeature']).scenarios).toEqual(['fullfeature']);
    expect(parseArgs([]).scenarios).toContain('fullfeature');
    expect(parseArgs(['--quick']).scenarios).not.toContain('fullfeature');
  });

  it('turns every feature on for the full side and off for the plain one, whatever the flags', () => {
    const options = parseArgs(['--expose', '--secrets']);
    expect(plainOptions(options)).toMatchObject({
      expose: false,
      secrets: false,
      rowStatus: false,
      services: 1,
    });
    expect(fullOptions(parseArgs([]))).toMatchObject({
      expose: true,
      secrets: true,
      rowStatus: true,
      services: 2,
      databases: true,
      dynamoCalls: true,
    });
    expect(FULL_FEATURE_SERVICES).toBe(2);
    expect(plainOptions(fullOptions(parseArgs([])))).toMatchObject({ databases: false, dynamoCalls: true });
    expect(parseArgs([])).toMatchObject({ databases: false, dynamoCalls: false, services: 1 });
  });

  it('puts the databases on PostgreSQL unless --database-engine names mysql, and refuses other engines', () => {
    expect(parseArgs([]).databaseEngine).toBe('postgres');
    expect(fullOptions(parseArgs(['--database-engine', 'mysql'])).databaseEngine).toBe('mysql');
    expect(() => parseArgs(['--database-engine', 'oracle'])).toThrow(/postgres, mysql/);
  });

  it('reads API server CPU per tenant in milliseconds, and the ratios full over plain', () => {
    const plain = sized(1000, 30, 130);
    const full = sized(1000, 39, 156);
    expect(apiServerMsPerTenant(plain, 'landlord')).toBe(30);
    expect(apiServerMsPerTenant(plain, 'baseline')).toBe(15);
    expect(fullOverPlain(plain, full)).toEqual({ apiServerCpu: 1.3, operatorMemory: 1.2 });
    expect(fullOverPlain({ n: 1000 }, full)).toEqual({ apiServerCpu: undefined, operatorMemory: undefined });
  });

  it('prints plain then full at each size, and the ratios under the table', () => {
    const result = { n: 1000, plain: sized(1000, 30, 130), full: sized(1000, 39, 156), fullOverPlain: {} };
    result.fullOverPlain = fullOverPlain(result.plain, result.full);
    expect(fullFeatureRows([result]).map((r) => r.mode)).toEqual(['plain', 'full']);
    const table = fullFeatureTable([result]);
    expect(table).toContain('API CPU ms/tenant');
    expect(table).toMatch(/\| +1000 \| +full \| +1\.40 \| +70\.0 \| +50\.0 \| +39\.0 \| +19\.5 \|/);
    expect(table).toContain('edit p50/p99 ms');
    expect(table).toMatch(/\| +310\/703 \|/);
    expect(table).toContain(
      'full over plain (goal ≤ 1.5): API server CPU per tenant 1.30, operator peak memory 1.20',
    );
    expect(fullFeatureTable([])).toBe('');
  });
});

describe('rows with several services', () => {
  it('keeps one Deployment as rows have always held it', () => {
    const spec = JSON.parse(row('t-00001', { replicas: 1, services: 1 }).spec!.S!) as { kind: string };
    expect(spec.kind).toBe('Deployment');
    const [only] = services('t-00001', { replicas: 1, services: 1 });
    expect(only!.spec?.template.spec?.containers[0]?.ports).toBeUndefined();
  });

  it('edits a row whole: every Deployment takes the new image, the shape stays', () => {
    const edited = JSON.parse(specText('t-00001', { replicas: 0, services: 2 }, 'nginx:stream-3')) as {
      metadata: { name: string };
      spec: { replicas: number; template: { spec: { containers: { image: string }[] } } };
    }[];
    expect(edited.map((d) => d.metadata.name)).toEqual(['t-00001-app', 't-00001-app-2']);
    expect(edited.map((d) => d.spec.template.spec.containers[0]!.image)).toEqual([
      'nginx:stream-3',
      'nginx:stream-3',
    ]);
    expect(edited.map((d) => d.spec.replicas)).toEqual([0, 0]);
    expect(specText('t-00001', { replicas: 1, services: 1 }, 'x:1')).toBe(
      JSON.stringify(services('t-00001', { replicas: 1, services: 1 }, 'x:1')[0]),
    );
  });

  it('writes several as an array, each named and selected apart', () => {
    const list = services('t-00001', { replicas: 0, services: 2 });
    expect(list.map((d) => d.metadata?.name)).toEqual(['t-00001-app', 't-00001-app-2']);
    expect(list[1]!.spec?.selector.matchLabels).toEqual({ app: 't-00001-2' });
    expect(list[1]!.spec?.template.metadata?.labels).toEqual({ app: 't-00001-2' });
    expect(list.every((d) => d.spec?.replicas === 0)).toBe(true);
    for (const d of list)
      expect(d.spec?.template.spec?.containers[0]?.ports).toEqual([{ containerPort: SERVICE_PORT }]);
    const spec = JSON.parse(row('t-00001', { replicas: 0, services: 2 }).spec!.S!) as unknown[];
    expect(spec).toHaveLength(2);
  });
});

describe('row status cost', () => {
  const full = (calls: Record<string, number> | undefined, bytes = 1500): SizeResult => ({
    n: 1000,
    landlord: {
      cold: { dynamoCalls: calls } as never,
      steady: { dynamodb: { items: 1000, pages: 2, bytes: bytes * 1000, computedRcu: 0 } } as never,
    },
  });

  it('reads writes and reads per tenant, and their units at the row size', () => {
    expect(rowStatusCost(full({ UpdateItem: 2000, GetItem: 2100, Scan: 3 }))).toEqual({
      writesPerTenant: 2,
      readsPerTenant: 2.1,
      rowBytes: 1500,
      readUnitsPerTenant: 2.1,
      writeUnitsPerTenant: 4,
    });
    expect(rowStatusCost(full({}, 5000))).toMatchObject({ writesPerTenant: 0, readUnitsPerTenant: 0 });
  });

  it('says nothing when the calls were not counted', () => {
    expect(rowStatusCost(full(undefined))).toBeUndefined();
    expect(rowStatusCost({ n: 10 })).toBeUndefined();
  });

  it('names the operation of a call, and what moved between two counts', () => {
    expect(operationOf('DynamoDB_20120810.GetItem')).toBe('GetItem');
    expect(operationOf(['DynamoDBStreams_20120810.GetRecords'])).toBe('GetRecords');
    expect(operationOf(undefined)).toBe('unknown');
    expect(callsDelta({ Scan: 2, GetItem: 5 }, { Scan: 2, GetItem: 7, UpdateItem: 1 })).toEqual({
      GetItem: 2,
      UpdateItem: 1,
    });
  });

  it("sums the database server's CPU, its backends' included", () => {
    expect(databaseCpuSeconds({ 'kube-apiserver': 30, postgres: 4.5 })).toBe(4.5);
    expect(databaseCpuSeconds({ 'kube-apiserver': 30, mariadbd: 2.5 })).toBe(2.5);
    expect(databaseCpuSeconds({ 'kube-apiserver': 30 })).toBeUndefined();
    expect(databaseCpuSeconds(undefined)).toBeUndefined();
  });
});

describe('the full side in the baseline', () => {
  const tenant: Tenant = { apiVersion: API_VERSION, kind: KIND, metadata: { name: 't-00003', uid: 'u-3' } };

  it('gives the class a PostgreSQL database per tenant only when asked', () => {
    expect(benchClass({ expose: true, secrets: true }).spec?.databases).toBeUndefined();
    expect(benchClass({ expose: true, secrets: false, databases: true }).spec?.databases).toEqual(
      benchDatabases('postgres'),
    );
    expect(benchTenantDatabases('t-00003')).toEqual([
      expect.objectContaining({
        engine: 'postgres',
        database: 't_t-00003',
        role: 't_t-00003',
        secretName: 'db-main',
      }),
    ]);
  });

  it('gives the class a MariaDB database per tenant under --database-engine mysql', () => {
    const databases = benchClass({ expose: false, secrets: false, databases: true, databaseEngine: 'mysql' })
      .spec?.databases;
    expect(databases).toEqual([expect.objectContaining({ engine: 'mysql', nameTemplate: 't_{name}' })]);
    expect(benchTenantDatabases('t-00003', 'mysql')).toEqual([
      expect.objectContaining({ engine: 'mysql', database: 't_t-00003', secretName: 'db-main' }),
    ]);
  });

  it('makes each Deployment, the first one exposed, and each one its Service with the fences', () => {
    const policy = benchPolicy({ expose: true, secrets: false });
    const [, fences, workload] = perTenantWaves(tenant, policy, { replicas: 0, services: 2 });
    expect(workload!.map((o) => `${o.kind}/${o.metadata?.name}`)).toEqual([
      'Deployment/t-00003-app',
      'Deployment/t-00003-app-2',
      'ConfigMap/t-00003-config',
    ]);
    const services = fences!.filter((o) => o.kind === 'Service').map((o) => o.metadata?.name);
    expect(services).toEqual(['landlord-app', 't-00003-app', 't-00003-app-2']);
    const labels = (i: number): Record<string, string> =>
      (workload![i] as { spec: { template: { metadata: { labels: Record<string, string> } } } }).spec.template
        .metadata.labels;
    expect(Object.keys(labels(0)).length).toBeGreaterThan(Object.keys(labels(1)).length);
  });

  it("keeps a plain tenant's waves as they were: one Deployment, no Service of its own", () => {
    const waves = perTenantWaves(tenant, benchPolicy({ expose: false, secrets: false }));
    expect(waves.flat().filter((o) => o.kind === 'Deployment')).toHaveLength(1);
    expect(waves.flat().some((o) => o.kind === 'Service')).toBe(false);
  });

  it("writes the admin Secret the class's entry names, in the namespace given", () => {
    const secret = adminSecret(
      { host: '127.0.0.1', port: 5432, user: 'admin', password: 'pw' },
      'landlord-system',
    );
    expect(secret.metadata).toEqual({
      name: benchDatabases('postgres')[0]!.server.secretRef.name,
      namespace: 'landlord-system',
    });
    expect(Buffer.from(secret.data!.port!, 'base64').toString()).toBe('5432');
  });
});

describe("a row's size as DynamoDB bills it", () => {
  it('counts a map as 3 bytes, 1 per member, and its names and values', () => {
    expect(itemBytes({ a: { S: 'xy' } })).toBe(3);
    expect(itemBytes({ landlord: { M: { a: { S: 'xy' }, ok: { BOOL: true } } } })).toBe(8 + 3 + 3 + 3 + 2);
    expect(itemBytes({ l: { L: [{ S: 'ab' }, { BOOL: false }] } })).toBe(1 + 3 + 3 + 2);
  });
});
