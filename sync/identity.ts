// Which Tenants belong to this sync: those it labelled for this table (and for its cluster, when it
// shares the table with other clusters). The label carries a short hash of the table name (labels
// are limited to 63 characters; table names reach 255), the annotation the full name for people.
// Only these Tenants are ever written to or deleted.
import { sourceTableLabel, tableMismatch, type TableMismatch } from '../api/table-identity.js';
import { ANNOTATION, LABEL, MANAGED_BY, type Tenant } from '../api/tenant.js';
import { SINGLE_CLUSTER, type Placement } from './placement.js';

export interface TableIdentity extends Placement {
  table: string;
  /** The value of the source-table label: the first 16 hex digits of sha256(table name). */
  sourceLabel: string;
}

export function tableIdentity(table: string, placement: Placement = SINGLE_CLUSTER): TableIdentity {
  const sourceLabel = sourceTableLabel(table);
  return { table, sourceLabel, cluster: placement.cluster, claimsUnassigned: placement.claimsUnassigned };
}

export function ownedLabels(identity: TableIdentity): Record<string, string> {
  return {
    [LABEL.managedBy]: MANAGED_BY.sync,
    [LABEL.sourceTable]: identity.sourceLabel,
    ...(identity.cluster === undefined ? {} : { [LABEL.cluster]: identity.cluster }),
  };
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
  | TableMismatch['cause']
  /** Marked by this table's sync, but for another cluster's rows (or, unlabelled, for unassigned rows this cluster does not claim). */
  | 'otherCluster';

export type Ownership = { kind: 'own' } | { kind: 'foreign'; cause: ForeignCause; otherTable?: string };

/**
 * The cluster label agrees with this sync's placement. A Tenant without it was made before clusters
 * (or by a sync with none configured): it is this sync's only if this sync claims unassigned rows,
 * and then the next apply adds the label.
 */
function clusterMatches(labels: Record<string, string>, identity: TableIdentity): boolean {
  const cluster = labels[LABEL.cluster];
  return cluster === undefined ? identity.claimsUnassigned : cluster === identity.cluster;
}

/**
 * Whether this sync made the Tenant from its own table's rows for its cluster: sync's managed-by
 * label, this table's source-table label, no table annotation naming another table, and a cluster
 * label that is this sync's (or none, if it claims unassigned rows). sync's first write to a Tenant
 * (a create, or an apply) carries all of them at once, so there is no half-made Tenant of its own
 * without them. The one check every write and delete goes through.
 */
export function ownership(tenant: Tenant, identity: TableIdentity): Ownership {
  const mismatch = tableMismatch(tenant, identity.table);
  if (mismatch !== undefined) return { kind: 'foreign', ...mismatch };
  return clusterMatches(tenant.metadata.labels ?? {}, identity)
    ? { kind: 'own' }
    : { kind: 'foreign', cause: 'otherCluster' };
}

export const owns = (tenant: Tenant, identity: TableIdentity): boolean =>
  ownership(tenant, identity).kind === 'own';
