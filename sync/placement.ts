// Which rows of a shared table this sync mirrors. A row's `cluster` attribute places its tenant on
// one cluster; rows without one belong to the cluster configured to claim them (or, with no cluster
// configured at all, to this sync, as before clusters existed). A row placed elsewhere is, for this
// sync, not in the table: its Tenant here (the row moved away) is deleted through the deletion
// budget as a gone row's, and no other row's Tenant is touched. Pure, so it is tested alone.
import { readCluster } from './row/fields.js';
import type { Item } from './dynamo/table-source.js';

export interface Placement {
  /** This sync's cluster; undefined: one cluster for the whole table, as before clusters existed. */
  cluster: string | undefined;
  /** Rows without `cluster` (and rows whose `cluster` cannot be read) are this sync's. */
  claimsUnassigned: boolean;
}

/** One cluster for the whole table: every row without `cluster` is this sync's. */
export const SINGLE_CLUSTER: Placement = { cluster: undefined, claimsUnassigned: true };

/**
 * Whether the row is this sync's. A `cluster` that cannot be read lands on the cluster that claims
 * unassigned rows, where the row is refused and its Tenant says why; every other cluster skips it,
 * so one typo makes one refusal, not one per cluster.
 */
export function placedHere(item: Item, placement: Placement): boolean {
  const cluster = readCluster(item.cluster);
  if (!cluster.ok || cluster.value === undefined) return placement.claimsUnassigned;
  return cluster.value === placement.cluster;
}
