// A database server's admin connection, from a Secret in the component's own namespace (host,
// port, user, password; optional database, PostgreSQL's maintenance database). Read only when a
// step needs the server, never cached, never logged: a tenant whose databases exist costs no read.
import type { KubeApi } from '../kube/api.js';
import { isNotFound } from '../kube/api.js';
import { apiPath } from '../kube/paths.js';
import { SQL_REASON, SqlError } from './errors.js';

export interface AdminConnection {
  host: string;
  port: number;
  user: string;
  password: string;
  /** PostgreSQL: the database the admin session opens (default postgres). */
  database?: string;
}

/** The connection a Secret's `data` (base64 values) gives, or why it gives none. Pure. */
export function adminConnection(name: string, data: Record<string, string> | undefined): AdminConnection {
  const value = (key: string): string | undefined => {
    const encoded = data?.[key];
    return encoded === undefined ? undefined : Buffer.from(encoded, 'base64').toString('utf8');
  };
  const missing = ['host', 'port', 'user', 'password'].filter((key) => (value(key) ?? '') === '');
  if (missing.length > 0)
    throw new SqlError(SQL_REASON.adminSecretInvalid, `admin Secret ${name} has no ${missing.join(', ')}`);
  const port = Number(value('port'));
  if (!Number.isInteger(port) || port < 1 || port > 65_535)
    throw new SqlError(SQL_REASON.adminSecretInvalid, `admin Secret ${name}: port is not a port number`);
  const database = value('database');
  return {
    host: value('host')!,
    port,
    user: value('user')!,
    password: value('password')!,
    ...(database === undefined || database === '' ? {} : { database }),
  };
}

/** GETs the admin Secret `name` in `namespace`; a missing one is AdminSecretMissing. */
export async function readAdminConnection(
  api: KubeApi,
  namespace: string,
  name: string,
): Promise<AdminConnection> {
  let secret: { data?: Record<string, string> };
  try {
    secret = await api.request({
      method: 'GET',
      path: apiPath({ apiVersion: 'v1', kind: 'Secret', namespace, name }),
    });
  } catch (err) {
    if (isNotFound(err))
      throw new SqlError(SQL_REASON.adminSecretMissing, `admin Secret ${namespace}/${name} not found`);
    throw err;
  }
  return adminConnection(`${namespace}/${name}`, secret.data);
}
