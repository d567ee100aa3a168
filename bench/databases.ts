// The full-feature side's database per tenant (issue 58): a real server started for the run
// (harness/database-servers.ts, as the e2e does): PostgreSQL, or MariaDB for the `mysql` engine; an
// admin as a platform would give landlord (PostgreSQL: CREATEDB CREATEROLE, not a superuser;
// MariaDB: all on `t\_%` and CREATE USER), the class's `databases` entry naming its admin Secret,
// and the baseline's own making of each tenant's database, role and Secret with the operator's
// statements. The server is a child of the bench, so its CPU (and PostgreSQL's backends', one per
// connection) shows in each side's CPU seconds as `postgres` or `mariadbd`.
import { randomBytes } from 'node:crypto';
import type { KubernetesObject, V1Secret } from '@kubernetes/client-node';
import { tenantDatabase, type TenantDatabase } from '../api/databases.js';
import type { Tenant } from '../api/tenant.js';
import type { ClassDatabase, DatabaseEngine } from '../api/tenantclass.js';
import { DatabaseServers } from '../harness/database-servers.js';
import type { KubeApi } from '../runtime/kube/api.js';
import type { AdminConnection } from '../runtime/sql/admin.js';
import { withSession, type SqlSession } from '../runtime/sql/session.js';
import { ensureDatabase } from '../operator/databases/create.js';
import { databaseSecret } from '../operator/databases/secret.js';
import { withOwnership } from '../operator/desired.js';

/** The admin Secret in landlord's namespace that the class's entry names. */
const ADMIN_SECRET = 'bench-database-admin';
const ADMIN_ROLE = 'landlord_bench_admin';

/** The class's `databases` in a full-feature run: one database per tenant, `t_<name>`, on `engine`. */
export function benchDatabases(engine: DatabaseEngine): ClassDatabase[] {
  return [{ name: 'main', engine, server: { secretRef: { name: ADMIN_SECRET } }, nameTemplate: 't_{name}' }];
}

/** A running server, the admin connection landlord and the baseline use, and its engine. */
export interface BenchDatabases {
  servers: DatabaseServers;
  admin: AdminConnection;
  engine: DatabaseEngine;
}

/** The statements that make the bench's admin, least privilege, as the superuser. */
function adminStatements(engine: DatabaseEngine, password: string): string[] {
  if (engine === 'postgres')
    return [`CREATE ROLE ${ADMIN_ROLE} LOGIN CREATEDB CREATEROLE PASSWORD '${password}'`];
  const account = `'${ADMIN_ROLE}'@'%'`;
  return [
    `CREATE USER ${account} IDENTIFIED BY '${password}'`,
    `GRANT ALL PRIVILEGES ON \`t\\_%\`.* TO ${account} WITH GRANT OPTION`,
    `GRANT CREATE USER ON *.* TO ${account}`,
  ];
}

/** Starts the engine's server (not timed) and makes the admin; throws when it is not installed. */
export async function startDatabases(
  logDir: string,
  log: (line: string) => void,
  engine: DatabaseEngine = 'postgres',
): Promise<BenchDatabases> {
  const servers = new DatabaseServers(logDir, log);
  try {
    const server = engine === 'postgres' ? 'postgres' : 'mariadb';
    await servers.start([server]);
    const superuser = superuserOf(servers, engine);
    const password = randomBytes(18).toString('hex');
    await withSession(engine, superuser, async (session) => {
      for (const sql of adminStatements(engine, password)) await session.run(sql, [password]);
    });
    return { servers, admin: { ...superuser, user: ADMIN_ROLE, password }, engine };
  } catch (err) {
    await servers.stop();
    throw err;
  }
}

function superuserOf(servers: DatabaseServers, engine: DatabaseEngine): AdminConnection {
  const env = servers.endpoints;
  const [endpoint, user, password, install] =
    engine === 'postgres'
      ? [env.POSTGRES_ENDPOINT, env.POSTGRES_SUPERUSER, env.POSTGRES_PASSWORD, 'postgresql']
      : [env.MARIADB_ENDPOINT, env.MARIADB_SUPERUSER, env.MARIADB_PASSWORD, 'mariadb-server'];
  if (endpoint === '') throw new Error(`${install} is not installed (apt-get install -y ${install})`);
  const [host, port] = endpoint.split(':');
  return { host: host!, port: Number(port), user, password };
}

const b64 = (text: string): string => Buffer.from(text, 'utf8').toString('base64');

/** The admin Secret the operator reads in its own namespace (made before landlord starts). */
export function adminSecret(admin: AdminConnection, namespace: string): V1Secret {
  const values = { host: admin.host, port: String(admin.port), user: admin.user, password: admin.password };
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name: ADMIN_SECRET, namespace },
    type: 'Opaque',
    data: Object.fromEntries(Object.entries(values).map(([k, v]) => [k, b64(v)])),
  };
}

export async function createAdminSecret(
  api: KubeApi,
  admin: AdminConnection,
  namespace: string,
): Promise<void> {
  await api.request({
    method: 'POST',
    path: `/api/v1/namespaces/${namespace}/secrets`,
    body: adminSecret(admin, namespace),
  });
}

/** The tenant's databases under the bench class, as the operator names them. */
export function benchTenantDatabases(tenant: string, engine: DatabaseEngine = 'postgres'): TenantDatabase[] {
  return benchDatabases(engine).map((entry) => {
    const named = tenantDatabase(entry, tenant);
    if (!named.ok) throw new Error(`bench tenant ${tenant}: ${named.message}`);
    return named.database;
  });
}

/**
 * The baseline's part: each of the tenant's databases made with the operator's statements, then its
 * Secret, owned by the Tenant. Resolves to the milliseconds spent on the server (not the Secret).
 */
export async function makeTenantDatabases(
  { admin, engine }: BenchDatabases,
  tenant: Tenant,
  namespace: string,
  create: (secret: KubernetesObject) => Promise<unknown>,
): Promise<number> {
  let serverMs = 0;
  for (const target of benchTenantDatabases(tenant.metadata.name!, engine)) {
    const password = randomBytes(32).toString('base64url');
    const started = performance.now();
    await ensureDatabase(admin, target, password);
    serverMs += performance.now() - started;
    const secret = withOwnership(databaseSecret(target, namespace, admin, password), tenant, 'Secret');
    await create(secret.manifest);
  }
  return serverMs;
}

/** How many of these tenants' databases the server holds (after a run, not timed). */
export async function countDatabases(
  { admin, engine }: BenchDatabases,
  tenants: readonly string[],
): Promise<number> {
  const names = tenants.flatMap((t) => benchTenantDatabases(t, engine).map((d) => d.database));
  const count = (session: SqlSession): Promise<Record<string, unknown>[]> =>
    engine === 'postgres'
      ? session.rows('SELECT count(*)::int AS n FROM pg_database WHERE datname = ANY($1)', [names])
      : session.rows('SELECT count(*) AS n FROM information_schema.schemata WHERE schema_name IN (?)', [
          names,
        ]);
  const rows = await withSession(engine, admin, count);
  return Number(rows[0]?.n ?? 0);
}
