// The benchmark's side of DynamoDB (moto): the table, its rows, the edits, and what a full
// resync scan costs in read capacity.
import {
  BatchWriteItemCommand,
  DeleteTableCommand,
  DynamoDBClient,
  ScanCommand,
  UpdateItemCommand,
  waitUntilTableNotExists,
  type AttributeValue,
  type ScanCommandInput,
  type WriteRequest,
} from '@aws-sdk/client-dynamodb';
import type { ClusterEnv } from '../harness/cluster.js';
import { createTenantTable } from '../harness/tenant-table.js';
import { ROW_PROJECTION } from '../sync/dynamo/scan.js';
import { runPool } from './pool.js';
import { row, specText, type RowShape } from './rows.js';

type Item = Record<string, AttributeValue>;

export function dynamoClient(env: ClusterEnv): DynamoDBClient {
  return new DynamoDBClient({
    endpoint: env.DYNAMODB_ENDPOINT,
    region: env.AWS_REGION,
    credentials: { accessKeyId: env.AWS_ACCESS_KEY_ID, secretAccessKey: env.AWS_SECRET_ACCESS_KEY },
  });
}

/**
 * Recreates the table without a stream, holding the same rows, so that a sync started afterwards
 * polls. UpdateTable cannot be used: moto keeps the old stream shard after StreamEnabled: false and
 * then fails every write (KeyError 'StreamViewType' in StreamShard.add).
 */
export async function recreateWithoutStream(client: DynamoDBClient, table: string): Promise<void> {
  const items: Item[] = [];
  let startKey: Item | undefined;
  do {
    const page = await client.send(
      new ScanCommand({ TableName: table, ConsistentRead: true, ExclusiveStartKey: startKey }),
    );
    items.push(...(page.Items ?? []));
    startKey = page.LastEvaluatedKey;
  } while (startKey !== undefined);
  await client.send(new DeleteTableCommand({ TableName: table }));
  await waitUntilTableNotExists({ client, maxWaitTime: 60 }, { TableName: table });
  await createTenantTable(client, table, false);
  await writeItems(client, table, items);
}

/** The benchmark's rows for these tenants. */
export function putRows(
  client: DynamoDBClient,
  table: string,
  names: readonly string[],
  shape: RowShape = { replicas: 1, services: 1 },
): Promise<void> {
  return writeItems(
    client,
    table,
    names.map((name) => row(name, shape)),
  );
}

/** BatchWriteItem, 25 rows a call, 4 calls at once, resending what comes back unprocessed. */
async function writeItems(client: DynamoDBClient, table: string, items: readonly Item[]): Promise<void> {
  const batches: WriteRequest[][] = [];
  for (let i = 0; i < items.length; i += 25) {
    batches.push(items.slice(i, i + 25).map((item) => ({ PutRequest: { Item: item } })));
  }
  await runPool(batches.length, 4, async (index) => {
    let pending = batches[index]!;
    while (pending.length > 0) {
      const out = await client.send(new BatchWriteItemCommand({ RequestItems: { [table]: pending } }));
      pending = out.UnprocessedItems?.[table] ?? [];
    }
  });
}

/**
 * Changes the image of a tenant's Deployments, as a user editing the row would (UpdateItem); the
 * row keeps its shape (`services`: one Deployment, or the array form of several).
 */
export async function editImage(
  client: DynamoDBClient,
  table: string,
  edit: { name: string; image: string; replicas?: number; services?: number },
): Promise<void> {
  const spec = specText(
    edit.name,
    { replicas: edit.replicas ?? 1, services: edit.services ?? 1 },
    edit.image,
  );
  await client.send(
    new UpdateItemCommand({
      TableName: table,
      Key: { name: { S: edit.name } },
      UpdateExpression: 'SET #spec = :spec',
      ExpressionAttributeNames: { '#spec': 'spec' },
      ExpressionAttributeValues: { ':spec': { S: spec } },
    }),
  );
}

/** sync's scan (sync/dynamo/scan.ts): strongly consistent, only the row's contract attributes. */
const SYNC_SCAN: Omit<ScanCommandInput, 'TableName'> = {
  ConsistentRead: true,
  ...ROW_PROJECTION,
};

export interface ScanCost {
  items: number;
  pages: number;
  /** Bytes of the rows as DynamoDB sizes them (names plus values), which is what a Scan is billed on. */
  bytes: number;
  /** Σ over pages of ceil(page bytes / 4 KB): strongly consistent reads, 1 RCU per 4 KB. */
  computedRcu: number;
  /** What moto reported through ReturnConsumedCapacity: TOTAL, when it reports anything. */
  reportedRcu: number | undefined;
}

/**
 * DynamoDB's size of an attribute value: S, N and BOOL as a seed row holds them; M and L (the
 * `landlord` attribute sync writes) 3 bytes, plus 1 a member, plus the members' names and values.
 */
function valueBytes(value: AttributeValue): number {
  if (value.S !== undefined) return Buffer.byteLength(value.S, 'utf8');
  if (value.N !== undefined) return Math.ceil(value.N.length / 2) + 1;
  if (value.BOOL !== undefined || value.NULL !== undefined) return 1;
  if (value.M !== undefined) return 3 + itemBytes(value.M) + Object.keys(value.M).length;
  if (value.L !== undefined) return value.L.reduce((sum, member) => sum + 1 + valueBytes(member), 3);
  return Buffer.byteLength(JSON.stringify(value), 'utf8');
}

export function itemBytes(item: Item): number {
  return Object.entries(item).reduce(
    (sum, [name, value]) => sum + Buffer.byteLength(name, 'utf8') + valueBytes(value),
    0,
  );
}

/** One full scan exactly as sync makes it, with ReturnConsumedCapacity: TOTAL, and the billing arithmetic. */
export async function scanCost(client: DynamoDBClient, table: string): Promise<ScanCost> {
  const cost: ScanCost = { items: 0, pages: 0, bytes: 0, computedRcu: 0, reportedRcu: undefined };
  let startKey: Item | undefined;
  do {
    const page = await client.send(
      new ScanCommand({
        TableName: table,
        ...SYNC_SCAN,
        ReturnConsumedCapacity: 'TOTAL',
        ExclusiveStartKey: startKey,
      }),
    );
    const bytes = (page.Items ?? []).reduce((sum, item) => sum + itemBytes(item), 0);
    cost.items += page.Items?.length ?? 0;
    cost.pages += 1;
    cost.bytes += bytes;
    cost.computedRcu += Math.ceil(bytes / 4096);
    const reported = page.ConsumedCapacity?.CapacityUnits;
    if (reported !== undefined) cost.reportedRcu = (cost.reportedRcu ?? 0) + reported;
    startKey = page.LastEvaluatedKey;
  } while (startKey !== undefined);
  return cost;
}
