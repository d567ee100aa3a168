// Index mode's "scan": one cluster's rows, read from a global secondary index on `cluster` instead
// of the whole table. Each of N clusters then reads about 1/N of the table per poll, and no sync
// beyond the two stream readers a table's stream allows reads the stream at all (see
// docs/multi-cluster.md). A GSI is eventually consistent: a poll may miss a write made a moment
// ago; the next poll sees it, and a gone row is confirmed against the table itself before any delete.
import { QueryCommand, type DynamoDBClient, type QueryCommandInput } from '@aws-sdk/client-dynamodb';
import { counted, type RetryObserver } from './clients.js';
import { ROW_PROJECTION } from './scan.js';
import type { Item } from './table-source.js';

export interface ClusterQuery {
  table: string;
  /** The global secondary index whose partition key is `cluster`, projecting every row attribute. */
  index: string;
  cluster: string;
}

/** The Query of one page; exported so that what sync sends can be measured as it is. */
export function clusterQueryInput(query: ClusterQuery, startKey?: Item): QueryCommandInput {
  return {
    TableName: query.table,
    IndexName: query.index,
    KeyConditionExpression: '#cluster = :cluster',
    ProjectionExpression: ROW_PROJECTION.ProjectionExpression,
    ExpressionAttributeNames: ROW_PROJECTION.ExpressionAttributeNames,
    ExpressionAttributeValues: { ':cluster': { S: query.cluster } },
    ...(startKey === undefined ? {} : { ExclusiveStartKey: startKey }),
  };
}

/** Every row placed on the cluster, a page at a time; throws when a page cannot be read. */
export async function* queryCluster(
  client: DynamoDBClient,
  query: ClusterQuery,
  observeRetries: RetryObserver,
  signal: AbortSignal,
): AsyncGenerator<Item[]> {
  let startKey: Item | undefined;
  do {
    const command = new QueryCommand(clusterQueryInput(query, startKey));
    const page = await counted('Query', observeRetries, () => client.send(command, { abortSignal: signal }));
    startKey = page.LastEvaluatedKey;
    yield page.Items ?? [];
  } while (startKey !== undefined);
}
