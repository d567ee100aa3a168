// The DynamoDB client a purge uses: the SDK retries once on its own, quickly, and the purge's own
// backoff (full jitter, counted as throttles) does the rest, so a throttled table slows the purge
// down instead of being hammered by eight workers each retrying blindly.
import { DynamoDBClient, type DynamoDBClientConfig } from '@aws-sdk/client-dynamodb';

const PURGE_CLIENT_DEFAULTS = {
  maxAttempts: 2,
  retryMode: 'standard',
  // Passed to the SDK's NodeHttpHandler; without throwOnRequestTimeout an exceeded requestTimeout
  // only logs a warning and the call hangs on.
  requestHandler: { requestTimeout: 10_000, throwOnRequestTimeout: true, connectionTimeout: 2_000 },
} as const;

/** A client for purges; `config` adds or overrides (endpoint, region, credentials, …). */
export function createPurgeClient(config: DynamoDBClientConfig = {}): DynamoDBClient {
  return new DynamoDBClient({ ...PURGE_CLIENT_DEFAULTS, ...config });
}
