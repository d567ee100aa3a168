// A status that only says a rollout is under way is worth less than the one that follows it.
// Right after an apply the Deployment is rolling out, and its controller and the kubelet report
// progress several times before it is available: written each time, a new Tenant costs two or
// three status writes where one (Ready) says all. So the first status for a new generation is held
// back while it only says the rollout is under way, and written when the rollout ends (Ready), when
// something goes wrong (a failure, the Deployment's progress deadline: Degraded), or after
// ROLLOUT_HOLD_MS at the latest, so observedGeneration never lags a minute behind an apply.
// Suspending, archiving, purging and pausing are written at once (Ready says why, not "rolling
// out"); resuming is an apply like any other. The Events of a status go with its write; the
// Created/Updated Event of an apply is recorded when the apply is made, held or not. Once a
// generation is reported, a change (a Deployment losing its pods) is written at once.
import { findCondition } from '../api/conditions.js';
import { CONDITION, type Tenant } from '../api/tenant.js';
import { REASON } from './reasons.js';
import type { OperatorStatus } from './status.js';

/**
 * How long a rollout-in-progress status waits for the rollout to finish before it is written. Long
 * enough for a rollout on a busy cluster (at 1,000 new Tenants at once, 10 s merged too few).
 */
export const ROLLOUT_HOLD_MS = 60_000;

const ROLLING_OUT: ReadonlySet<string> = new Set([REASON.rolloutInProgress, REASON.deploymentUnavailable]);

/** Ready=False only because the Deployment has not finished rolling out: no failure, no state. */
export function rollingOut(status: OperatorStatus): boolean {
  const ready = findCondition(status.conditions, CONDITION.ready);
  const degraded = findCondition(status.conditions, CONDITION.degraded);
  return ready?.status === 'False' && ROLLING_OUT.has(ready.reason) && degraded?.status !== 'True';
}

export class StatusHold {
  /** Tenant → when a rollout-in-progress status was first held back. One entry per Tenant rolling out. */
  private readonly since = new Map<string, number>();

  constructor(private readonly holdMs = ROLLOUT_HOLD_MS) {}

  /** Milliseconds to wait before writing this status, or 0 to write it now. */
  delay(tenant: Tenant, next: OperatorStatus, now: number): number {
    const name = tenant.metadata.name!;
    const reported = tenant.status?.observedGeneration === tenant.metadata.generation;
    if (reported || !rollingOut(next)) {
      this.since.delete(name);
      return 0;
    }
    const start = this.since.get(name) ?? now;
    const left = start + this.holdMs - now;
    if (left <= 0) {
      this.since.delete(name);
      return 0;
    }
    this.since.set(name, start);
    return left;
  }

  /** Nothing is waiting to be written (the Tenant says it already, or is gone). */
  forget(tenant: string): void {
    this.since.delete(tenant);
  }
}
