// What sync keeps of every Tenant (its own and others': identity.ts says whose is whose) in its
// Tenant cache (runtime/kube/tenant-cache.ts). sync decides from a Tenant's metadata (row-hash
// annotation, table labels, generation) and its own part of the status; the spec it writes comes
// from the row, never from a Tenant. The cache and the copies its writes return keep only the
// spec's state (at 10,000 Tenants the specs were most of sync's heap), and none of the operator's
// conditions (~0.6 KB per Tenant). With LANDLORD_SYNC_ROW_STATUS it keeps the little the row is told
// besides (row-status/): the Ready condition without its time, and status.url.
import type { Unread } from '../runtime/kube/informer.js';
import type { TenantCacheOptions } from '../runtime/kube/tenant-cache.js';
import { CONDITION, type Condition, type TenantSpec, type TenantStatus } from '../api/tenant.js';

// keepUpdaters: a Tenant sync created by POST names sync among its updaters until its first apply
// hands those fields over (tenant-writer.ts).
export const UNREAD: Unread = { keepOfSpec: syncsPartOfSpec, keepOfStatus: syncsPart, keepUpdaters: true };

/**
 * sync creates Tenants: one it made (or read) is seen before the watch lists it, or a row read again
 * within the watch's delay would look unwritten and be written twice.
 */
export const SYNC_TENANT_CACHE: TenantCacheOptions = { unread: UNREAD, seesUnlisted: true };

/** What sync keeps when it tells rows their readiness: its own part, and the Tenant's readiness. */
export const READINESS_UNREAD: Unread = { ...UNREAD, keepOfStatus: syncsPartAndReadiness };

/** The Tenant cache of a sync that tells rows their readiness (LANDLORD_SYNC_ROW_STATUS). */
export const READINESS_TENANT_CACHE: TenantCacheOptions = { ...SYNC_TENANT_CACHE, unread: READINESS_UNREAD };

/**
 * The state the spec holds: whether a row's state takes the tenant down (takedown.ts) depends on
 * the state its Tenant is in. An empty spec still says there is one, unlike a bare Tenant's none.
 */
function syncsPartOfSpec(spec: unknown): unknown {
  if (typeof spec !== 'object' || spec === null) return spec;
  const { state } = spec as TenantSpec;
  return state === undefined ? {} : { state };
}

/** The Synced condition and status.sync (status.ts): all sync reads of a Tenant's status. */
function syncsPart(status: unknown): unknown {
  if (typeof status !== 'object' || status === null) return status;
  const { conditions, sync } = status as TenantStatus;
  const part: TenantStatus = {};
  const synced = conditions?.filter((c) => c.type === CONDITION.synced);
  if (synced !== undefined) part.conditions = synced;
  if (sync !== undefined) part.sync = sync;
  return part;
}

/**
 * sync's part, plus the Ready condition (without lastTransitionTime, which the row is not told) and
 * status.url: what the row's `landlord` attribute is made of (row-status/content.ts).
 */
function syncsPartAndReadiness(status: unknown): unknown {
  const part = syncsPart(status);
  if (typeof part !== 'object' || part === null) return part;
  const { conditions, url } = status as TenantStatus;
  const ready = conditions?.find((c) => c.type === CONDITION.ready);
  const kept = part as TenantStatus;
  if (ready !== undefined) {
    const { type, status: value, reason, message, observedGeneration } = ready;
    const slim = { type, status: value, reason, message, observedGeneration } as Condition;
    kept.conditions = [...(kept.conditions ?? []), slim];
  }
  if (url !== undefined) kept.url = url;
  return kept;
}
