import { describe, expect, it } from 'vitest';
import { redact, redactText, renderError, REDACTED } from './redact.js';

describe('redact', () => {
  it('blanks values whose key looks like a credential, whatever the value', () => {
    expect(
      redact({
        password: 'p',
        AWS_SECRET_ACCESS_KEY: 'k',
        accessKeyId: 'AKIA',
        sessionKey: { nested: true },
        Authorization: ['Bearer x'],
        clientCredentials: 1,
        user: 'ada',
      }),
    ).toEqual({
      password: REDACTED,
      AWS_SECRET_ACCESS_KEY: REDACTED,
      accessKeyId: REDACTED,
      sessionKey: REDACTED,
      Authorization: REDACTED,
      clientCredentials: REDACTED,
      user: 'ada',
    });
  });

  it('turns values JSON cannot hold into readable text', () => {
    const fn = function namedThing(): void {};
    expect(
      redact({
        big: 12n,
        nan: Number.NaN,
        inf: Number.POSITIVE_INFINITY,
        date: new Date('2025-01-01T00:00:00Z'),
        bad: new Date(Number.NaN),
        fn,
        bytes: Buffer.from('hello'),
        sym: Symbol('s'),
        gone: undefined,
      }),
    ).toEqual({
      big: '12',
      nan: 'NaN',
      inf: 'Infinity',
      date: '2025-01-01T00:00:00.000Z',
      bad: 'Invalid Date',
      fn: '[function namedThing]',
      bytes: '[5 bytes]',
      sym: 'Symbol(s)',
    });
  });

  it('renders maps and sets, redacting map keys like object keys', () => {
    expect(
      redact(
        new Map<string, unknown>([
          ['token', 't'],
          ['n', new Set([1, 2])],
        ]),
      ),
    ).toEqual({
      token: REDACTED,
      n: [1, 2],
    });
  });

  it('marks cycles but not an object repeated side by side', () => {
    const shared = { v: 1 };
    const cyclic: Record<string, unknown> = { shared, again: shared };
    cyclic.me = [cyclic];
    expect(redact(cyclic)).toEqual({ shared: { v: 1 }, again: { v: 1 }, me: ['[circular]'] });
  });

  it('summarizes structure past a fixed depth', () => {
    let deep: Record<string, unknown> = { leaf: true };
    for (let i = 0; i < 20; i++) deep = { next: deep };
    expect(JSON.stringify(redact(deep))).toContain('"[truncated]"');
  });

  it('does not modify its input', () => {
    const input = { token: 'x', nested: { password: 'y' } };
    redact(input);
    expect(input).toEqual({ token: 'x', nested: { password: 'y' } });
  });
});

describe('redactText', () => {
  it.each([
    ['Authorization: Bearer abc.def', 'Authorization: Bearer [redacted]'],
    ['header authorization=Basic Zm9v', 'header authorization=Basic [redacted]'],
    ['GET /?X-Amz-Security-Token=IQo&x=1', 'GET /?X-Amz-Security-Token=[redacted]&x=1'],
    ['{"password":"hunter2","user":"a"}', '{"password":"[redacted]","user":"a"}'],
    ['aws_secret_access_key = wJalr', 'aws_secret_access_key = [redacted]'],
    ['sent bearer eyJhbGciOi', 'sent bearer [redacted]'],
  ])('blanks %j', (input, expected) => {
    expect(redactText(input)).toBe(expected);
  });

  it.each([
    'The security token included in the request is invalid.',
    'tenant acme refused: secret volumes are not allowed',
    'Requested resource not found',
  ])('leaves prose alone: %j', (text) => {
    expect(redactText(text)).toBe(text);
  });
});

describe('renderError', () => {
  it('keeps name, message, stack, own fields and cause', () => {
    const error = Object.assign(new Error('outer', { cause: new Error('inner') }), { statusCode: 503 });
    const rendered = renderError(error);
    expect(rendered).toMatchObject({
      name: 'Error',
      message: 'outer',
      statusCode: 503,
      cause: { message: 'inner' },
    });
    expect(rendered.stack).toMatch(/^Error: outer\n/);
  });

  it('redacts credential fields an SDK attached to the error', () => {
    const error = Object.assign(new Error('denied'), {
      $metadata: { requestId: 'r1' },
      sessionToken: 'IQoJ',
    });
    expect(renderError(error)).toMatchObject({ $metadata: { requestId: 'r1' }, sessionToken: REDACTED });
  });
});
