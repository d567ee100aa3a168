// Kubernetes condition bookkeeping shared by every status writer: lastTransitionTime moves only
// when status moves, so rewriting the same facts never looks like a change.
import type { Condition, ConditionStatus } from './tenant.js';

export interface ConditionInput {
  type: string;
  status: ConditionStatus;
  reason: string;
  message: string;
}

/** Builds the full condition, keeping the previous transition time when the status is unchanged. */
export function toCondition(
  input: ConditionInput,
  previous: readonly Condition[] | undefined,
  generation: number | undefined,
  now: Date,
): Condition {
  const before = previous?.find((c) => c.type === input.type);
  const lastTransitionTime =
    before !== undefined && before.status === input.status ? before.lastTransitionTime : rfc3339(now);
  return {
    type: input.type,
    status: input.status,
    ...(generation === undefined ? {} : { observedGeneration: generation }),
    lastTransitionTime,
    reason: input.reason,
    message: input.message,
  };
}

/** True when the two lists hold the same conditions of the given types, field for field. */
export function sameConditions(
  a: readonly Condition[] | undefined,
  b: readonly Condition[] | undefined,
  types: readonly string[],
): boolean {
  return types.every((type) => {
    const x = a?.find((c) => c.type === type);
    const y = b?.find((c) => c.type === type);
    if (x === undefined || y === undefined) return x === y;
    return (
      x.status === y.status &&
      x.reason === y.reason &&
      x.message === y.message &&
      x.observedGeneration === y.observedGeneration &&
      x.lastTransitionTime === y.lastTransitionTime
    );
  });
}

export function findCondition(
  conditions: readonly Condition[] | undefined,
  type: string,
): Condition | undefined {
  return conditions?.find((c) => c.type === type);
}

/** RFC 3339 with second precision, as metav1.Time serializes; finer precision would never compare equal. */
export function rfc3339(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}
