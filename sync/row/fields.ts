// The row's scalar attributes: `name` (the hash key), `deleted`, `state`, `class` and `cluster`.
import { DEFAULT_STATE, TENANT_STATES, isTenantState, type TenantState } from '../../api/tenant.js';
import { describeAttribute, readAttribute } from './attribute.js';
import {
  DNS1123_LABEL_RULE,
  DNS1123_SUBDOMAIN_RULE,
  isDns1123Label,
  isDns1123Subdomain,
} from '../../util/names.js';
import { fail, ok } from './step.js';
import type { StepResult } from './step.js';
import { quote } from './text.js';

/** The tenant name: an S holding a DNS-1123 label, since it becomes the Tenant's name. */
export function readName(value: unknown): StepResult<string> {
  if (value === undefined) {
    return fail('name: required');
  }
  const attribute = readAttribute(value);
  if (attribute?.tag !== 'S') {
    return fail(`name: must be a string (S), got ${describeAttribute(attribute)}`);
  }
  if (!isDns1123Label(attribute.value)) {
    return fail(`name: ${quote(attribute.value)} is not a DNS-1123 label (${DNS1123_LABEL_RULE})`);
  }
  return ok(attribute.value);
}

/** An optional attribute left out or written as NULL: the row says nothing, so the default holds. */
const saysNothing = (value: unknown): boolean => value === undefined || readAttribute(value)?.tag === 'NULL';

/**
 * Whether the row asks for deletion. Only a BOOL counts: guessing at S "true" or N 1 could delete
 * a tenant nobody meant to delete, or keep one somebody did.
 */
export function readDeleted(value: unknown): StepResult<boolean> {
  if (saysNothing(value)) return ok(false);
  const attribute = readAttribute(value);
  if (attribute?.tag !== 'BOOL') {
    return fail(`deleted: must be a BOOL, got ${describeAttribute(attribute)}`);
  }
  return ok(attribute.value);
}

/**
 * The tenant's lifecycle state: an S naming one of the states, exactly as spelled. Absent or NULL
 * is active, as for every row written before states existed. A misspelt state is refused rather
 * than guessed at: read as active, "archvied" would keep a churned tenant running.
 */
export function readState(value: unknown): StepResult<TenantState> {
  if (saysNothing(value)) return ok(DEFAULT_STATE);
  const attribute = readAttribute(value);
  if (attribute?.tag !== 'S') {
    return fail(`state: must be a string (S), got ${describeAttribute(attribute)}; ${ALLOWED_STATES}`);
  }
  if (!isTenantState(attribute.value)) {
    return fail(`state: ${quote(attribute.value)} is not a state; ${ALLOWED_STATES}`);
  }
  return ok(attribute.value);
}

const ALLOWED_STATES = `allowed: ${TENANT_STATES.join(', ')} (absent: ${DEFAULT_STATE})`;

/** A cluster name becomes a label value on the Tenant, so it is held to a label value's 63 characters. */
const CLUSTER_MAX_LENGTH = 63;
const CLUSTER_RULE = `a DNS-1123 label or subdomain of at most ${CLUSTER_MAX_LENGTH} characters`;

/** Whether a configured or written cluster name is one sync accepts. */
const isClusterName = (value: string): boolean =>
  value.length <= CLUSTER_MAX_LENGTH && isDns1123Subdomain(value);

/**
 * The cluster the row is placed on. Absent or NULL: none, as for every row written before clusters
 * existed (the cluster that claims unassigned rows mirrors it). Anything else must name a cluster
 * exactly: a misspelt cluster read as none would put the tenant on the wrong cluster.
 */
export function readCluster(value: unknown): StepResult<string | undefined> {
  if (saysNothing(value)) return ok(undefined);
  const attribute = readAttribute(value);
  if (attribute?.tag !== 'S') {
    return fail(`cluster: must be a string (S), got ${describeAttribute(attribute)}`);
  }
  if (!isClusterName(attribute.value)) {
    return fail(`cluster: ${quote(attribute.value)} is not ${CLUSTER_RULE}`);
  }
  return ok(attribute.value);
}

/**
 * The TenantClass whose policy applies: an S naming a class, which becomes the Tenant's spec.class.
 * Absent or NULL: none, and the default class applies. Whether such a class exists is the
 * operator's question (ClassNotFound); a value no class could be named is refused here.
 */
export function readClass(value: unknown): StepResult<string | undefined> {
  if (saysNothing(value)) return ok(undefined);
  const attribute = readAttribute(value);
  if (attribute?.tag !== 'S') {
    return fail(`class: must be a string (S), got ${describeAttribute(attribute)}`);
  }
  if (!isDns1123Subdomain(attribute.value)) {
    return fail(`class: ${quote(attribute.value)} is not a TenantClass name (${DNS1123_SUBDOMAIN_RULE})`);
  }
  return ok(attribute.value);
}
