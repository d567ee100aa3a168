// A tenants table as landlord expects it: hash key `name`, on demand, with a stream of new and old
// images unless told otherwise. Shared by the tests, the benchmark and the sandbox.
import { CreateTableCommand, waitUntilTableExists, type DynamoDBClient } from '@aws-sdk/client-dynamodb';

export async function createTenantTable(client: DynamoDBClient, table: string, stream = true): Promise<void> {
  await client.send(
    new CreateTableCommand({
      TableName: table,
      AttributeDefinitions: [{ AttributeName: 'name', AttributeType: 'S' }],
      KeySchema: [{ AttributeName: 'name', KeyType: 'HASH' }],
      BillingMode: 'PAY_PER_REQUEST',
      ...(stream
        ? { StreamSpecification: { StreamEnabled: true, StreamViewType: 'NEW_AND_OLD_IMAGES' } }
        : {}),
    }),
  );
  await waitUntilTableExists({ client, maxWaitTime: 60 }, { TableName: table });
}
