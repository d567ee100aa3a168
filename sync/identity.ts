// Which Tenants belong to this sync: those it labelled for this table. The label carries a short
// hash of the table name (labels are limited to 63 characters; table names reach 255), the
// annotation the full name for people. Only these Tenants are ever pruned.
import { createHash } from 'node:crypto';
import { ANNOTATION, LABEL, MANAGED_BY } from '../api/tenant.js';

export interface TableIdentity {
  table: string;
  /** The value of the source-table label: the first 16 hex digits of sha256(table name). */
  sourceLabel: string;
}

export function tableIdentity(table: string): TableIdentity {
  // The name alone, not the endpoint or region: the same table reached another way is the same source.
  const sourceLabel = createHash('sha256').update(table).digest('hex').slice(0, 16);
  return { table, sourceLabel };
}

export function ownedLabels(identity: TableIdentity): Record<string, string> {
  return { [LABEL.managedBy]: MANAGED_BY.sync, [LABEL.sourceTable]: identity.sourceLabel };
}

/** The label selector of every Tenant this sync manages. */
export function managedSelector(identity: TableIdentity): string {
  return Object.entries(ownedLabels(identity))
    .map(([key, value]) => `${key}=${value}`)
    .join(',');
}

export function ownedAnnotations(identity: TableIdentity, hash?: string): Record<string, string> {
  return {
    [ANNOTATION.table]: identity.table,
    ...(hash === undefined ? {} : { [ANNOTATION.rowHash]: hash }),
  };
}
