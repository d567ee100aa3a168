// Making one tenant database and its role on a server, as the admin user, idempotently: every step
// either finds its result already there or makes it, so a reconcile cut short anywhere is finished
// by the next one. The role's password is set to the one given each time: the caller makes a new
// one only while no Secret holds the last, so a password a tenant has is never rotated. Never DROP:
// only the purger drops (docs/adr/0013-tenant-databases.md).
import type { TenantDatabase } from '../../api/databases.js';
import type { AdminConnection } from '../../runtime/sql/admin.js';
import {
  myAccount,
  myGrantDatabase,
  myIdent,
  myLiteral,
  pgIdent,
  pgLiteral,
} from '../../runtime/sql/quote.js';
import { withSession, type SqlSession } from '../../runtime/sql/session.js';

/** The statements, in order, that make `target` exist with `password` (pure, for tests and review). */
export function mysqlStatements(target: TenantDatabase, password: string): string[] {
  const account = myAccount(target.role);
  return [
    `CREATE DATABASE IF NOT EXISTS ${myIdent(target.database)}`,
    `CREATE USER IF NOT EXISTS ${account} IDENTIFIED BY ${myLiteral(password)}`,
    // The user may be left from an attempt whose Secret was never written: its password is ours now.
    `ALTER USER ${account} IDENTIFIED BY ${myLiteral(password)}`,
    `GRANT ALL PRIVILEGES ON ${myGrantDatabase(target.database)}.* TO ${account}`,
  ];
}

/** PostgreSQL's statements, by whether the role and the database exist already (pure). */
export function postgresStatements(
  target: TenantDatabase,
  password: string,
  found: { role: boolean; database: boolean },
): string[] {
  const role = pgIdent(target.role);
  const database = pgIdent(target.database);
  return [
    `${found.role ? 'ALTER' : 'CREATE'} ROLE ${role} WITH LOGIN PASSWORD ${pgLiteral(password)}`,
    // CREATE DATABASE … OWNER needs the admin to be a member of the owner (a CREATEROLE admin, not
    // a superuser); granting it again is a notice, not an error.
    `GRANT ${role} TO CURRENT_USER`,
    ...(found.database ? [] : [`CREATE DATABASE ${database} OWNER ${role}`]),
    // Every role may connect to a new database by default: only its owner may connect to this one.
    `REVOKE ALL ON DATABASE ${database} FROM PUBLIC`,
  ];
}

/** Makes the database and role of `target` exist, with `password`; throws a classified SqlError. */
export async function ensureDatabase(
  admin: AdminConnection,
  target: TenantDatabase,
  password: string,
): Promise<void> {
  await withSession(target.engine, admin, async (session) => {
    const statements =
      target.engine === 'postgres'
        ? postgresStatements(target, password, await postgresFound(session, target))
        : mysqlStatements(target, password);
    for (const sql of statements) await session.run(sql, [password]);
  });
}

async function postgresFound(
  session: SqlSession,
  target: TenantDatabase,
): Promise<{ role: boolean; database: boolean }> {
  const [roles, databases] = [
    await session.rows('SELECT 1 FROM pg_roles WHERE rolname = $1', [target.role]),
    await session.rows('SELECT 1 FROM pg_database WHERE datname = $1', [target.database]),
  ];
  return { role: roles.length > 0, database: databases.length > 0 };
}
