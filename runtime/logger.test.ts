import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger, LOG_LEVELS } from './logger.js';

/** A logger writing into memory, and a way to read the lines it wrote as parsed JSON. */
function capture(level = 'debug') {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      chunks.push(chunk.toString());
      callback();
    },
  });
  const clock = () => new Date('2025-01-02T03:04:05.678Z');
  const logger = createLogger('operator', level, { stream, clock });
  const read = async (): Promise<Record<string, unknown>[]> => {
    // Lines travel through winston's object streams, which hand them on asynchronously.
    await new Promise((resolve) => setImmediate(resolve));
    return chunks
      .join('')
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  };
  return { logger, read, raw: () => chunks.join('') };
}

async function only(read: () => Promise<Record<string, unknown>[]>) {
  const lines = await read();
  expect(lines).toHaveLength(1);
  return lines[0]!;
}

describe('createLogger', () => {
  it('writes one JSON object a line, leading with time, level, component and msg', async () => {
    const { logger, read, raw } = capture();
    logger.info('tenant applied', { replicas: 2 });
    const line = await only(read);
    expect(line).toEqual({
      time: '2025-01-02T03:04:05.678Z',
      level: 'info',
      component: 'operator',
      msg: 'tenant applied',
      replicas: 2,
    });
    expect(Object.keys(line).slice(0, 4)).toEqual(['time', 'level', 'component', 'msg']);
    expect(raw().endsWith('\n')).toBe(true);
  });

  it('carries the tenant on a child logger', async () => {
    const { logger, read } = capture();
    logger.child({ tenant: 'acme' }).warn('refused');
    expect(await only(read)).toMatchObject({ component: 'operator', tenant: 'acme', msg: 'refused' });
  });

  it('drops lines below the level', async () => {
    const { logger, read } = capture('info');
    logger.debug('noise');
    logger.info('signal');
    expect((await read()).map((line) => line.msg)).toEqual(['signal']);
  });

  it('refuses an unknown level with the list of known ones', () => {
    expect(() => createLogger('sync', 'loud')).toThrow(
      `unknown log level "loud": expected one of error, warn`,
    );
    expect(LOG_LEVELS).toContain('debug');
  });

  describe('redaction', () => {
    it('blanks credential-looking fields at any depth', async () => {
      const { logger, read } = capture();
      logger.info('calling AWS', {
        region: 'eu-west-1',
        credentials: { accessKeyId: 'AKIA0000', secretAccessKey: 'wJalr' },
        request: { headers: { Authorization: 'Bearer abc.def', accept: 'json' } },
        items: [{ sessionToken: 'IQoJ', name: 'a' }],
        dbPassword: 'hunter2',
      });
      const line = await only(read);
      expect(line).toMatchObject({
        region: 'eu-west-1',
        credentials: '[redacted]',
        request: { headers: { Authorization: '[redacted]', accept: 'json' } },
        items: [{ sessionToken: '[redacted]', name: 'a' }],
        dbPassword: '[redacted]',
      });
      expect(JSON.stringify(line)).not.toMatch(/AKIA0000|wJalr|abc\.def|IQoJ|hunter2/);
    });

    it('blanks a credential inside free text, including the message', async () => {
      const { logger, read } = capture();
      logger.warn('retrying with Authorization: Bearer s3cr3t', {
        url: 'https://x.test/?token=t0k3n&page=2',
      });
      const line = await only(read);
      expect(line.msg).toBe('retrying with Authorization: Bearer [redacted]');
      expect(line.url).toBe('https://x.test/?token=[redacted]&page=2');
    });

    it('leaves fields named like ordinary data alone', async () => {
      const { logger, read } = capture();
      logger.info('scan', { table: 'tenants', rows: 12, deleted: false });
      expect(await only(read)).toMatchObject({ table: 'tenants', rows: 12, deleted: false });
    });
  });

  describe('errors', () => {
    it('renders an Error in a field with its message and stack, not as {}', async () => {
      const { logger, read } = capture();
      const error = Object.assign(new Error('conflict on apply'), { code: 409 });
      logger.error('apply failed', { error });
      const line = await only(read);
      expect(line.msg).toBe('apply failed');
      expect(line.error).toMatchObject({ name: 'Error', message: 'conflict on apply', code: 409 });
      expect((line.error as { stack: string }).stack).toContain('conflict on apply\n    at ');
    });

    it('renders an Error passed as the message', async () => {
      const { logger, read } = capture();
      logger.child({ tenant: 'acme' }).error(new TypeError('bad spec'));
      const line = await only(read);
      expect(line).toMatchObject({ level: 'error', tenant: 'acme', msg: 'bad spec' });
      expect(line.error).toMatchObject({ message: 'bad spec' });
      expect((line.error as { stack: string }).stack).toMatch(/^TypeError: bad spec\n/);
      logger.error(new RangeError('no child'));
      const [, plain] = await read();
      expect(plain?.error).toMatchObject({ name: 'RangeError', message: 'no child' });
    });

    it('renders an Error passed as the meta argument', async () => {
      const { logger, read } = capture();
      logger.error('apply failed:', new Error('conflict', { cause: new Error('409') }));
      const line = await only(read);
      expect(line.msg).toBe('apply failed: conflict');
      expect(line).not.toHaveProperty('stack');
      expect(line.error).toMatchObject({ cause: { message: '409' } });
      expect((line.error as { stack: string }).stack).toMatch(/^Error: conflict\n/);
    });

    it('renders the cause chain and survives cycles', async () => {
      const { logger, read } = capture();
      const root = new Error('socket hang up');
      const error = new Error('list tenants failed', { cause: root });
      const loop: Record<string, unknown> = { name: 'loop' };
      loop.self = loop;
      logger.error('watch broke', { error, loop, big: 10n });
      const line = await only(read);
      expect(line.error).toMatchObject({
        message: 'list tenants failed',
        cause: { message: 'socket hang up' },
      });
      expect(line.loop).toEqual({ name: 'loop', self: '[circular]' });
      expect(line.big).toBe('10');
    });
  });
});
