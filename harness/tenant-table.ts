// A tenants table as landlord expects it: hash key `name`, on demand, with a stream of new and old
// images unless told otherwise, and optionally the global secondary index on `cluster` that syncs
// in index mode query (docs/multi-cluster.md). Shared by the tests, the benchmark and the sandbox.
import { CreateTableCommand, waitUntilTableExists, type DynamoDBClient } from '@aws-sdk/client-dynamodb';

/** The index config/samples/dynamodb-table.json declares and LANDLORD_SYNC_CLUSTER_INDEX defaults to. */
export const CLUSTER_INDEX = 'cluster-index';

export async function createTenantTable(
  client: DynamoDBClient,
  table: string,
  stream = true,
  clusterIndex?: string,
): Promise<void> {
  await client.send(
    new CreateTableCommand({
      TableName: table,
      AttributeDefinitions: [
        { AttributeName: 'name', AttributeType: 'S' },
        ...(clusterIndex === undefined ? [] : [{ AttributeName: 'cluster', AttributeType: 'S' as const }]),
      ],
      KeySchema: [{ AttributeName: 'name', KeyType: 'HASH' }],
      BillingMode: 'PAY_PER_REQUEST',
      ...(stream
        ? { StreamSpecification: { StreamEnabled: true, StreamViewType: 'NEW_AND_OLD_IMAGES' } }
        : {}),
      ...(clusterIndex === undefined
        ? {}
        : {
            GlobalSecondaryIndexes: [
              {
                IndexName: clusterIndex,
                KeySchema: [
                  { AttributeName: 'cluster', KeyType: 'HASH' },
                  { AttributeName: 'name', KeyType: 'RANGE' },
                ],
                // Every attribute: a poll reads the rows themselves, with no GetItem per row.
                Projection: { ProjectionType: 'ALL' },
              },
            ],
          }),
    }),
  );
  await waitUntilTableExists({ client, maxWaitTime: 60 }, { TableName: table });
}
