// `landlord validate`, the pure part: one row (as JSON) and the operator's policy config in, the
// verdict out. Every check is the components' own: sync's readRow (parseRow, then its limits), then the operator's
// desiredState (its policy, shaped by the row's state) on the Tenant sync would apply, so the verdict carries the very reason and
// message the Tenant would show. What needs the cluster (a child owned by someone else, the API
// server refusing an apply) cannot be seen from here.
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import { CONDITION, type TenantSpec, type TenantState } from '../api/tenant.js';
import { desiredState } from '../operator/facets/engine.js';
import type { TenantClass } from '../api/tenantclass.js';
import type { PolicyConfig } from '../operator/policy/index.js';
import { classTemplates } from '../operator/namespaces/rules.js';
import { fallbackClass, resolveClass, type ClassResolution } from '../operator/tenancy/resolve-class.js';
import { readRow } from '../sync/row/index.js';
import { SYNC_REASON } from '../sync/reasons.js';
import { appliedTenant } from './applied-tenant.js';

export type { PolicyConfig } from '../operator/policy/index.js';

export const EXIT = { valid: 0, refused: 1, usage: 2 } as const;

/** How the row was written: as the DocumentClient takes it, or as DynamoDB stores it. */
type RowForm = 'document' | 'attribute-values';

interface ChildSummary {
  kind: string;
  namespace: string | undefined;
  name: string | undefined;
}

/** The condition the Tenant would carry for a refused row. */
interface RefusedCondition {
  type: typeof CONDITION.synced | typeof CONDITION.applied;
  status: 'False';
  reason: string;
  message: string;
}

export type RowVerdict =
  /**
   * `children`: what the operator would keep in `state` (none when archived or purged), under the
   * TenantClass `class` (`built-in` when no classes were given).
   */
  | {
      verdict: 'valid';
      form: RowForm;
      name: string;
      class: string;
      state: TenantState;
      children: ChildSummary[];
      /** Where the tenant would be reached, when its class exposes it (status.url). */
      url?: string;
    }
  | { verdict: 'deleted'; form: RowForm; name: string }
  /** `name` is undefined when the name itself is refused: sync then makes no Tenant of the row. */
  | { verdict: 'refused'; form: RowForm; name: string | undefined; condition: RefusedCondition }
  /** Not a row at all (not an object, or nothing the DocumentClient could put): a usage error. */
  | { verdict: 'unreadable'; message: string };

export function exitCode(verdict: RowVerdict): number {
  switch (verdict.verdict) {
    case 'valid':
    case 'deleted':
      return EXIT.valid;
    case 'refused':
      return EXIT.refused;
    case 'unreadable':
      return EXIT.usage;
  }
}

/**
 * Judges one row, parsed from JSON, as sync and then the operator would. With `classes` (the
 * platform's TenantClasses) the row is judged under the class the operator would give it, else
 * under the built-in one, as an install without TenantClasses would.
 */
export function validateRow(
  row: unknown,
  policy: PolicyConfig,
  classes?: readonly TenantClass[],
  table?: string,
): RowVerdict {
  if (typeof row !== 'object' || row === null || Array.isArray(row)) {
    return { verdict: 'unreadable', message: 'a row must be a JSON object of attributes' };
  }
  const form: RowForm = isAttributeValueItem(row as Record<string, unknown>)
    ? 'attribute-values'
    : 'document';
  const item = form === 'document' ? documentToItem(row as Record<string, unknown>) : row;
  if (typeof item === 'string') return { verdict: 'unreadable', message: item };
  const parsed = readRow(item as Record<string, AttributeValue>);
  switch (parsed.kind) {
    case 'deleted':
      return { verdict: 'deleted', form, name: parsed.name };
    case 'invalid': {
      const { message } = parsed.problem;
      const condition = refusedCondition(CONDITION.synced, SYNC_REASON.invalidRecord, message);
      return { verdict: 'refused', form, name: parsed.name, condition };
    }
    case 'tenant':
      return judgeTenant({ name: parsed.name, form, table }, parsed.spec, policy, classes);
  }
}

function judgeTenant(
  row: { name: string; form: RowForm; table?: string },
  spec: TenantSpec,
  policy: PolicyConfig,
  classes: readonly TenantClass[] | undefined,
): RowVerdict {
  const { name, form } = row;
  const tenant = appliedTenant(name, spec, undefined, row.table);
  const resolved: ClassResolution =
    classes === undefined
      ? { ok: true, policy: policy.tenantClass, source: 'Default' }
      : resolveClass(tenant, classes, fallbackClass(policy));
  if (!resolved.ok) return refused(row, resolved.refusal);
  const templates = classes === undefined ? undefined : classTemplates(classes);
  const result = desiredState(tenant, {
    ...policy,
    tenantClass: resolved.policy,
    classTemplates: templates,
  });
  if (!result.ok) return refused(row, result.refusal);
  const children = result.children.map(({ ref }) => ({
    kind: ref.kind,
    // A Namespace (PerTenant) is cluster-scoped: its ref's namespace is "".
    namespace: ref.namespace === '' ? undefined : ref.namespace,
    name: ref.name,
  }));
  const url = result.status.url === undefined ? {} : { url: result.status.url };
  return { verdict: 'valid', form, name, class: resolved.policy.name, state: result.state, children, ...url };
}

/** The operator's refusal (a class it cannot choose, or its policy's): the Applied condition. */
function refused(
  { name, form }: { name: string; form: RowForm },
  { reason, message }: { reason: string; message: string },
): RowVerdict {
  return { verdict: 'refused', form, name, condition: refusedCondition(CONDITION.applied, reason, message) };
}

function refusedCondition(type: RefusedCondition['type'], reason: string, message: string): RefusedCondition {
  return { type, status: 'False', reason, message };
}

const TYPE_TAGS = new Set(['S', 'N', 'B', 'SS', 'NS', 'BS', 'M', 'L', 'NULL', 'BOOL']);

/**
 * True when every attribute is written as one AttributeValue ({"S": "..."}): no DocumentClient row
 * looks like that, since its name is a plain string and a manifest has more than one key.
 */
function isAttributeValueItem(row: Record<string, unknown>): boolean {
  const values = Object.values(row);
  return (
    values.length > 0 &&
    values.every((value) => {
      if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
      const keys = Object.keys(value);
      return keys.length === 1 && TYPE_TAGS.has(keys[0]!);
    })
  );
}

/**
 * The item DynamoDB stores for this DocumentClient row: the DocumentClient converts with this same
 * marshall and these same (default) options. Returns the problem when it would refuse the row.
 */
function documentToItem(row: Record<string, unknown>): Record<string, AttributeValue> | string {
  try {
    return marshall(row);
  } catch (err) {
    return `the DocumentClient could not put this row: ${err instanceof Error ? err.message : String(err)}`;
  }
}
