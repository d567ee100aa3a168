// Dropping one tenant database and its role, as the admin user. Each statement is idempotent (IF
// EXISTS), so a purge cut short anywhere (a killed purger, a lost Lease) is finished by running it
// again; dropping what is already gone is not an error. Only the purger drops a database, and only
// for a Tenant in state purged, after the delay, within the hourly budget (decide.ts, budget.ts).
import type { DatabasePurgeStatus } from '../../api/tenant.js';
import type { AdminConnection } from '../../runtime/sql/admin.js';
import { myAccount, myIdent, pgIdent } from '../../runtime/sql/quote.js';
import { withSession } from '../../runtime/sql/session.js';

type Target = Pick<DatabasePurgeStatus, 'engine' | 'database' | 'role'>;

/** The statements that drop `target`, in order (pure, for tests and review). */
export function dropStatements(target: Target): string[] {
  if (target.engine === 'postgres')
    return [
      // FORCE ends the tenant's open sessions (its pods may still be connected); PostgreSQL 13+.
      `DROP DATABASE IF EXISTS ${pgIdent(target.database)} WITH (FORCE)`,
      `DROP ROLE IF EXISTS ${pgIdent(target.role)}`,
    ];
  return [
    `DROP DATABASE IF EXISTS ${myIdent(target.database)}`,
    `DROP USER IF EXISTS ${myAccount(target.role)}`,
  ];
}

/** Drops `target` on the server `admin` reaches; throws a classified SqlError. */
export async function dropDatabase(admin: AdminConnection, target: Target): Promise<void> {
  await withSession(target.engine, admin, async (session) => {
    for (const sql of dropStatements(target)) await session.run(sql);
  });
}
