// The full-feature side's database per tenant (issue 58): a real PostgreSQL started for the run
// (harness/database-servers.ts, as the e2e does), an admin role as a platform would give landlord
// (CREATEDB CREATEROLE, not a superuser), the class's `databases` entry naming its admin Secret, and
// the baseline's own making of each tenant's database, role and Secret with the operator's
// statements. The server is a child of the bench, so its CPU (and its backends', one per
// connection) shows in each side's CPU seconds as `postgres`.
import { randomBytes } from 'node:crypto';
import type { KubernetesObject, V1Secret } from '@kubernetes/client-node';
import { tenantDatabase, type TenantDatabase } from '../api/databases.js';
import type { Tenant } from '../api/tenant.js';
import type { ClassDatabase } from '../api/tenantclass.js';
import { DatabaseServers } from '../harness/database-servers.js';
import type { KubeApi } from '../runtime/kube/api.js';
import type { AdminConnection } from '../runtime/sql/admin.js';
import { withSession } from '../runtime/sql/session.js';
import { ensureDatabase } from '../operator/databases/create.js';
import { databaseSecret } from '../operator/databases/secret.js';
import { withOwnership } from '../operator/desired.js';

/** The admin Secret in landlord's namespace that the class's entry names. */
const ADMIN_SECRET = 'bench-postgres-admin';
const ADMIN_ROLE = 'landlord_bench_admin';

/** The class's `databases` in a full-feature run: one PostgreSQL database per tenant, `t_<name>`. */
export const BENCH_DATABASES: readonly ClassDatabase[] = [
  {
    name: 'main',
    engine: 'postgres',
    server: { secretRef: { name: ADMIN_SECRET } },
    nameTemplate: 't_{name}',
  },
];

/** A running PostgreSQL and the admin connection landlord and the baseline use. */
export interface BenchDatabases {
  servers: DatabaseServers;
  admin: AdminConnection;
}

/** Starts PostgreSQL (not timed) and makes the admin role; throws when it is not installed. */
export async function startDatabases(logDir: string, log: (line: string) => void): Promise<BenchDatabases> {
  const servers = new DatabaseServers(logDir, log);
  try {
    await servers.start(['postgres']);
    const env = servers.endpoints;
    if (env.POSTGRES_ENDPOINT === '')
      throw new Error('PostgreSQL is not installed (apt-get install -y postgresql)');
    const [host, port] = env.POSTGRES_ENDPOINT.split(':');
    const superuser = {
      host: host!,
      port: Number(port),
      user: env.POSTGRES_SUPERUSER,
      password: env.POSTGRES_PASSWORD,
    };
    const password = randomBytes(18).toString('hex');
    await withSession('postgres', superuser, (session) =>
      session.run(`CREATE ROLE ${ADMIN_ROLE} LOGIN CREATEDB CREATEROLE PASSWORD '${password}'`, [password]),
    );
    return { servers, admin: { ...superuser, user: ADMIN_ROLE, password } };
  } catch (err) {
    await servers.stop();
    throw err;
  }
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
export function benchTenantDatabases(tenant: string): TenantDatabase[] {
  return BENCH_DATABASES.map((entry) => {
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
  admin: AdminConnection,
  tenant: Tenant,
  namespace: string,
  create: (secret: KubernetesObject) => Promise<unknown>,
): Promise<number> {
  let serverMs = 0;
  for (const target of benchTenantDatabases(tenant.metadata.name!)) {
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
export async function countDatabases(admin: AdminConnection, tenants: readonly string[]): Promise<number> {
  const names = tenants.flatMap((t) => benchTenantDatabases(t).map((d) => d.database));
  const rows = await withSession('postgres', admin, (session) =>
    session.rows('SELECT count(*)::int AS n FROM pg_database WHERE datname = ANY($1)', [names]),
  );
  return Number(rows[0]?.n ?? 0);
}
