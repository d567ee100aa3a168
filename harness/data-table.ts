// Data tables for purge tests and the purge benchmark: one partition per tenant, created on demand
// (with or without a sort key), filled fast with parallel BatchWriteItem, and counted exactly
// (Query and Scan with Select COUNT, every page). Shared by e2e/ and bench/.
import {
  BatchWriteItemCommand,
  CreateTableCommand,
  DeleteTableCommand,
  QueryCommand,
  ScanCommand,
  waitUntilTableExists,
  waitUntilTableNotExists,
  type AttributeValue,
  type DynamoDBClient,
  type WriteRequest,
} from '@aws-sdk/client-dynamodb';

export interface DataTableShape {
  table: string;
  partitionKey: string;
  /** The sort key attribute; absent: a table with a partition key only. */
  sortKey?: string;
}

export interface PartitionLoad {
  /** The partition key value, e.g. `TENANT#acme`. */
  value: string;
  /** Items in the partition; a table without sort key holds one item per partition whatever this says. */
  items: number;
  /** How many of them carry a ~380 KB attribute, to be near DynamoDB's 400 KB item limit. */
  bigItems?: number;
}

type Item = Record<string, AttributeValue>;

/** Just under DynamoDB's 400 KB item limit (which counts attribute names and values). */
export const BIG_ATTRIBUTE_BYTES = 380 * 1024;
const BIG_VALUE = 'x'.repeat(BIG_ATTRIBUTE_BYTES);
// Small on purpose: moto sorts the whole table for every Query and Scan page, so the fewer pages a
// count needs (1 MB each), the sooner it is done.
const SMALL_VALUE = 'y'.repeat(16);

export async function createDataTable(client: DynamoDBClient, shape: DataTableShape): Promise<void> {
  const { table, partitionKey, sortKey } = shape;
  await client.send(
    new CreateTableCommand({
      TableName: table,
      AttributeDefinitions: [
        { AttributeName: partitionKey, AttributeType: 'S' },
        ...(sortKey === undefined ? [] : [{ AttributeName: sortKey, AttributeType: 'S' as const }]),
      ],
      KeySchema: [
        { AttributeName: partitionKey, KeyType: 'HASH' },
        ...(sortKey === undefined ? [] : [{ AttributeName: sortKey, KeyType: 'RANGE' as const }]),
      ],
      BillingMode: 'PAY_PER_REQUEST',
    }),
  );
  await waitUntilTableExists({ client, maxWaitTime: 60 }, { TableName: table });
}

export async function deleteDataTable(client: DynamoDBClient, table: string): Promise<void> {
  await client.send(new DeleteTableCommand({ TableName: table }));
  await waitUntilTableNotExists({ client, maxWaitTime: 60 }, { TableName: table });
}

/** The item number `index` of a partition; big ones carry the ~380 KB attribute. */
export function dataItem(shape: DataTableShape, value: string, index: number, big: boolean): Item {
  const item: Item = { [shape.partitionKey]: { S: value }, data: { S: big ? BIG_VALUE : SMALL_VALUE } };
  if (shape.sortKey !== undefined) item[shape.sortKey] = { S: `item#${String(index).padStart(7, '0')}` };
  return item;
}

function* itemsOf(shape: DataTableShape, load: PartitionLoad): Generator<Item> {
  const count = shape.sortKey === undefined ? Math.min(1, load.items) : load.items;
  const big = load.bigItems ?? 0;
  for (let i = 0; i < count; i++) yield dataItem(shape, load.value, i, i < big);
}

/** Big items go in smaller batches: BatchWriteItem takes at most 16 MB per request. */
function* writeBatches(shape: DataTableShape, loads: readonly PartitionLoad[]): Generator<WriteRequest[]> {
  let batch: WriteRequest[] = [];
  for (const load of loads) {
    for (const item of itemsOf(shape, load)) {
      batch.push({ PutRequest: { Item: item } });
      const full = batch.length === 25 || ((item.data?.S?.length ?? 0) > 1000 && batch.length >= 10);
      if (full) {
        yield batch;
        batch = [];
      }
    }
  }
  if (batch.length > 0) yield batch;
}

/**
 * Writes every partition's items with `concurrency` BatchWriteItem calls in flight, resending what
 * comes back unprocessed. Returns the number of items written.
 */
export async function loadPartitions(
  client: DynamoDBClient,
  shape: DataTableShape,
  loads: readonly PartitionLoad[],
  concurrency = 8,
): Promise<number> {
  const source = writeBatches(shape, loads);
  let written = 0;
  const worker = async (): Promise<void> => {
    for (let next = source.next(); next.done !== true; next = source.next()) {
      await writeAll(client, shape.table, next.value);
      written += next.value.length;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return written;
}

async function writeAll(client: DynamoDBClient, table: string, requests: WriteRequest[]): Promise<void> {
  let pending = requests;
  while (pending.length > 0) {
    const out = await client.send(new BatchWriteItemCommand({ RequestItems: { [table]: pending } }));
    pending = out.UnprocessedItems?.[table] ?? [];
  }
}

/** Items in one partition, counted with paginated Query (Select COUNT, consistent). */
export async function countPartition(
  client: DynamoDBClient,
  shape: DataTableShape,
  value: string,
): Promise<number> {
  let count = 0;
  let startKey: Item | undefined;
  do {
    const page = await client.send(
      new QueryCommand({
        TableName: shape.table,
        KeyConditionExpression: '#pk = :pk',
        ExpressionAttributeNames: { '#pk': shape.partitionKey },
        ExpressionAttributeValues: { ':pk': { S: value } },
        Select: 'COUNT',
        ConsistentRead: true,
        ExclusiveStartKey: startKey,
      }),
    );
    count += page.Count ?? 0;
    startKey = page.LastEvaluatedKey;
  } while (startKey !== undefined);
  return count;
}

/**
 * Items in the whole table, counted with paginated Scan (Select COUNT, consistent). Slow on moto
 * past ~50,000 items: it sorts the whole table for every page; summing countPartition is faster.
 */
export async function countTable(client: DynamoDBClient, table: string): Promise<number> {
  let count = 0;
  let startKey: Item | undefined;
  do {
    const page = await client.send(
      new ScanCommand({
        TableName: table,
        Select: 'COUNT',
        ConsistentRead: true,
        ExclusiveStartKey: startKey,
      }),
    );
    count += page.Count ?? 0;
    startKey = page.LastEvaluatedKey;
  } while (startKey !== undefined);
  return count;
}
