// One admin connection to a tenant database server, for the few statements of one step (create a
// tenant's database, or drop it). The drivers are the engines' well-kept npm clients, `pg` and
// `mysql2`, loaded on first use only: a component whose classes name no database never loads them
// (docs/adr/0006-process-memory-at-rest.md). Every failure leaves as a classified SqlError.
import type { DatabaseEngine } from '../../api/tenantclass.js';
import type { AdminConnection } from './admin.js';
import { classify } from './errors.js';

/** How long a connection attempt may take before the server counts as unreachable. */
const CONNECT_TIMEOUT_MS = 5_000;
/** How long one statement may take (CREATE DATABASE copies a template; DROP may wait on locks). */
const STATEMENT_TIMEOUT_MS = 60_000;

export interface SqlSession {
  /** Rows of a query; `params` bind values ($1 in PostgreSQL, ? in MariaDB), never names. */
  rows(sql: string, params?: readonly unknown[]): Promise<Record<string, unknown>[]>;
  /** A statement whose result is not read. `secrets` are blanked out of its error's message. */
  run(sql: string, secrets?: readonly string[]): Promise<void>;
  close(): Promise<void>;
}

/** Opens a session as the admin user; throws a classified SqlError when it cannot. */
async function openSession(engine: DatabaseEngine, admin: AdminConnection): Promise<SqlSession> {
  try {
    return engine === 'postgres' ? await openPostgres(admin) : await openMysql(admin);
  } catch (err) {
    throw classify(err, [admin.password]);
  }
}

async function openPostgres(admin: AdminConnection): Promise<SqlSession> {
  const { default: pg } = await import('pg');
  const client = new pg.Client({
    host: admin.host,
    port: admin.port,
    user: admin.user,
    password: admin.password,
    database: admin.database ?? 'postgres',
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    statement_timeout: STATEMENT_TIMEOUT_MS,
    application_name: 'landlord',
  });
  // An error after connecting (the server went away) is reported by the next statement.
  client.on('error', () => undefined);
  await client.connect();
  return {
    rows: async (sql, params = []) =>
      guarded(async () => (await client.query<Record<string, unknown>>(sql, [...params])).rows),
    run: async (sql, secrets = []) => guarded(async () => void (await client.query(sql)), secrets),
    close: async () => client.end().catch(() => undefined),
  };
}

async function openMysql(admin: AdminConnection): Promise<SqlSession> {
  const mysql = await import('mysql2/promise');
  const connection = await mysql.createConnection({
    host: admin.host,
    port: admin.port,
    user: admin.user,
    password: admin.password,
    connectTimeout: CONNECT_TIMEOUT_MS,
    multipleStatements: false,
  });
  connection.on('error', () => undefined);
  return {
    rows: async (sql, params = []) =>
      guarded(async () => {
        const [rows] = await connection.query({ sql, timeout: STATEMENT_TIMEOUT_MS }, [...params]);
        return rows as Record<string, unknown>[];
      }),
    run: async (sql, secrets = []) =>
      guarded(async () => void (await connection.query({ sql, timeout: STATEMENT_TIMEOUT_MS })), secrets),
    close: async () => connection.end().catch(() => undefined),
  };
}

async function guarded<T>(step: () => Promise<T>, secrets: readonly string[] = []): Promise<T> {
  try {
    return await step();
  } catch (err) {
    throw classify(err, secrets);
  }
}

/** Runs `step` in a session that is closed after it, whatever happened. */
export async function withSession<T>(
  engine: DatabaseEngine,
  admin: AdminConnection,
  step: (session: SqlSession) => Promise<T>,
): Promise<T> {
  const session = await openSession(engine, admin);
  try {
    return await step(session);
  } finally {
    await session.close();
  }
}
