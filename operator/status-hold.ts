// A status that only says a rollout is under way is worth less than the one that follows it.
// Right after an apply the Deployment is rolling out, and its controller and the kubelet report
// progress several times before it is available: written each time, a new Tenant costs two or
// three status writes where one (Ready) says all. So the first status for a new generation is held
// back while it only says the rollout is under way, and written when the rollout ends (Ready), when
// something goes wrong (a failure, the Deployment's progress deadline: Degraded), or when the hold
// runs out: a minute on a quiet cluster, so observedGeneration never lags long behind an apply, and
// as long as rollouts currently take when the controllers have a backlog (RolloutTimes).
// Suspending, archiving, purging and pausing are written at once (Ready says why, not "rolling
// out"); resuming is an apply like any other. The Events of a status go with its write; the
// Created/Updated Event of an apply is recorded when the apply is made, held or not. Once a
// generation is reported, a change (a Deployment losing its pods) is written at once.
import { findCondition } from '../api/conditions.js';
import { CONDITION, type Tenant } from '../api/tenant.js';
import { OPERATOR_REASON } from './reasons.js';
import type { OperatorStatus } from './status.js';

/**
 * How long a rollout-in-progress status waits for the rollout to finish before it is written, on a
 * cluster whose rollouts are quick. Long enough for a rollout on a busy cluster (at 1,000 new
 * Tenants at once, 10 s merged too few).
 */
const ROLLOUT_HOLD_MS = 60_000;
/**
 * The longest hold, however slow rollouts get: the Deployment's own progress deadline (600 s by
 * default) reports a stuck rollout by then, and observedGeneration lags no longer than that.
 */
const ROLLOUT_HOLD_MAX_MS = 600_000;
/** Rollouts that ended longer ago than this say nothing about how long one takes now. */
const RECENT_MS = 600_000;
const RECENT_KEPT = 256;
/** The hold is recomputed at most this often: a reconcile asks for it every time. */
const RECOMPUTE_MS = 1_000;

const ROLLING_OUT: ReadonlySet<string> = new Set([
  OPERATOR_REASON.rolloutInProgress,
  OPERATOR_REASON.deploymentUnavailable,
  // The first step of a new tenant's rollout: its workload waits for its quota (apply.ts).
  OPERATOR_REASON.waitingForQuota,
]);

/** Ready=False only because the Deployment has not finished rolling out (or started): no failure, no state. */
export function rollingOut(status: OperatorStatus): boolean {
  const ready = findCondition(status.conditions, CONDITION.ready);
  const degraded = findCondition(status.conditions, CONDITION.degraded);
  return ready?.status === 'False' && ROLLING_OUT.has(ready.reason) && degraded?.status !== 'True';
}

const isReady = (status: OperatorStatus): boolean =>
  findCondition(status.conditions, CONDITION.ready)?.status === 'True';

/**
 * How long rollouts take now, from the ones that ended lately. When thousands of Tenants are new at
 * once the controllers' backlog makes every rollout outlast a fixed hold, and each Tenant then
 * costs two status writes that say nothing the Created Event has not said: the hold follows the
 * rollouts instead, twice the slow end (90th percentile) of those that ended in the last ten
 * minutes, because under a growing backlog a rollout starting now takes longer than the ones just
 * finished. Never below ROLLOUT_HOLD_MS, never above ROLLOUT_HOLD_MAX_MS.
 */
export class RolloutTimes {
  private readonly ended: { at: number; ms: number }[] = [];
  private computed: { at: number; holdMs: number } | undefined;

  constructor(
    private readonly minMs = ROLLOUT_HOLD_MS,
    private readonly maxMs = ROLLOUT_HOLD_MAX_MS,
  ) {}

  /** A rollout that took `ms` ended (its Tenant turned Ready). */
  recordEnded(ms: number, now: number): void {
    this.ended.push({ at: now, ms });
    if (this.ended.length > RECENT_KEPT) this.ended.shift();
    this.computed = undefined;
  }

  /** How long a rollout-in-progress status is held now. */
  holdMs(now: number): number {
    if (this.computed !== undefined && now - this.computed.at < RECOMPUTE_MS) return this.computed.holdMs;
    while (this.ended.length > 0 && this.ended[0]!.at < now - RECENT_MS) this.ended.shift();
    const sorted = this.ended.map((e) => e.ms).sort((a, b) => a - b);
    const p90 = sorted.length === 0 ? 0 : sorted[Math.ceil(sorted.length * 0.9) - 1]!;
    const holdMs = Math.min(this.maxMs, Math.max(this.minMs, 2 * p90));
    this.computed = { at: now, holdMs };
    return holdMs;
  }
}

interface Rollout {
  generation: number;
  /** When a rolling-out status for this generation was first seen. */
  start: number;
}

export class StatusHold {
  /**
   * Tenant → the rollout of its current generation, from its first rolling-out status until it is
   * Ready (its duration is then recorded), fails, or the Tenant goes. One entry per Tenant rolling out.
   */
  private readonly rollouts = new Map<string, Rollout>();

  constructor(private readonly times = new RolloutTimes()) {}

  /** Milliseconds to wait before writing this status, or 0 to write it now. */
  delay(tenant: Tenant, next: OperatorStatus, now: number): number {
    const name = tenant.metadata.name!;
    const generation = tenant.metadata.generation ?? 0;
    const reported = tenant.status?.observedGeneration === generation;
    let rollout = this.rollouts.get(name);
    if (!rollingOut(next)) {
      if (rollout?.generation === generation && isReady(next))
        this.times.recordEnded(now - rollout.start, now);
      this.rollouts.delete(name);
      return 0;
    }
    // A reported generation is never held: one that loses its pods is news, and one whose hold ran
    // out is written already (its rollout, if timed, is timed on to its end for the next holds).
    if (reported) return 0;
    if (rollout?.generation !== generation) {
      rollout = { generation, start: now };
      this.rollouts.set(name, rollout);
    }
    return Math.max(0, rollout.start + this.times.holdMs(now) - now);
  }

  /** The Tenant is gone: nothing to hold, no rollout to time. */
  forget(tenant: string): void {
    this.rollouts.delete(tenant);
  }
}
