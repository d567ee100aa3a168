// A class's databases (issue 58) on the real control plane, with real PostgreSQL and MariaDB (the
// harness starts both on loopback, harness/database-servers.ts): each tenant gets a database and a
// role of its own on each, whose Secret's values connect (kwok's pods are fake, so the test connects
// with exactly them), and whose role cannot reach another tenant's database; a restarted operator
// neither rotates a password nor calls the server; a wrong or missing admin Secret says so and
// makes nothing; archived and deleted tenants keep their databases; and a purge, its purger killed
// once mid-way, drops exactly the purged tenant's databases and roles.
import type { V1Secret } from '@kubernetes/client-node';
import pg from 'pg';
import mysql from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONDITION, GROUP, VERSION, type Tenant } from '../api/tenant.js';
import { CLASS_PLURAL, type TenantClassSpec } from '../api/tenantclass.js';
import { createDataTable, loadPartitions, type DataTableShape } from '../harness/data-table.js';
import { waitUntil } from '../harness/wait.js';
import { dynamoClient } from './support/dynamo.js';
import { clients, envValue, uniqueName } from './support/env.js';
import { componentEnv, startLandlord, writesByVerb, type LandlordProcess } from './support/landlord.js';
import {
  createTable,
  deleteSyncedTenants,
  eventsFor,
  putRow,
  readTenant,
  row,
  startSyncAndOperator,
  updateRow,
} from './support/sync.js';
import { condition, waitForCondition } from './support/tenants.js';

const { core, custom } = clients();
const dynamo = dynamoClient();
const id = uniqueName('dbs');
const table = `${id}-rows`;
const ADMIN_NAMESPACE = 'landlord-system';
const classes = { group: GROUP, version: VERSION, plural: CLASS_PLURAL };

const CLASS = `${id}-both`;
const BAD_CLASS = `${id}-bad`;
const MISSING_CLASS = `${id}-missing`;
const PG_ADMIN = `${id}-pg-admin`;
const MY_ADMIN = `${id}-my-admin`;
const BAD_ADMIN = `${id}-bad-admin`;

const A = `${id}-a`;
const B = `${id}-b`;
const ARCHIVED = `${id}-c`;
const DELETED = `${id}-d`;
const PURGED = `${id}-e`;
const BAD = `${id}-f`;
const MISSING = `${id}-g`;
const GOOD = [A, B, ARCHIVED, DELETED, PURGED];

const dbName = (tenant: string): string => `t_${tenant}`;

/** The purge's data table: enough items at 200/s that the kill lands while the purge runs. */
const DATA: DataTableShape = { table: `${id}-data`, partitionKey: 'tenant', sortKey: 'sk' };
const PURGED_ITEMS = 3_000;

let sync: LandlordProcess;
let operator: LandlordProcess;
let purger: LandlordProcess | undefined;

interface Server {
  host: string;
  port: number;
  user: string;
  password: string;
}

function server(prefix: 'POSTGRES' | 'MARIADB'): Server {
  const endpoint = envValue(`${prefix}_ENDPOINT`);
  if (endpoint === '')
    throw new Error(
      `${prefix} is not running: apt-get install -y postgresql mariadb-server (see docs/developing.md)`,
    );
  const [host, port] = endpoint.split(':');
  return {
    host: host!,
    port: Number(port),
    user: envValue(`${prefix}_SUPERUSER`),
    password: envValue(`${prefix}_PASSWORD`),
  };
}

const b64 = (text: string): string => Buffer.from(text).toString('base64');
const unb64 = (text: string | undefined): string => Buffer.from(text ?? '', 'base64').toString('utf8');

async function pgQuery(
  conn: Server & { database?: string },
  sql: string,
  params: unknown[] = [],
): Promise<Record<string, unknown>[]> {
  const client = new pg.Client({
    ...conn,
    database: conn.database ?? 'postgres',
    connectionTimeoutMillis: 5_000,
  });
  await client.connect();
  try {
    return (await client.query<Record<string, unknown>>(sql, params)).rows;
  } finally {
    await client.end();
  }
}

async function myQuery(
  conn: Server & { database?: string },
  sql: string,
  params: unknown[] = [],
): Promise<Record<string, unknown>[]> {
  const connection = await mysql.createConnection({ ...conn, connectTimeout: 5_000 });
  try {
    const [rows] = await connection.query(sql, params);
    return rows as Record<string, unknown>[];
  } finally {
    await connection.end();
  }
}

/** What the superusers see: each tenant's databases and roles, by name. */
async function serverState(tenants: readonly string[]): Promise<Record<string, boolean>> {
  const names = tenants.map(dbName);
  const pgDatabases = await pgQuery(
    server('POSTGRES'),
    'SELECT datname FROM pg_database WHERE datname = ANY($1)',
    [names],
  );
  const pgRoles = await pgQuery(server('POSTGRES'), 'SELECT rolname FROM pg_roles WHERE rolname = ANY($1)', [
    names,
  ]);
  const myDatabases = await myQuery(
    server('MARIADB'),
    'SELECT schema_name AS n FROM information_schema.schemata WHERE schema_name IN (?)',
    [names],
  );
  const myUsers = await myQuery(server('MARIADB'), 'SELECT user AS n FROM mysql.user WHERE user IN (?)', [
    names,
  ]);
  const state: Record<string, boolean> = {};
  for (const name of names) {
    state[`postgres database ${name}`] = pgDatabases.some((r) => r.datname === name);
    state[`postgres role ${name}`] = pgRoles.some((r) => r.rolname === name);
    state[`mariadb database ${name}`] = myDatabases.some((r) => r.n === name);
    state[`mariadb user ${name}`] = myUsers.some((r) => r.n === name);
  }
  return state;
}

const everywhere = (tenants: readonly string[], present: boolean): Record<string, boolean> =>
  Object.fromEntries(
    tenants.flatMap((t) =>
      ['postgres database', 'postgres role', 'mariadb database', 'mariadb user'].map((what) => [
        `${what} ${dbName(t)}`,
        present,
      ]),
    ),
  );

async function putAdminSecret(name: string, s: Server): Promise<void> {
  const data = { host: b64(s.host), port: b64(String(s.port)), user: b64(s.user), password: b64(s.password) };
  const body: V1Secret = { metadata: { name, namespace: ADMIN_NAMESPACE }, type: 'Opaque', data };
  try {
    await core.createNamespacedSecret({ namespace: ADMIN_NAMESPACE, body });
  } catch {
    await core.replaceNamespacedSecret({ namespace: ADMIN_NAMESPACE, name, body });
  }
}

/** Least privilege: PostgreSQL CREATEDB CREATEROLE (no superuser); MariaDB all on t_% and CREATE USER. */
async function makeAdmins(): Promise<{ pg: Server; my: Server }> {
  const password = uniqueName('pw');
  const pgAdmin = { ...server('POSTGRES'), user: `${id.replaceAll('-', '_')}_admin`, password };
  await pgQuery(
    server('POSTGRES'),
    `CREATE ROLE "${pgAdmin.user}" LOGIN CREATEDB CREATEROLE PASSWORD '${password}'`,
  );
  const myAdmin = { ...server('MARIADB'), user: `${id.replaceAll('-', '_')}_admin`, password };
  await myQuery(server('MARIADB'), `CREATE USER '${myAdmin.user}'@'%' IDENTIFIED BY '${password}'`);
  await myQuery(
    server('MARIADB'),
    `GRANT ALL PRIVILEGES ON \`t\\_%\`.* TO '${myAdmin.user}'@'%' WITH GRANT OPTION`,
  );
  await myQuery(server('MARIADB'), `GRANT CREATE USER ON *.* TO '${myAdmin.user}'@'%'`);
  return { pg: pgAdmin, my: myAdmin };
}

async function createClass(name: string, spec: TenantClassSpec): Promise<void> {
  await custom.createClusterCustomObject({
    ...classes,
    body: { apiVersion: `${GROUP}/${VERSION}`, kind: 'TenantClass', metadata: { name }, spec },
  });
}

const perTenant = (databases: TenantClassSpec['databases']): TenantClassSpec => ({
  namespace: { mode: 'PerTenant', nameTemplate: '{name}' },
  networkIsolation: 'None',
  databases,
});

async function secretValues(tenant: string, name: string): Promise<Record<string, string>> {
  const secret = await core.readNamespacedSecret({ namespace: tenant, name });
  return Object.fromEntries(Object.entries(secret.data ?? {}).map(([k, v]) => [k, unb64(v)]));
}

const ready = (name: string): Promise<Tenant> =>
  waitForCondition(
    custom,
    name,
    { type: CONDITION.databasesReady, status: 'True', reason: 'DatabasesReady' },
    120_000,
  );

/** How the tenant's pods would connect: exactly the Secret's values. */
function fromSecret(
  values: Record<string, string>,
  database = values.database!,
): Server & { database: string } {
  return {
    host: values.host!,
    port: Number(values.port),
    user: values.user!,
    password: values.password!,
    database,
  };
}

/** The error a connection with these values ends in, or 'connected'. */
async function connectOutcome(
  engine: 'postgres' | 'mysql',
  conn: Server & { database: string },
): Promise<string> {
  try {
    if (engine === 'postgres') await pgQuery(conn, 'SELECT 1');
    else await myQuery(conn, 'SELECT 1');
    return 'connected';
  } catch (err) {
    return String((err as { code?: string }).code ?? err);
  }
}

beforeAll(async () => {
  const admins = await makeAdmins();
  await core.createNamespace({ body: { metadata: { name: ADMIN_NAMESPACE } } }).catch(() => undefined);
  await putAdminSecret(PG_ADMIN, admins.pg);
  await putAdminSecret(MY_ADMIN, admins.my);
  await putAdminSecret(BAD_ADMIN, { ...admins.pg, password: 'not-the-password' });
  await createClass(
    CLASS,
    perTenant([
      { name: 'main', engine: 'postgres', server: { secretRef: { name: PG_ADMIN } } },
      { name: 'cache', engine: 'mysql', server: { secretRef: { name: MY_ADMIN } }, nameTemplate: 't_{name}' },
    ]),
  );
  await createClass(
    BAD_CLASS,
    perTenant([{ name: 'main', engine: 'postgres', server: { secretRef: { name: BAD_ADMIN } } }]),
  );
  await createClass(
    MISSING_CLASS,
    perTenant([{ name: 'main', engine: 'mysql', server: { secretRef: { name: `${id}-nowhere` } } }]),
  );
  await createTable(table);
  await createDataTable(dynamo, DATA);
  await loadPartitions(dynamo, DATA, [
    { value: PURGED, items: PURGED_ITEMS },
    { value: A, items: 10 },
  ]);
  ({ sync, operator } = await startSyncAndOperator(
    table,
    { LANDLORD_SYNC_RESYNC_SECONDS: '5' },
    { LANDLORD_OPERATOR_RESYNC_SECONDS: '10' },
  ));
  for (const name of GOOD) await putRow(table, { ...row(name), class: CLASS });
  await putRow(table, { ...row(BAD), class: BAD_CLASS });
  await putRow(table, { ...row(MISSING), class: MISSING_CLASS });
  for (const name of GOOD) await ready(name);
}, 600_000);

afterAll(async () => {
  if (purger !== undefined) await purger.stop();
  expect(await operator.stop()).toBe(0);
  expect(await sync.stop()).toBe(0);
  await deleteSyncedTenants(table);
  for (const name of [CLASS, BAD_CLASS, MISSING_CLASS])
    await custom.deleteClusterCustomObject({ ...classes, name });
  for (const name of [PG_ADMIN, MY_ADMIN, BAD_ADMIN])
    await core.deleteNamespacedSecret({ namespace: ADMIN_NAMESPACE, name }).catch(() => undefined);
}, 300_000);

describe('a database of its own per tenant', () => {
  it('makes a database and a role on each server, and a Secret owned by the Tenant whose values connect', async () => {
    expect(await serverState(GOOD)).toEqual(everywhere(GOOD, true));
    const main = await secretValues(A, 'db-main');
    expect(main).toMatchObject({ database: dbName(A), user: dbName(A), host: '127.0.0.1' });
    expect(main.url).toBe(
      `postgresql://${dbName(A)}:${encodeURIComponent(main.password!)}@${main.host}:${main.port}/${dbName(A)}`,
    );
    const pgConn = fromSecret(main);
    await pgQuery(pgConn, 'CREATE TABLE orders (id int PRIMARY KEY)');
    await pgQuery(pgConn, 'INSERT INTO orders VALUES (1)');
    expect(await pgQuery(pgConn, 'SELECT current_database() AS db, current_user AS who')).toEqual([
      { db: dbName(A), who: dbName(A) },
    ]);
    // The url alone connects too, as a driver reading DATABASE_URL would.
    const byUrl = new pg.Client({ connectionString: main.url });
    await byUrl.connect();
    expect((await byUrl.query('SELECT count(*)::int AS n FROM orders')).rows).toEqual([{ n: 1 }]);
    await byUrl.end();
    const cache = await secretValues(A, 'db-cache');
    const myConn = fromSecret(cache);
    await myQuery(myConn, 'CREATE TABLE entries (id INT PRIMARY KEY)');
    await myQuery(myConn, 'INSERT INTO entries VALUES (1)');
    expect(await myQuery(myConn, 'SELECT DATABASE() AS db, COUNT(*) AS n FROM entries')).toEqual([
      { db: dbName(A), n: 1 },
    ]);
    const secret = await core.readNamespacedSecret({ namespace: A, name: 'db-main' });
    expect(secret.metadata!.ownerReferences).toMatchObject([{ kind: 'Tenant', name: A, controller: true }]);
    const tenant = await readTenant(A);
    expect(condition(tenant!, CONDITION.databasesReady)?.message).toContain('Secret db-main');
    // Names and reasons only: no value of a Secret in status.
    expect(JSON.stringify(tenant!.status)).not.toContain(main.password);
    expect(JSON.stringify(tenant!.status)).not.toContain(cache.password);
    // Nor in the operator's log (debug level) or the Tenant's Events.
    const said = JSON.stringify([operator.logs, await eventsFor(A)]);
    expect(said).toContain(A);
    expect(said).not.toContain(main.password);
    expect(said).not.toContain(cache.password);
  });

  it("a tenant's role cannot reach another tenant's database", async () => {
    const aMain = await secretValues(A, 'db-main');
    const aCache = await secretValues(A, 'db-cache');
    // PostgreSQL: CONNECT was revoked from PUBLIC; MariaDB: A's user has grants on A's database only.
    expect(await connectOutcome('postgres', fromSecret(aMain, dbName(B)))).toBe('42501');
    expect(await connectOutcome('mysql', fromSecret(aCache, dbName(B)))).toBe('ER_DBACCESS_DENIED_ERROR');
    // Neither reaches the other's role: B's password is not A's.
    const bMain = await secretValues(B, 'db-main');
    expect(bMain.password).not.toBe(aMain.password);
    expect(await connectOutcome('postgres', fromSecret(bMain))).toBe('connected');
  });

  it('a restarted operator rotates no password and calls no server: the Secret is the proof', async () => {
    const before = await secretValues(A, 'db-main');
    // Break the admin Secret: any call to the server would now fail with AuthFailed.
    const pgAdmin = await secretValues(ADMIN_NAMESPACE, PG_ADMIN);
    await putAdminSecret(PG_ADMIN, { ...fromSecret(pgAdmin), password: 'wrong' });
    try {
      expect(await operator.stop()).toBe(0);
      operator = startLandlord('operator', componentEnv({ LANDLORD_OPERATOR_RESYNC_SECONDS: '10' }));
      await operator.ready();
      // Two resyncs later every tenant was looked at again, with no write to a Secret.
      await new Promise((r) => setTimeout(r, 25_000));
      expect(await writesByVerb(operator, 'secrets')).toEqual({});
      for (const name of GOOD)
        expect(condition((await readTenant(name))!, CONDITION.databasesReady)?.status).toBe('True');
      expect(await secretValues(A, 'db-main')).toEqual(before);
      expect(await connectOutcome('postgres', fromSecret(before))).toBe('connected');
    } finally {
      // The purge below needs the server.
      await putAdminSecret(PG_ADMIN, fromSecret(pgAdmin));
    }
  }, 120_000);

  it('a wrong admin Secret says AuthFailed, a missing one AdminSecretMissing, and neither makes anything', async () => {
    const bad = await waitForCondition(
      custom,
      BAD,
      { type: CONDITION.databasesReady, status: 'False', reason: 'AuthFailed' },
      60_000,
    );
    expect(condition(bad, CONDITION.databasesReady)?.message).toMatch(/password authentication failed/);
    const missing = await waitForCondition(
      custom,
      MISSING,
      { type: CONDITION.databasesReady, status: 'False', reason: 'AdminSecretMissing' },
      60_000,
    );
    expect(condition(missing, CONDITION.databasesReady)?.message).toContain(`${id}-nowhere`);
    const state = await serverState([BAD, MISSING]);
    expect(Object.values(state).every((present) => !present)).toBe(true);
    await expect(core.readNamespacedSecret({ namespace: BAD, name: 'db-main' })).rejects.toMatchObject({
      code: 404,
    });
    // The tenant itself runs: only its databases wait.
    expect(condition(bad, CONDITION.ready)?.status).toBe('True');
  });

  it('archived and deleted tenants keep their databases and roles', async () => {
    await updateRow(table, ARCHIVED, { state: 'archived' });
    await updateRow(table, DELETED, { deleted: true });
    await waitForCondition(
      custom,
      ARCHIVED,
      { type: CONDITION.ready, status: 'False', reason: 'Archived' },
      60_000,
    );
    await waitUntil('the deleted Tenant to be gone', async () => (await readTenant(DELETED)) === undefined, {
      timeoutMs: 60_000,
    });
    expect(await serverState([ARCHIVED, DELETED])).toEqual(everywhere([ARCHIVED, DELETED], true));
  }, 150_000);
});

describe('purge', () => {
  const startPurger = (): LandlordProcess => {
    purger = startLandlord(
      'purger',
      componentEnv({
        LANDLORD_PURGER_TABLES: JSON.stringify([
          { table: DATA.table, partitionKey: 'tenant', valueTemplate: '{name}' },
        ]),
        LANDLORD_PURGER_TENANT_TABLES: table,
        LANDLORD_PURGER_DELAY: '0s',
        LANDLORD_PURGER_RATE: '200',
        LANDLORD_PURGER_RETRY_BASE_MS: '200',
      }),
    );
    return purger;
  };

  it('drops exactly the purged tenant’s databases and roles, its purger killed once mid-purge', async () => {
    await startPurger().ready();
    await updateRow(table, PURGED, { state: 'purged' });
    const scheduled = await waitUntil(
      'the purge to be running, with its databases recorded',
      async () => {
        const purge = (await readTenant(PURGED))?.status?.purge;
        return purge?.phase === 'Running' && (purge.tables[0]?.deleted ?? 0) > 0 ? purge : undefined;
      },
      { timeoutMs: 120_000, intervalMs: 250 },
    );
    expect(scheduled.databases?.map((d) => [d.name, d.engine, d.database, d.phase])).toEqual([
      ['main', 'postgres', dbName(PURGED), 'Pending'],
      ['cache', 'mysql', dbName(PURGED), 'Pending'],
    ]);
    purger!.kill('SIGKILL');
    await purger!.exited;
    // Nothing was dropped before the tables were emptied.
    expect(await serverState([PURGED])).toEqual(everywhere([PURGED], true));
    await startPurger().ready();
    const tenant = await waitForCondition(
      custom,
      PURGED,
      { type: CONDITION.purged, status: 'True', reason: 'Purged' },
      180_000,
    ).catch(async (err: unknown) => {
      // What the purger said about it, for the failure's report.
      console.log(JSON.stringify((await readTenant(PURGED))?.status, null, 1));
      console.log(purger!.logs.filter((l) => l.tenant === PURGED || l.level !== 'debug').slice(-30));
      throw err;
    });
    expect(tenant.status!.purge!.databases!.map((d) => d.phase)).toEqual(['Completed', 'Completed']);
    expect(await serverState([PURGED])).toEqual(everywhere([PURGED], false));
    // Every other tenant's databases and roles are still there, with their data.
    const others = [A, B, ARCHIVED, DELETED];
    expect(await serverState(others)).toEqual(everywhere(others, true));
    expect(
      await pgQuery({ ...server('POSTGRES'), database: dbName(A) }, 'SELECT count(*)::int AS n FROM orders'),
    ).toEqual([{ n: 1 }]);
  }, 300_000);
});
