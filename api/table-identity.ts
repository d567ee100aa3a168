// Which tenant table a Tenant came from, as sync marks it: sync's managed-by label, the source-table
// label (a short hash of the table name: labels hold 63 characters, table names reach 255) and the
// table annotation (the full name, for people). One pure check for every component that must act
// only on Tenants sync made from a given table: sync before it writes or deletes, the purger before
// it deletes data. Which cluster's rows a Tenant mirrors is sync's own, further check.
import { createHash } from 'node:crypto';
import { ANNOTATION, LABEL, MANAGED_BY, type Tenant } from './tenant.js';

/** The value of the source-table label: the first 16 hex digits of sha256(table name). */
export function sourceTableLabel(table: string): string {
  // The name alone, not the endpoint or region: the same table reached another way is the same source.
  return createHash('sha256').update(table).digest('hex').slice(0, 16);
}

/** Why a Tenant is not one sync made from the given table. */
export type TableMismatch =
  /** Not labelled managed-by landlord-sync: made by a person (kubectl), a pipeline, or another tool. */
  | { cause: 'unmarked' }
  /** Marked by a landlord sync, but for another table (named when the annotation says which). */
  | { cause: 'otherTable'; otherTable?: string };

/**
 * undefined when sync made the Tenant from `table`: sync's managed-by label, this table's
 * source-table label, and no table annotation naming another table. sync's first write to a Tenant
 * carries all of them at once, so no Tenant of its own lacks them.
 */
export function tableMismatch(tenant: Tenant, table: string): TableMismatch | undefined {
  const labels = tenant.metadata.labels ?? {};
  const annotated = tenant.metadata.annotations?.[ANNOTATION.table];
  if (labels[LABEL.managedBy] !== MANAGED_BY.sync) return { cause: 'unmarked' };
  if (labels[LABEL.sourceTable] === sourceTableLabel(table) && (annotated ?? table) === table)
    return undefined;
  return { cause: 'otherTable', ...(annotated === undefined ? {} : { otherTable: annotated }) };
}

/** The first of `tables` sync made the Tenant from, or why it is none of theirs (none configured: none is). */
export function fromTables(
  tenant: Tenant,
  tables: readonly string[],
): { table: string } | { mismatch: TableMismatch } {
  const table = tables.find((t) => tableMismatch(tenant, t) === undefined);
  if (table !== undefined) return { table };
  // Against any table but its own a Tenant shows the same mismatch; '' is none (no table is named so).
  return { mismatch: tableMismatch(tenant, tables[0] ?? '')! };
}
