// DynamoDB clients for tests, against the run's moto server.
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
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
