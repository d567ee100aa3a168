// The hash gate: whether a row asks for any write at all. An unchanged table must cost no API
// writes, so every write sync makes is first decided here, from the row's state and the cached
// Tenant alone.
import { findCondition } from '../api/conditions.js';
import { ANNOTATION, CONDITION, type Tenant } from '../api/tenant.js';
import { ownedAnnotations, ownedLabels, type TableIdentity } from './identity.js';
import type { RowState } from './row-book.js';
import { desiredStatus, statusCurrent, type Verdict } from './status.js';

/** The labels and the table annotation sync sets are all in place. */
export function metadataCurrent(tenant: Tenant, identity: TableIdentity): boolean {
  const labels = tenant.metadata.labels ?? {};
  const annotations = tenant.metadata.annotations ?? {};
  return (
    Object.entries(ownedLabels(identity)).every(([key, value]) => labels[key] === value) &&
    Object.entries(ownedAnnotations(identity)).every(([key, value]) => annotations[key] === value)
  );
}

/**
 * Someone else changed the spec since sync last synced it: the generation moved past the one its
 * Synced=True condition observed. Only sync writes the spec, and it writes the condition right
 * after; a generation it has not seen is an edit the row must overwrite.
 */
export function editedSinceSynced(tenant: Tenant): boolean {
  const synced = findCondition(tenant.status?.conditions, CONDITION.synced);
  return (
    synced?.status === 'True' &&
    synced.observedGeneration !== undefined &&
    synced.observedGeneration !== tenant.metadata.generation
  );
}

/** The Tenant holds the spec of the row with this hash (as its row-hash annotation records). */
export function specCurrent(tenant: Tenant | undefined, hash: string, identity: TableIdentity): boolean {
  return (
    tenant !== undefined &&
    tenant.metadata.deletionTimestamp === undefined &&
    tenant.metadata.annotations?.[ANNOTATION.rowHash] === hash &&
    metadataCurrent(tenant, identity) &&
    !editedSinceSynced(tenant)
  );
}

/** Whether the row's Tenant needs any write: its spec, its creation, its status or its deletion. */
export function needsWrite(
  row: RowState,
  verdict: Verdict | undefined,
  tenant: Tenant | undefined,
  context: { identity: TableIdentity; now: Date },
): boolean {
  if (row.kind === 'deleted' || verdict === undefined) return tenant !== undefined;
  if (tenant === undefined) return true;
  if (verdict.kind === 'synced' && !specCurrent(tenant, verdict.hash, context.identity)) return true;
  return !statusCurrent(tenant, desiredStatus(verdict, tenant, context.identity.table, context.now));
}
