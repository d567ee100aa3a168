// What a purge failure means for whoever runs it: stopped on request, stopped for good (retrying
// cannot help: a person must fix the configuration or the permissions), or stopped for now (the
// component tries again later, and the re-query starts where the data is).

/** The signal aborted: the purge stopped between two requests; what is deleted stays deleted. */
export class PurgeAbortedError extends Error {
  override name = 'PurgeAbortedError';
  constructor() {
    super('the purge was stopped before it finished');
  }
}

/** Table missing, wrong key, refused credentials, a request DynamoDB calls invalid: never retried. */
export class PermanentPurgeError extends Error {
  override name = 'PermanentPurgeError';
}

/** Throttling or the network outlasted the retries: the component retries the purge later. */
export class RetryablePurgeError extends Error {
  override name = 'RetryablePurgeError';
}

/** What DynamoDB's answer asks for: wait and send again, give up for now, or give up for good. */
export type ErrorClass = 'throttled' | 'transient' | 'permanent';

/** DynamoDB asked to slow down: count it as a throttle and back off. */
const THROTTLES = new Set([
  'ProvisionedThroughputExceededException',
  'ThrottlingException',
  'RequestLimitExceeded',
  'LimitExceededException',
]);

/** 4xx answers that still succeed when sent again a little later. */
const TRANSIENT_4XX = new Set(['TransactionConflictException', 'RequestTimeout', 'RequestTimeoutException']);

/** Whatever is sent again gets the same refusal: the configuration or the permissions are wrong. */
const PERMANENT = new Set([
  'ResourceNotFoundException',
  'ValidationException',
  'AccessDeniedException',
  'UnrecognizedClientException',
  'InvalidSignatureException',
  'ExpiredTokenException',
  'MissingAuthenticationTokenException',
  'CredentialsProviderError',
  'SerializationException',
]);

interface WithStatus {
  $metadata?: { httpStatusCode?: number };
}

/** The AWS error code of an SDK error (its name), or the error's type when it is no Error. */
function errorName(err: unknown): string {
  return err instanceof Error ? err.name : typeof err;
}

/**
 * Throttles by name; permanent refusals by name, and any other 4xx (the request itself is wrong);
 * everything else, 5xx, timeouts and dropped connections included, is transient.
 */
export function classifyError(err: unknown): ErrorClass {
  const name = errorName(err);
  if (THROTTLES.has(name)) return 'throttled';
  if (PERMANENT.has(name)) return 'permanent';
  if (TRANSIENT_4XX.has(name)) return 'transient';
  const status = (err as WithStatus | undefined)?.$metadata?.httpStatusCode;
  if (status !== undefined && status >= 400 && status < 500) return 'permanent';
  return 'transient';
}

/** A short, single-line description for error messages. */
export function describeError(err: unknown): string {
  const text = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
  return text.replace(/\s+/g, ' ').slice(0, 300);
}
