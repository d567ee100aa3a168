// The purge engine against moto: one tenant's partition deleted from a shared data table, with
// and without a sort key, through throttling and partial BatchWriteItem answers, stopped half-way
// and started again, and refused when the configuration names the wrong key or a missing table.
// Every test counts the whole table before and after: the purged partition is empty and every
// other item, neighbours whose keys share a prefix with the tenant's included, is still there.
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  countPartition,
  countTable,
  createDataTable,
  deleteDataTable,
  loadPartitions,
  type DataTableShape,
  type PartitionLoad,
} from '../harness/data-table.js';
import { createPurgeClient } from '../purger/data/client.js';
import type { DataTableSpec } from '../purger/data/data-table.js';
import { PermanentPurgeError, PurgeAbortedError } from '../purger/data/errors.js';
import { purgePartition, type PartitionPurgeOptions } from '../purger/data/partition-purge.js';
import { DynamoProxy } from './support/dynamo-proxy.js';
import { dynamoClient } from './support/dynamo.js';
import { envValue, uniqueName } from './support/env.js';
import { SOAK } from './support/suite.js';

const TEMPLATE = 'TENANT#{name}';
/** Tenants whose partition values share a prefix with acme's, or acme's with theirs. */
const NEIGHBOURS = ['acme2', 'acme-eu', 'acme#x', 'acm'];

let fixture: DynamoDBClient;
const tables: string[] = [];

function purgeClient(endpoint = envValue('DYNAMODB_ENDPOINT')): DynamoDBClient {
  return createPurgeClient({
    endpoint,
    region: envValue('AWS_REGION'),
    credentials: {
      accessKeyId: envValue('AWS_ACCESS_KEY_ID'),
      secretAccessKey: envValue('AWS_SECRET_ACCESS_KEY'),
    },
  });
}

const partition = (tenant: string, template = TEMPLATE): string => template.replace('{name}', tenant);

async function newTable(prefix: string, sortKey: string | undefined): Promise<DataTableShape> {
  const shape: DataTableShape = {
    table: uniqueName(prefix),
    partitionKey: 'pk',
    ...(sortKey ? { sortKey } : {}),
  };
  await createDataTable(fixture, shape);
  tables.push(shape.table);
  return shape;
}

/**
 * These partitions' counts, and the table's total. moto sorts the whole table for every Query and
 * Scan page (at 200,000 items a few seconds each), so the big table counts its total with one
 * paginated Scan rather than 50 Queries, and counts by partition only the tenants that matter.
 */
async function census(shape: DataTableShape, loads: readonly PartitionLoad[]): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  for (const load of loads) counts.set(load.value, await countPartition(fixture, shape, load.value));
  counts.set('total', await countTable(fixture, shape.table));
  return counts;
}

/** What the census must say once `value`'s partition is gone and nothing else is. */
function withoutPartition(before: Map<string, number>, value: string): Map<string, number> {
  const after = new Map(before);
  after.set('total', before.get('total')! - before.get(value)!);
  after.set(value, 0);
  return after;
}

function spec(shape: DataTableShape, valueTemplate = TEMPLATE): DataTableSpec {
  return { table: shape.table, partitionKey: shape.partitionKey, valueTemplate };
}

function purge(shape: DataTableShape, tenant: string, extra: Partial<PartitionPurgeOptions> = {}) {
  return purgePartition({ client: purgeClient(), table: spec(shape), tenant, ...extra });
}

/** acme with `items`, its prefix-sharing neighbours, and a few ordinary tenants. */
function smallLoads(items: number): PartitionLoad[] {
  return [
    { value: partition('acme'), items, bigItems: 2 },
    ...NEIGHBOURS.map((name) => ({ value: partition(name), items: 300, bigItems: 1 })),
    ...['beta', 'gamma'].map((name) => ({ value: partition(name), items: 300 })),
  ];
}

beforeAll(() => {
  fixture = dynamoClient();
});

afterAll(async () => {
  for (const table of tables.splice(0)) await deleteDataTable(fixture, table).catch(() => undefined);
});

/**
 * The table: 200,000 items across 50 tenants, the purged one holding 20,000. Loading and
 * counting it in moto takes minutes (moto sorts the whole table for every Query and Scan page), so
 * `npm test` runs it at a tenth of the size, with the same shape: 50 tenants, prefix-sharing
 * neighbours, items near 400 KB; LANDLORD_SOAK=1 runs it whole.
 */
const BIG = SOAK
  ? { tenant: 20_000, neighbour: 3_000, other: 3_740, total: 200_000 }
  : { tenant: 2_000, neighbour: 300, other: 374, total: 20_000 };

describe('purging a partition', () => {
  it(
    `empties one tenant of ${BIG.tenant} items in a ${BIG.total}-item table and leaves every other item`,
    { timeout: 900_000 },
    async () => {
      const shape = await newTable('purge-big', 'sk');
      const others = Array.from(
        { length: 50 - 1 - NEIGHBOURS.length },
        (_, i) => `tenant-${String(i).padStart(2, '0')}`,
      );
      const loads: PartitionLoad[] = [
        { value: partition('acme'), items: BIG.tenant, bigItems: 4 },
        ...NEIGHBOURS.map((name) => ({ value: partition(name), items: BIG.neighbour, bigItems: 2 })),
        ...others.map((name) => ({ value: partition(name), items: BIG.other })),
      ];
      const started = performance.now();
      const written = await loadPartitions(fixture, shape, loads, 4);
      console.log(
        `purge-data: loaded ${written} items in ${((performance.now() - started) / 1000).toFixed(1)} s`,
      );
      expect(written).toBeGreaterThanOrEqual(BIG.total);
      // Before: the total, counted (it must be what the loader wrote, so every partition holds what
      // it was given). After: the total again, and acme, its neighbours and two others one by one.
      const before = await countTable(fixture, shape.table);
      expect(before).toBe(written);
      expect(await countPartition(fixture, shape, partition('acme'))).toBe(BIG.tenant);

      const purging = performance.now();
      let progressed = 0;
      const result = await purge(shape, 'acme', { onProgress: (p) => (progressed = p.deleted) });
      console.log(
        `purge-data: purged ${BIG.tenant} items in ${((performance.now() - purging) / 1000).toFixed(1)} s`,
      );

      expect(result.deleted).toBe(BIG.tenant);
      expect(progressed).toBe(BIG.tenant);
      // Pages of 1,000 keys, one more that says there is no more, and the confirming re-query.
      expect(result.pages).toBeGreaterThanOrEqual(BIG.tenant / 1_000 + 1);
      const watched = loads.slice(0, 1 + NEIGHBOURS.length + 2);
      const expected = new Map(watched.map((load) => [load.value, load.items]));
      expected.set(partition('acme'), 0);
      expected.set('total', before - BIG.tenant);
      const counting = performance.now();
      expect(await census(shape, watched)).toEqual(expected);
      console.log(`purge-data: counted again in ${((performance.now() - counting) / 1000).toFixed(1)} s`);
      await deleteDataTable(fixture, shape.table);
      tables.splice(tables.indexOf(shape.table), 1);
    },
  );

  it('works on a table without a sort key, where a partition is one item', async () => {
    const shape = await newTable('purge-nosort', undefined);
    const loads = ['acme', ...NEIGHBOURS, 'beta'].map((name) => ({
      value: partition(name, '{name}'),
      items: 1,
    }));
    await loadPartitions(fixture, shape, loads);
    const before = await census(shape, loads);
    expect(before.get('total')).toBe(loads.length);
    const result = await purgePartition({
      client: purgeClient(),
      table: spec(shape, '{name}'),
      tenant: 'acme',
    });
    expect(result).toMatchObject({ deleted: 1, throttled: 0 });
    expect(await census(shape, loads)).toEqual(withoutPartition(before, 'acme'));
  });
});

describe('a throttled table', () => {
  let proxy: DynamoProxy;

  beforeAll(async () => {
    proxy = await DynamoProxy.start(envValue('DYNAMODB_ENDPOINT'));
  });

  afterAll(async () => {
    await proxy.close();
  });

  it('finishes through throttled requests and partial BatchWriteItem answers, counting the throttles', async () => {
    const shape = await newTable('purge-throttled', 'sk');
    const loads = smallLoads(3_000);
    await loadPartitions(fixture, shape, loads);
    const before = await census(shape, loads);
    proxy.partialBatchWrites(0.5);
    proxy.throttle(0.2);
    let throttled = 0;
    const result = await purgePartition({
      client: purgeClient(proxy.url),
      table: spec(shape),
      tenant: 'acme',
      onProgress: (p) => (throttled = p.throttled),
    });
    proxy.throttle(0);
    proxy.partialBatchWrites(0);
    expect(proxy.stats.throttled).toBeGreaterThan(0);
    expect(proxy.stats.partial).toBeGreaterThan(0);
    expect(result.deleted).toBe(3_000);
    // Every throttled answer and every partial one is a pushback the purge saw and counted.
    expect(result.throttled).toBeGreaterThanOrEqual(proxy.stats.partial);
    expect(throttled).toBe(result.throttled);
    expect(await census(shape, loads)).toEqual(withoutPartition(before, partition('acme')));
  });
});

describe('stopping and starting again', () => {
  it('stops on abort, and the next purge deletes exactly what is left', async () => {
    const shape = await newTable('purge-resume', 'sk');
    const loads = smallLoads(6_000);
    await loadPartitions(fixture, shape, loads);
    const before = await census(shape, loads);
    const controller = new AbortController();
    const stopped = purge(shape, 'acme', {
      workers: 2,
      signal: controller.signal,
      onProgress: (p) => {
        if (p.deleted >= 1_500) controller.abort();
      },
    });
    await expect(stopped).rejects.toBeInstanceOf(PurgeAbortedError);
    const left = await countPartition(fixture, shape, partition('acme'));
    expect(left).toBeGreaterThan(0);
    expect(left).toBeLessThanOrEqual(6_000 - 1_500);
    // Nobody else lost anything meanwhile.
    expect(await countTable(fixture, shape.table)).toBe(before.get('total')! - (6_000 - left));

    const resumed = await purge(shape, 'acme');
    expect(resumed.deleted).toBe(left);
    expect(await census(shape, loads)).toEqual(withoutPartition(before, partition('acme')));
  });
});

describe('a configuration that cannot be right', () => {
  it('refuses a partitionKey that is not the HASH key, and a missing table, deleting nothing', async () => {
    const shape = await newTable('purge-wrong', 'sk');
    const loads = smallLoads(100);
    await loadPartitions(fixture, shape, loads);
    const before = await census(shape, loads);
    const wrong = async (table: DataTableSpec): Promise<unknown> =>
      purgePartition({ client: purgeClient(), table, tenant: 'acme' }).catch((err: unknown) => err);

    const sortKey = await wrong({ ...spec(shape), partitionKey: 'sk' });
    expect(sortKey).toBeInstanceOf(PermanentPurgeError);
    expect((sortKey as Error).message).toMatch(/"sk" is not the table's partition \(HASH\) key "pk"/);
    expect(await wrong({ ...spec(shape), partitionKey: 'data' })).toBeInstanceOf(PermanentPurgeError);
    const missing = await wrong({ ...spec(shape), table: `${shape.table}-missing` });
    expect(missing).toBeInstanceOf(PermanentPurgeError);
    expect((missing as Error).message).toMatch(/ResourceNotFoundException/);
    expect(await census(shape, loads)).toEqual(before);
  });
});
