import { describe, expect, it } from 'vitest';
import {
  describeError,
  isCredentialsError,
  isExpiredIterator,
  isTableNotFound,
  isTrimmed,
} from './errors.js';
import { usableStream } from './dynamo-source.js';

const awsError = (name: string, message = 'boom'): Error => Object.assign(new Error(message), { name });

describe('DynamoDB error classes', () => {
  it.each([
    'UnrecognizedClientException',
    'InvalidSignatureException',
    'AccessDeniedException',
    'ExpiredTokenException',
  ])('counts %s as refused credentials', (name) => {
    expect(isCredentialsError(awsError(name))).toBe(true);
    expect(isTableNotFound(awsError(name))).toBe(false);
  });

  it('tells a missing table, an expired iterator and a trimmed position apart', () => {
    expect(isTableNotFound(awsError('ResourceNotFoundException'))).toBe(true);
    expect(isExpiredIterator(awsError('ExpiredIteratorException'))).toBe(true);
    expect(isTrimmed(awsError('TrimmedDataAccessException'))).toBe(true);
    expect(isCredentialsError(awsError('ProvisionedThroughputExceededException'))).toBe(false);
  });

  it('describes an error on one short line', () => {
    const text = describeError(awsError('TimeoutError', `line one\nline two ${'x'.repeat(1000)}`));
    expect(text).not.toContain('\n');
    expect(text.startsWith('TimeoutError: line one line two')).toBe(true);
    expect(text.length).toBeLessThanOrEqual(300);
  });
});

describe('usableStream', () => {
  const arn = 'arn:aws:dynamodb:us-east-1:1:table/t/stream/2026';

  it.each([
    ['NEW_IMAGE', arn],
    ['NEW_AND_OLD_IMAGES', arn],
    ['KEYS_ONLY', undefined],
    ['OLD_IMAGE', undefined],
  ] as const)('follows a %s stream: %s', (view, expected) => {
    const table = {
      LatestStreamArn: arn,
      StreamSpecification: { StreamEnabled: true, StreamViewType: view },
    };
    expect(usableStream(table)).toBe(expected);
  });

  it('polls a table whose stream is disabled or absent', () => {
    expect(
      usableStream({ LatestStreamArn: arn, StreamSpecification: { StreamEnabled: false } }),
    ).toBeUndefined();
    expect(usableStream({})).toBeUndefined();
  });
});
