// The AWS clients sync uses, configured once: short request timeouts so that a frozen DynamoDB
// fails a call instead of hanging sync, and the SDK's standard retry strategy (exponential backoff
// with jitter; throttling, 5xx, timeouts and refused connections are retried) with a few attempts.
// sync's own loops back off on top of that when a call still fails.
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBStreamsClient } from '@aws-sdk/client-dynamodb-streams';

const CLIENT_OPTIONS = {
  maxAttempts: 5,
  retryMode: 'standard',
  // Passed to the SDK's NodeHttpHandler; a setting object, so no direct dependency on it. Without
  // throwOnRequestTimeout, an exceeded requestTimeout only logs a warning and the call hangs on.
  requestHandler: { requestTimeout: 5_000, throwOnRequestTimeout: true, connectionTimeout: 2_000 },
} as const;

export interface DynamoClients {
  db: DynamoDBClient;
  streams: DynamoDBStreamsClient;
}

export function createClients(endpoint: string | undefined): DynamoClients {
  const options = { ...CLIENT_OPTIONS, ...(endpoint === undefined ? {} : { endpoint }) };
  return { db: new DynamoDBClient(options), streams: new DynamoDBStreamsClient(options) };
}

/** Called with the number of retries the SDK made for one call, by operation name. */
export type RetryObserver = (operation: string, retries: number) => void;

interface WithMetadata {
  $metadata?: { attempts?: number };
}

function retriesOf(value: unknown): number {
  const attempts = (value as WithMetadata | undefined)?.$metadata?.attempts ?? 1;
  return Math.max(0, attempts - 1);
}

/** Runs one SDK call and reports its retries, whether it succeeded or failed. */
export async function counted<T>(
  operation: string,
  observe: RetryObserver,
  send: () => Promise<T>,
): Promise<T> {
  try {
    const result = await send();
    const retries = retriesOf(result);
    if (retries > 0) observe(operation, retries);
    return result;
  } catch (err) {
    const retries = retriesOf(err);
    if (retries > 0) observe(operation, retries);
    throw err;
  }
}

/** The endpoint in words for messages: the configured one, or the region's AWS endpoint. */
export function endpointText(endpoint: string | undefined, region: string): string {
  return endpoint ?? `https://dynamodb.${region}.amazonaws.com`;
}
