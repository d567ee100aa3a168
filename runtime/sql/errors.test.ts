// Classifying a driver's error: the reason, whether to retry, and no password in the message.
import { describe, expect, it } from 'vitest';
import { classify, SQL_REASON, SqlError } from './errors.js';

const withCode = (message: string, code: string): Error => Object.assign(new Error(message), { code });

describe('classify', () => {
  it.each([
    [withCode('connect ECONNREFUSED 127.0.0.1:1', 'ECONNREFUSED'), SQL_REASON.serverUnreachable, true],
    [withCode('password authentication failed for user "x"', '28P01'), SQL_REASON.authFailed, false],
    [
      withCode("Access denied for user 'x'@'localhost'", 'ER_ACCESS_DENIED_ERROR'),
      SQL_REASON.authFailed,
      false,
    ],
    [withCode('permission denied to create role', '42501'), SQL_REASON.permissionDenied, false],
    [withCode('sorry, too many clients already', '53300'), SQL_REASON.quotaExceeded, true],
    [withCode('Too many connections', 'ER_CON_COUNT_ERROR'), SQL_REASON.quotaExceeded, true],
    [new Error('Connection terminated due to connection timeout'), SQL_REASON.serverUnreachable, true],
    [withCode('syntax error', '42601'), SQL_REASON.serverError, true],
  ])('%s', (err, failure, retry) => {
    const classified = classify(err);
    expect(classified.failure).toBe(failure);
    expect(classified.retry).toBe(retry);
  });

  it('blanks out the passwords of the step', () => {
    const err = withCode("near 'IDENTIFIED BY 's3cr3t'' at line 1", 'ER_PARSE_ERROR');
    expect(classify(err, ['s3cr3t']).message).not.toContain('s3cr3t');
  });

  it('keeps a classified error', () => {
    const err = new SqlError(SQL_REASON.adminSecretMissing, 'no Secret');
    expect(classify(err)).toBe(err);
  });
});
