// The sandbox's whole application (issue 58): the class `suite` runs each tenant as two services
// from one row (web and api, web behind the tenant's route) with a PostgreSQL database of its own,
// and sync writes the tenant's readiness and URL back to the row, which `npm run sandbox:wait-url`
// reads as a signup service would. The database needs a PostgreSQL server: the sandbox starts one
// on loopback as the e2e harness does (harness/database-servers.ts), only when the packages are
// installed; without them the class has no databases and the tenant runs its two services alone.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { DatabaseServers } from '../harness/database-servers.js';
import type { Row } from './rows.js';

export const SUITE_CLASS = 'suite';
export const SUITE_TENANT = 'crm';
export const SUITE_DOMAIN = 'suite.example.com';
/** The admin Secret in landlord's namespace (POD_NAMESPACE) that the operator connects with. */
const ADMIN_SECRET = 'sandbox-pg-admin';
/** The class's one database: Secret `db-main` in each tenant's namespace. */
export const SUITE_DATABASE = 'main';

/** Where the admin Secret goes: the namespace sandbox.ts gives the components as POD_NAMESPACE. */
const LANDLORD_NAMESPACE = 'landlord-system';

interface Admin {
  host: string;
  port: number;
  user: string;
  password: string;
}

/**
 * One of the tenant's services: pods app=<name>, listening on `port`, written for "default"; with
 * `database`, its containers read the database's Secret.
 */
function service(name: string, port: number, database: boolean): Record<string, unknown> {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace: 'default' },
    spec: {
      replicas: 1,
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name } },
        spec: {
          containers: [
            {
              name: name,
              image: 'nginx:1.27',
              ports: [{ containerPort: port }],
              // The database's Secret, by the name the class gives it (docs/databases.md).
              ...(database ? { envFrom: [{ secretRef: { name: `db-${SUITE_DATABASE}` } }] } : {}),
            },
          ],
        },
      },
    },
  };
}

/**
 * The tenant's row, as users write it: its spec a JSON array of two Deployments, several services
 * of one tenant (docs/rows.md); the api reads the database's Secret when there is one.
 */
export function suiteRow(database: boolean): Row {
  return {
    name: { S: SUITE_TENANT },
    class: { S: SUITE_CLASS },
    spec: { S: JSON.stringify([service('web', 8080, false), service('api', 9000, database)]) },
    customizations: { S: '[]' },
    deleted: { BOOL: false },
  };
}

function kubectlApply(kubeconfig: string, manifest: unknown, what: string): void {
  const applied = spawnSync('kubectl', ['apply', '--server-side', '-f', '-'], {
    input: JSON.stringify(manifest),
    env: { ...process.env, KUBECONFIG: kubeconfig },
    encoding: 'utf8',
  });
  if (applied.status !== 0) throw new Error(`installing ${what}: ${applied.stderr}`);
}

/**
 * The operator's account on the server, as docs/databases.md asks: CREATEDB CREATEROLE, not a
 * superuser, made with the superuser the harness started the server with.
 */
async function makeAdmin(endpoint: string, superuser: string, password: string): Promise<Admin> {
  const [host = '127.0.0.1', port = '5432'] = endpoint.split(':');
  const admin = { host, port: Number(port), user: 'landlord', password: randomBytes(12).toString('hex') };
  const client = new pg.Client({ host, port: admin.port, user: superuser, password, database: 'postgres' });
  await client.connect();
  try {
    await client.query(`CREATE ROLE landlord LOGIN CREATEDB CREATEROLE PASSWORD '${admin.password}'`);
  } finally {
    await client.end();
  }
  return admin;
}

/** The class, with its database when a server runs, and the admin Secret it names. */
function installClass(kubeconfig: string, admin: Admin | undefined): void {
  const databases =
    admin === undefined
      ? {}
      : {
          databases: [
            { name: SUITE_DATABASE, engine: 'postgres', server: { secretRef: { name: ADMIN_SECRET } } },
          ],
        };
  if (admin !== undefined) {
    kubectlApply(
      kubeconfig,
      { apiVersion: 'v1', kind: 'Namespace', metadata: { name: LANDLORD_NAMESPACE } },
      'namespace',
    );
    const stringData = {
      host: admin.host,
      port: String(admin.port),
      user: admin.user,
      password: admin.password,
    };
    const secret = {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: ADMIN_SECRET, namespace: LANDLORD_NAMESPACE },
      stringData,
    };
    kubectlApply(kubeconfig, secret, `Secret ${ADMIN_SECRET}`);
  }
  const expose = { port: 8080, host: `{name}.${SUITE_DOMAIN}`, ingressClassName: 'nginx', deployment: 'web' };
  kubectlApply(
    kubeconfig,
    {
      apiVersion: 'landlord.dev/v1beta1',
      kind: 'TenantClass',
      metadata: { name: SUITE_CLASS },
      spec: {
        namespace: { mode: 'PerTenant', nameTemplate: `${SUITE_CLASS}-{name}` },
        expose,
        allowedDomains: [SUITE_DOMAIN],
        ...databases,
      },
    },
    `TenantClass ${SUITE_CLASS}`,
  );
}

/**
 * Starts PostgreSQL when it is installed and installs the class: resolves to the server (stopped
 * with the sandbox) and a line saying what the tenant gets.
 */
export async function startSuite(
  kubeconfig: string,
  logDir: string,
): Promise<{ servers: DatabaseServers; row: Row; line: string }> {
  const servers = new DatabaseServers(logDir, () => undefined);
  await servers.start(['postgres']);
  const { POSTGRES_ENDPOINT, POSTGRES_SUPERUSER, POSTGRES_PASSWORD } = servers.endpoints;
  const admin =
    POSTGRES_ENDPOINT === ''
      ? undefined
      : await makeAdmin(POSTGRES_ENDPOINT, POSTGRES_SUPERUSER, POSTGRES_PASSWORD);
  installClass(kubeconfig, admin);
  const line =
    admin === undefined
      ? `  PostgreSQL is not installed (apt-get install -y postgresql): ${SUITE_TENANT} runs its two services without its database`
      : `  PostgreSQL at ${admin.host}:${admin.port}: ${SUITE_TENANT} (class ${SUITE_CLASS}) gets a database of its own, Secret db-${SUITE_DATABASE}`;
  return { servers, row: suiteRow(admin !== undefined), line };
}
