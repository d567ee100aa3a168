// The Secret `db-<name>` in the tenant namespace: how the tenant's pods connect to its database
// (host, port, database, user, password, url). Its annotation names the database and role it holds
// the credentials of, so the Secret the caches hold is the proof the database was made, and a
// reconcile that finds it makes no call to the server. Pure.
import type { V1Secret } from '@kubernetes/client-node';
import { DATABASE_ANNOTATION, databaseProof, type TenantDatabase } from '../../api/databases.js';
import type { AdminConnection } from '../../runtime/sql/admin.js';

const SCHEME = { postgres: 'postgresql', mysql: 'mysql' } as const;

/** The connection URL a driver reads: user and password percent-encoded. */
export function databaseUrl(
  target: TenantDatabase,
  server: Pick<AdminConnection, 'host' | 'port'>,
  password: string,
): string {
  const user = encodeURIComponent(target.role);
  const host = server.host.includes(':') ? `[${server.host}]` : server.host;
  return `${SCHEME[target.engine]}://${user}:${encodeURIComponent(password)}@${host}:${server.port}/${encodeURIComponent(target.database)}`;
}

export function databaseSecret(
  target: TenantDatabase,
  namespace: string,
  server: Pick<AdminConnection, 'host' | 'port'>,
  password: string,
): V1Secret {
  const values: Record<string, string> = {
    host: server.host,
    port: String(server.port),
    database: target.database,
    user: target.role,
    password,
    url: databaseUrl(target, server, password),
  };
  const data = Object.fromEntries(
    Object.entries(values).map(([key, value]) => [key, Buffer.from(value, 'utf8').toString('base64')]),
  );
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: {
      name: target.secretName,
      namespace,
      annotations: { [DATABASE_ANNOTATION]: databaseProof(target) },
    },
    type: 'Opaque',
    data,
  };
}
