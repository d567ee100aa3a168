import { describe, expect, it } from 'vitest';
import { deploymentCondition, statusInput } from '../testing/operator-status.js';
import { childRef } from './child-ref.js';
import { retryable } from './reconcile-error.js';
import { computeStatus, type StatusInput } from './status.js';
import { RolloutTimes, rollingOut, StatusHold } from './status-hold.js';

const HOLD_MS = 10_000;
const HOLD_MAX_MS = 100_000;
const newHold = (): StatusHold => new StatusHold(new RolloutTimes(HOLD_MS, HOLD_MAX_MS));

/** The status for a new generation whose Deployment was just applied: 0 of 2 replicas available. */
function justApplied(tweak: (input: StatusInput) => void = () => undefined): StatusInput {
  return statusInput((i) => {
    i.deployment!.status = { observedGeneration: 5, replicas: 2, updatedReplicas: 2, availableReplicas: 0 };
    deploymentCondition(i, 'Available', {
      status: 'False',
      reason: 'MinimumReplicasUnavailable',
      message: 'Deployment does not have minimum availability.',
    });
    tweak(i);
  });
}

describe('rollingOut', () => {
  it('is true while a healthy rollout is under way, false once it is Ready', () => {
    expect(rollingOut(computeStatus(justApplied()))).toBe(true);
    expect(rollingOut(computeStatus(statusInput()))).toBe(false);
  });

  it('is false for a failure, a rollout that is stuck, a state and a pause: those are news', () => {
    const failed = justApplied((i) => (i.error = retryable('ApplyFailed', 'the API server is down')));
    const stuck = justApplied((i) =>
      deploymentCondition(i, 'Progressing', {
        status: 'False',
        reason: 'ProgressDeadlineExceeded',
        message: 'stuck',
      }),
    );
    const suspended = justApplied((i) => (i.state = 'suspended'));
    const paused = justApplied((i) => (i.paused = true));
    for (const input of [failed, stuck, suspended, paused])
      expect(rollingOut(computeStatus(input))).toBe(false);
  });
});

describe('StatusHold', () => {
  it('holds the first status of a new generation while it only says the rollout is under way', () => {
    const hold = newHold();
    const input = justApplied();
    const status = computeStatus(input);
    expect(hold.delay(input.tenant, status, 1_000)).toBe(HOLD_MS);
    // Later reconciles (the Deployment's events) wait out what is left, not a new hold each.
    expect(hold.delay(input.tenant, status, 4_000)).toBe(HOLD_MS - 3_000);
    // The rollout took too long: the status is written after all.
    expect(hold.delay(input.tenant, status, 1_000 + HOLD_MS)).toBe(0);
  });

  it("holds a new tenant's wait for its quota as the first step of its rollout", () => {
    const hold = newHold();
    const quotaWait = { ref: childRef('ResourceQuota', 'team-a', 'landlord-quota'), resources: ['pods'] };
    const waiting = statusInput((i) => {
      i.deployment = undefined;
      i.quotaWait = quotaWait;
    });
    expect(hold.delay(waiting.tenant, computeStatus(waiting), 1_000)).toBe(HOLD_MS);
    // The workload applied, the rollout goes on within the same hold.
    const rolling = justApplied();
    expect(hold.delay(rolling.tenant, computeStatus(rolling), 3_000)).toBe(HOLD_MS - 2_000);
  });

  it('writes Ready at once, and starts afresh after it', () => {
    const hold = newHold();
    const rolling = justApplied();
    expect(hold.delay(rolling.tenant, computeStatus(rolling), 0)).toBe(HOLD_MS);
    const ready = statusInput();
    expect(hold.delay(ready.tenant, computeStatus(ready), 2_000)).toBe(0);
    expect(hold.delay(rolling.tenant, computeStatus(rolling), 9_000)).toBe(HOLD_MS);
  });

  it('never holds a change to a generation already reported: a Deployment losing its pods is news', () => {
    const hold = newHold();
    const input = justApplied();
    input.tenant.status = { observedGeneration: input.tenant.metadata.generation };
    expect(hold.delay(input.tenant, computeStatus(input), 0)).toBe(0);
  });

  it('forgets a Tenant that is gone', () => {
    const hold = newHold();
    const input = justApplied();
    const status = computeStatus(input);
    hold.delay(input.tenant, status, 0);
    hold.forget(input.tenant.metadata.name!);
    expect(hold.delay(input.tenant, status, 5_000)).toBe(HOLD_MS);
  });

  it('holds as long as rollouts take now when they outlast the hold, and times a written one to its end', () => {
    const hold = newHold();
    const rolling = justApplied();
    const tenant = rolling.tenant;
    expect(hold.delay(tenant, computeStatus(rolling), 0)).toBe(HOLD_MS);
    // The hold ran out and the rolling-out status was written; the rollout goes on.
    expect(hold.delay(tenant, computeStatus(rolling), HOLD_MS)).toBe(0);
    tenant.status = { observedGeneration: tenant.metadata.generation };
    expect(hold.delay(tenant, computeStatus(rolling), 20_000)).toBe(0);
    // It ends 30 s after it began: the next new generation is held twice that.
    const ready = statusInput((i) => (i.tenant = tenant));
    expect(hold.delay(tenant, computeStatus(ready), 30_000)).toBe(0);
    const next = justApplied((i) => (i.tenant.metadata.name = 'other'));
    expect(hold.delay(next.tenant, computeStatus(next), 40_000)).toBe(60_000);
  });

  it('never holds longer than the maximum, and forgets rollouts that ended long ago', () => {
    const times = new RolloutTimes(HOLD_MS, HOLD_MAX_MS);
    times.recordEnded(90_000, 0);
    expect(times.holdMs(0)).toBe(HOLD_MAX_MS);
    // Ten minutes on, the slow rollouts no longer describe the cluster.
    expect(times.holdMs(600_001)).toBe(HOLD_MS);
  });

  it('takes the slow end of recent rollouts, not the slowest one', () => {
    const times = new RolloutTimes(HOLD_MS, HOLD_MAX_MS);
    for (let i = 0; i < 9; i += 1) times.recordEnded(6_000, i);
    times.recordEnded(45_000, 10);
    // The 90th percentile of ten is the ninth: 6 s, twice that 12 s.
    expect(times.holdMs(1_000)).toBe(12_000);
  });

  it('learns nothing from a rollout that failed rather than finished', () => {
    const times = new RolloutTimes(HOLD_MS, HOLD_MAX_MS);
    const hold = new StatusHold(times);
    const rolling = justApplied();
    hold.delay(rolling.tenant, computeStatus(rolling), 0);
    const failed = justApplied((i) => (i.error = retryable('ApplyFailed', 'the API server is down')));
    expect(hold.delay(failed.tenant, computeStatus(failed), 50_000)).toBe(0);
    expect(times.holdMs(50_000)).toBe(HOLD_MS);
  });
});
