// What sync tells the row about its tenant, in the row's `landlord` attribute (docs/rows.md): the
// tenant's phase, whether it is ready, its URL, why not, and the row hash the Tenant reflects. The
// service that wrote the row reads it there, without Kubernetes credentials. Pure: from what sync
// knows (its verdict on the row, the Tenant as cached) to the content, the content to the attribute,
// and the attribute as read back to the content, so that unchanged content is never written again.
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { findCondition, rfc3339 } from '../../api/conditions.js';
import { ANNOTATION, CONDITION, type Tenant } from '../../api/tenant.js';
import { contentHash } from '../../util/canonical-json.js';
import { truncate } from '../row/text.js';
import type { Verdict } from '../status.js';

/** The row attribute sync writes; outside the row hash, as every attribute the parser does not read. */
export const ROW_STATUS_ATTRIBUTE = 'landlord';

/** The longest message the row carries: a row is at most 400 KB, and a message is for people. */
const MAX_MESSAGE = 1024;

/** The attribute's content; `updatedAt` is written beside it, and is not content. */
export interface RowStatus {
  /**
   * The Tenant's Ready reason (`kubectl get tenants` REASON: Ready, RolloutInProgress, Suspended…),
   * or sync's reason when it refused the row as it is now (InvalidRecord, ApplyRejected…).
   */
  phase: string;
  /** The Tenant runs this very row and is Ready. */
  ready: boolean;
  /** Where the tenant is reached; '' when its class does not expose it. */
  url: string;
  message: string;
  /** The row hash of the spec the Tenant holds (its landlord.dev/row-hash annotation); '' for none. */
  observedHash: string;
}

/** What the content is computed from: sync's verdict on the row as read, and its own Tenant as cached. */
export interface RowStatusFacts {
  /** undefined: the row is gone or says `deleted: true`, and has nothing to be told. */
  verdict: Verdict | undefined;
  /** The Tenant of the row, only when it is this table's (never another's readiness). */
  tenant: Tenant | undefined;
  /** sync has a write of its own to make to the Tenant first (decide() finds one). */
  syncPending: boolean;
}

/**
 * The content the row should carry now, or undefined while there is nothing true to say yet: no
 * Tenant, sync about to write it, or the operator not having looked at its generation. Then nothing
 * is written, and what the row holds stays until there is.
 */
export function rowStatusOf({ verdict, tenant, syncPending }: RowStatusFacts): RowStatus | undefined {
  if (verdict === undefined || tenant === undefined || syncPending) return undefined;
  if (tenant.metadata.deletionTimestamp !== undefined) return undefined;
  return verdict.kind === 'synced' ? runningStatus(tenant, verdict.hash) : refusedStatus(tenant, verdict);
}

const observedHashOf = (tenant: Tenant): string => tenant.metadata.annotations?.[ANNOTATION.rowHash] ?? '';

/** The Tenant holds the row's spec: its Ready condition, once the operator has seen that generation. */
function runningStatus(tenant: Tenant, hash: string): RowStatus | undefined {
  const ready = findCondition(tenant.status?.conditions, CONDITION.ready);
  if (ready?.observedGeneration === undefined || ready.observedGeneration !== tenant.metadata.generation)
    return undefined;
  const observedHash = observedHashOf(tenant);
  return {
    phase: ready.reason,
    ready: ready.status === 'True' && observedHash === hash,
    url: tenant.status?.url ?? '',
    message: bounded(ready.message),
    observedHash,
  };
}

/** Refused or held back: the Tenant still runs the spec before (if any), which this row is not. */
function refusedStatus(tenant: Tenant, verdict: Exclude<Verdict, { kind: 'synced' }>): RowStatus | undefined {
  const synced = findCondition(tenant.status?.conditions, CONDITION.synced);
  if (synced === undefined) return undefined;
  return {
    phase: synced.reason,
    ready: false,
    url: tenant.status?.url ?? '',
    message: bounded(verdict.message),
    observedHash: observedHashOf(tenant),
  };
}

const bounded = (message: string): string => truncate(message, MAX_MESSAGE);

/**
 * A short digest of the content (not updatedAt), which is all sync keeps per row: equal digests,
 * nothing to write. '' for no attribute at all.
 */
export function rowStatusDigest(status: RowStatus | undefined): string {
  return status === undefined ? '' : contentHash(status);
}

/** The attribute as written: the content and the time it was written. */
export function rowStatusAttribute(status: RowStatus, now: Date): AttributeValue {
  return {
    M: {
      phase: { S: status.phase },
      ready: { BOOL: status.ready },
      url: { S: status.url },
      message: { S: status.message },
      observedHash: { S: status.observedHash },
      updatedAt: { S: rfc3339(now) },
    },
  };
}

const text = (value: AttributeValue | undefined): string | undefined => value?.S;

/**
 * The content of the attribute as a row holds it, or undefined when it holds none that sync could
 * have written (absent, another type, a field missing): then the content sync wants is written over it.
 */
export function readRowStatus(item: Record<string, AttributeValue>): RowStatus | undefined {
  const map = Object.hasOwn(item, ROW_STATUS_ATTRIBUTE) ? item[ROW_STATUS_ATTRIBUTE]?.M : undefined;
  if (map === undefined) return undefined;
  const [phase, url, message, observedHash] = ['phase', 'url', 'message', 'observedHash'].map((field) =>
    text(map[field]),
  );
  const ready = map.ready?.BOOL;
  if (phase === undefined || url === undefined || message === undefined || observedHash === undefined)
    return undefined;
  if (ready === undefined) return undefined;
  return { phase, ready, url, message, observedHash };
}
