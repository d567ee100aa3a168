// Which Tenants belong to this sync: those it labelled for this table. The label carries a short
// hash of the table name (labels are limited to 63 characters; table names reach 255), the
// annotation the full name for people. Only these Tenants are ever written to or deleted.
import { createHash } from 'node:crypto';
import { ANNOTATION, LABEL, MANAGED_BY, type Tenant } from '../api/tenant.js';

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

/** The label selector of every Tenant this sync manages (for people and tests: sync itself watches every Tenant). */
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

/** Why a Tenant of a row's name is not this sync's to touch. */
export type ForeignCause =
  /** Not labelled managed-by landlord-sync: made by a person (kubectl), a pipeline, or another tool. */
  | 'unmarked'
  /** Marked by a landlord sync, but for another table. */
  | 'otherTable';

export type Ownership = { kind: 'own' } | { kind: 'foreign'; cause: ForeignCause; otherTable?: string };

/**
 * Whether this sync made the Tenant from its own table: sync's managed-by label, this table's
 * source-table label, and no table annotation naming another table. sync's first write to a Tenant
 * (a create, or an apply) carries all of them at once, so there is no half-made Tenant of its own
 * without them. The one check every write and delete goes through; a sync that owned only its
 * cluster's rows of a shared table would add its cluster label here.
 */
export function ownership(tenant: Tenant, identity: TableIdentity): Ownership {
  const labels = tenant.metadata.labels ?? {};
  const annotated = tenant.metadata.annotations?.[ANNOTATION.table];
  if (labels[LABEL.managedBy] !== MANAGED_BY.sync) return { kind: 'foreign', cause: 'unmarked' };
  if (labels[LABEL.sourceTable] === identity.sourceLabel && (annotated ?? identity.table) === identity.table)
    return { kind: 'own' };
  return {
    kind: 'foreign',
    cause: 'otherTable',
    ...(annotated === undefined ? {} : { otherTable: annotated }),
  };
}

export const owns = (tenant: Tenant, identity: TableIdentity): boolean =>
  ownership(tenant, identity).kind === 'own';
