// A tenant's databases as a class names them: the contract between the operator, which makes them,
// and the purger, which drops them, so both always mean the same database and role. Pure.
import { fillName, type ClassDatabase, type DatabaseEngine } from './tenantclass.js';

/** The database and role of one class entry for one tenant (the role has the database's name). */
export interface TenantDatabase {
  /** The class entry's name. */
  entry: string;
  engine: DatabaseEngine;
  /** The admin Secret of the server, in the component's own namespace. */
  adminSecret: string;
  database: string;
  role: string;
  /** The tenant namespace's Secret with the credentials. */
  secretName: string;
}

/** On a tenant's `db-<name>` Secret: which database and role it is the proof of. */
export const DATABASE_ANNOTATION = 'landlord.dev/database';

/**
 * What a database name may hold: lowercase letters, digits, `_` and `-`, starting with a letter or
 * `_` (the names are quoted anyway). The limits are PostgreSQL's 63 bytes and MySQL's 32-character
 * user names; MariaDB allows more, but a class should name the same on both.
 */
const NAME_PATTERN = /^[a-z_][a-z0-9_-]*$/;
const MAX_NAME = { postgres: 63, mysql: 32 } as const;

export type DatabaseNaming =
  { ok: true; database: TenantDatabase } | { ok: false; entry: string; message: string };

/** The database an entry gives the tenant, or why its template gives no usable name. */
export function tenantDatabase(entry: ClassDatabase, tenantName: string): DatabaseNaming {
  const name = fillName(entry.nameTemplate, tenantName);
  const max = MAX_NAME[entry.engine];
  if (!NAME_PATTERN.test(name))
    return {
      ok: false,
      entry: entry.name,
      message: `database ${entry.name}: name "${name}" is not a-z, 0-9, _ and - starting with a letter or _`,
    };
  if (name.length > max)
    return {
      ok: false,
      entry: entry.name,
      message: `database ${entry.name}: name "${name}" is longer than ${max} characters`,
    };
  const database: TenantDatabase = {
    entry: entry.name,
    engine: entry.engine,
    adminSecret: entry.server.secretRef.name,
    database: name,
    role: name,
    secretName: `db-${entry.name}`,
  };
  return { ok: true, database };
}

/** The annotation value that proves a Secret holds this database's credentials. */
export const databaseProof = (d: TenantDatabase): string =>
  `${d.engine}/${d.adminSecret}/${d.database}/${d.role}`;
