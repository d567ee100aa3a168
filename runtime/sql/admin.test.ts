// Reading a server's admin connection from its Secret's data.
import { describe, expect, it } from 'vitest';
import { adminConnection } from './admin.js';
import { SQL_REASON } from './errors.js';

const data = (values: Record<string, string>): Record<string, string> =>
  Object.fromEntries(Object.entries(values).map(([k, v]) => [k, Buffer.from(v).toString('base64')]));

describe('adminConnection', () => {
  it('reads host, port, user, password and an optional database', () => {
    const secret = data({ host: 'db', port: '5432', user: 'admin', password: 'pw', database: 'ops' });
    expect(adminConnection('pg', secret)).toEqual({
      host: 'db',
      port: 5432,
      user: 'admin',
      password: 'pw',
      database: 'ops',
    });
  });

  it('names what is missing, never a value', () => {
    expect(() => adminConnection('pg', data({ host: 'db', password: 'pw' }))).toThrow(
      expect.objectContaining({
        failure: SQL_REASON.adminSecretInvalid,
        message: 'admin Secret pg has no port, user',
      }),
    );
  });

  it('refuses a port that is not one', () => {
    const secret = data({ host: 'db', port: '99999', user: 'a', password: 'pw' });
    expect(() => adminConnection('pg', secret)).toThrow(/not a port number/);
  });
});
