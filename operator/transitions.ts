// The Events that announce a lifecycle change: a state reached, a pause begun or ended. Decided by
// comparing the status the Tenant holds with the status about to be written, so each transition is
// announced once, by the reconcile that makes it, and never again on a resync or after a restart.
import { findCondition } from '../api/conditions.js';
import { CONDITION, DEFAULT_STATE, type Tenant, type TenantState } from '../api/tenant.js';
import type { EventType } from '../runtime/kube/events.js';
import { OPERATOR_EVENT, LIFECYCLE_MESSAGE, OPERATOR_REASON } from './reasons.js';
import type { OperatorStatus } from './status.js';

export interface Announcement {
  type: EventType;
  reason: string;
  message: string;
}

export function transitions(tenant: Tenant, next: OperatorStatus): Announcement[] {
  return [pauseChange(tenant, next), stateChange(tenant, next)].filter((a) => a !== undefined);
}

function stateChange(tenant: Tenant, next: OperatorStatus): Announcement | undefined {
  const before = tenant.status?.state ?? DEFAULT_STATE;
  const after = next.state ?? DEFAULT_STATE;
  return before === after ? undefined : reached(after, before);
}

function reached(state: TenantState, from: TenantState): Announcement {
  switch (state) {
    case 'active':
      return {
        type: 'Normal',
        reason: OPERATOR_EVENT.resumed,
        message: LIFECYCLE_MESSAGE.eventResumed(from),
      };
    case 'suspended':
      return { type: 'Normal', reason: OPERATOR_EVENT.suspended, message: LIFECYCLE_MESSAGE.eventSuspended };
    case 'archived':
      return { type: 'Normal', reason: OPERATOR_EVENT.archived, message: LIFECYCLE_MESSAGE.eventArchived };
    case 'purged':
      // The data is the purger's to delete and announce (PurgeScheduled, PurgeStarted, …).
      return {
        type: 'Normal',
        reason: OPERATOR_EVENT.purgeRequested,
        message: LIFECYCLE_MESSAGE.eventPurgeRequested,
      };
  }
}

function pauseChange(tenant: Tenant, next: OperatorStatus): Announcement | undefined {
  const wasPaused = readyReason(tenant.status) === OPERATOR_REASON.paused;
  const isPaused = readyReason(next) === OPERATOR_REASON.paused;
  if (wasPaused === isPaused) return undefined;
  return isPaused
    ? { type: 'Normal', reason: OPERATOR_EVENT.paused, message: LIFECYCLE_MESSAGE.eventPaused }
    : { type: 'Normal', reason: OPERATOR_EVENT.unpaused, message: LIFECYCLE_MESSAGE.eventUnpaused };
}

const readyReason = (status: OperatorStatus | undefined): string | undefined =>
  findCondition(status?.conditions, CONDITION.ready)?.reason;
