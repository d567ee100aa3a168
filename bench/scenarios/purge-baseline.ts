// The baseline a purge is measured against: what the published partition-delete code does, plus
// resending UnprocessedItems (without it the baseline would leave items behind and look faster).
// One page of keys, one BatchWriteItem of 25 at a time, each waited for before the next.
import {
  BatchWriteItemCommand,
  QueryCommand,
  type AttributeValue,
  type DynamoDBClient,
  type WriteRequest,
} from '@aws-sdk/client-dynamodb';
import type { DataTableShape } from '../../harness/data-table.js';
import { sleep } from '../pool.js';

type Key = Record<string, AttributeValue>;

/** Deletes the partition sequentially; returns the items deleted. */
export async function sequentialPurge(
  client: DynamoDBClient,
  shape: DataTableShape,
  value: string,
): Promise<number> {
  let deleted = 0;
  for (;;) {
    const keys = await firstPage(client, shape, value);
    if (keys.length === 0) return deleted;
    for (let i = 0; i < keys.length; i += 25) {
      const batch = keys.slice(i, i + 25).map((Key) => ({ DeleteRequest: { Key } }));
      await writeAll(client, shape.table, batch);
      deleted += batch.length;
    }
  }
}

/** The first 1,000 keys of the partition: what is deleted is gone, so the next page is again the first. */
async function firstPage(client: DynamoDBClient, shape: DataTableShape, value: string): Promise<Key[]> {
  const names: Record<string, string> = { '#pk': shape.partitionKey };
  if (shape.sortKey !== undefined) names['#sk'] = shape.sortKey;
  const page = await client.send(
    new QueryCommand({
      TableName: shape.table,
      KeyConditionExpression: '#pk = :pk',
      ProjectionExpression: shape.sortKey === undefined ? '#pk' : '#pk, #sk',
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: { ':pk': { S: value } },
      ConsistentRead: true,
      Limit: 1000,
    }),
  );
  return page.Items ?? [];
}

async function writeAll(client: DynamoDBClient, table: string, requests: WriteRequest[]): Promise<void> {
  let pending = requests;
  for (let attempt = 0; pending.length > 0; attempt++) {
    if (attempt > 0) await sleep(Math.min(1000, 50 * 2 ** attempt));
    const out = await client.send(new BatchWriteItemCommand({ RequestItems: { [table]: pending } }));
    pending = out.UnprocessedItems?.[table] ?? [];
  }
}
