// DynamoDB clients for tests, against the run's moto server.
import { CreateTableCommand, DynamoDBClient, waitUntilTableExists } from '@aws-sdk/client-dynamodb';
import { DynamoDBStreamsClient } from '@aws-sdk/client-dynamodb-streams';
import { envValue } from './env.js';

function awsConfig(endpoint = envValue('DYNAMODB_ENDPOINT')) {
  return {
    endpoint,
    region: envValue('AWS_REGION'),
    credentials: {
      accessKeyId: envValue('AWS_ACCESS_KEY_ID'),
      secretAccessKey: envValue('AWS_SECRET_ACCESS_KEY'),
    },
  };
}

export function dynamoClient(endpoint?: string): DynamoDBClient {
  return new DynamoDBClient(awsConfig(endpoint));
}

export function streamsClient(endpoint?: string): DynamoDBStreamsClient {
  return new DynamoDBStreamsClient(awsConfig(endpoint));
}

/** Creates a tenants table keyed by `name`, with a NEW_IMAGE stream unless told otherwise. */
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
  await waitUntilTableExists({ client, maxWaitTime: 30 }, { TableName: table });
}
