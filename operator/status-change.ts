// What a new status of the operator's changes on the Tenant: whether it differs at all from what
// the Tenant already says (the runtime's status writer writes only then, by server-side apply under
// the operator's own field manager, so sync's Synced condition is never touched), and whether it
// brings a new failure to announce.
import { isDeepStrictEqual } from 'node:util';
import { findCondition, sameConditions } from '../api/conditions.js';
import { CONDITION, type Tenant } from '../api/tenant.js';
import { FACET_CONDITIONS } from './facets/engine.js';
import { OPERATOR_CONDITIONS, type OperatorStatus } from './status.js';

/** The operator's single-valued status fields, compared as they are. */
const SCALAR_FIELDS = [
  'observedGeneration',
  'replicas',
  'readyReplicas',
  'replicaSummary',
  'deployment',
  'state',
  'namespace',
  'url',
  'class',
  'classSource',
] as const satisfies readonly (keyof OperatorStatus)[];

/** True when the Tenant already says everything the operator would write. */
export function unchanged(tenant: Tenant, next: OperatorStatus): boolean {
  const current = tenant.status ?? {};
  return (
    sameConditions(current.conditions, next.conditions, OPERATOR_CONDITIONS) &&
    SCALAR_FIELDS.every((field) => current[field] === next[field]) &&
    isDeepStrictEqual(current.configMaps ?? [], next.configMaps ?? []) &&
    isDeepStrictEqual(current.workloads, next.workloads)
  );
}

/** The Applied failure to announce with an Event: only when it is new, so retries do not spam. */
export function newFailure(
  tenant: Tenant,
  next: OperatorStatus,
): { reason: string; message: string } | undefined {
  const after = findCondition(next.conditions, CONDITION.applied);
  // Only False is a failure: Unknown means paused, which is announced as a transition instead.
  if (after === undefined || after.status !== 'False') return undefined;
  // A refusal of the row itself is sync's to announce (its own Event); Applied only repeats its reason.
  if (findCondition(tenant.status?.conditions, CONDITION.synced)?.reason === after.reason) return undefined;
  const before = findCondition(tenant.status?.conditions, CONDITION.applied);
  const same =
    before?.status === after.status && before.reason === after.reason && before.message === after.message;
  return same ? undefined : { reason: after.reason, message: after.message };
}

/**
 * Each facet condition (SecretsReady, …) that turned False or changed its reason or message: a
 * Warning Event each, once, so a tenant's team learns of it without watching status.
 */
export function newFacetProblems(
  tenant: Tenant,
  next: OperatorStatus,
): { reason: string; message: string }[] {
  return FACET_CONDITIONS.flatMap((type) => {
    const after = findCondition(next.conditions, type);
    if (after?.status !== 'False') return [];
    const before = findCondition(tenant.status?.conditions, type);
    const same =
      before?.status === 'False' && before.reason === after.reason && before.message === after.message;
    return same ? [] : [{ reason: after.reason, message: after.message }];
  });
}
