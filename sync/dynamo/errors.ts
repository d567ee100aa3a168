// DynamoDB errors, by what sync does about them. At start-up a missing table or refused
// credentials stop the component with one line; later, every error means "retry later", and none
// ever means "the row is gone": only a successful read that finds nothing says that.

/** Error names (the AWS error code) that mean the credentials were refused or are missing. */
const CREDENTIAL_ERRORS = new Set([
  'UnrecognizedClientException',
  'InvalidSignatureException',
  'AccessDeniedException',
  'ExpiredTokenException',
  'MissingAuthenticationTokenException',
  'InvalidClientTokenId',
  'SignatureDoesNotMatch',
  'CredentialsProviderError',
]);

function errorName(err: unknown): string {
  return err instanceof Error ? err.name : typeof err;
}

export const isTableNotFound = (err: unknown): boolean => errorName(err) === 'ResourceNotFoundException';

export const isCredentialsError = (err: unknown): boolean => CREDENTIAL_ERRORS.has(errorName(err));

/** No provider of the SDK's default chain had credentials at all (as opposed to refused ones). */
export const isCredentialsMissing = (err: unknown): boolean => errorName(err) === 'CredentialsProviderError';

/** The stream iterator is older than 15 minutes; a new one from the last sequence number continues. */
export const isExpiredIterator = (err: unknown): boolean => errorName(err) === 'ExpiredIteratorException';

/** The position is past the stream's 24-hour retention: records were lost, so a scan must follow. */
export const isTrimmed = (err: unknown): boolean => errorName(err) === 'TrimmedDataAccessException';

/** A conditional write found the item not as its condition said (rollback's guard, sync's row status). */
export const isConditionFailed = (err: unknown): boolean =>
  errorName(err) === 'ConditionalCheckFailedException';

/** The SDK's "no region" error has no code of its own; its message is the only mark. */
export const isRegionMissing = (err: unknown): boolean =>
  err instanceof Error && /region is missing/i.test(err.message);

/** A short, single-line description for logs and start-up errors. */
export function describeError(err: unknown): string {
  const text = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
  return text.replace(/\s+/g, ' ').slice(0, 300);
}
