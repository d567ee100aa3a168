// Which databases a purged Tenant's purge drops: those its class names for it (api/databases.ts,
// the same names the operator made), read from the class the operator last resolved for it
// (status.class) when the purge is scheduled. Pure.
import { tenantDatabase } from '../../api/databases.js';
import type { DatabasePurgeStatus, Tenant } from '../../api/tenant.js';
import { policyOf, type TenantClass } from '../../api/tenantclass.js';

/** The databases to record in a new purge, each Pending. */
export function databasesToDrop(
  tenant: Tenant,
  classOf: (name: string) => TenantClass | undefined,
): DatabasePurgeStatus[] {
  const className = tenant.status?.class;
  const tenantClass = className === undefined ? undefined : classOf(className);
  if (tenantClass === undefined) return [];
  return policyOf(tenantClass).databases.flatMap((entry) => {
    const named = tenantDatabase(entry, tenant.metadata.name ?? '');
    if (!named.ok) return [];
    const { database, role, engine, adminSecret } = named.database;
    return [{ name: entry.name, engine, adminSecret, database, role, phase: 'Pending' as const }];
  });
}
