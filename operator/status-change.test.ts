import { describe, expect, it } from 'vitest';
import type { Tenant } from '../api/tenant.js';
import { statusInput, T1 } from '../testing/operator-status.js';
import { retryable, stall } from './reconcile-error.js';
import { computeStatus, type OperatorStatus, type StatusInput } from './status.js';
import { newFailure, unchanged } from './status-change.js';

/** A Tenant whose status is what the operator computed for the default input, at T0. */
function written(tweak: (input: StatusInput) => void = () => undefined): Tenant {
  const input = statusInput(tweak);
  input.tenant.status = computeStatus(input);
  return input.tenant;
}

/** The status the next reconcile computes for the Tenant, at T1. */
function next(tenant: Tenant, tweak: (input: StatusInput) => void = () => undefined): OperatorStatus {
  return computeStatus(
    statusInput((i) => {
      i.tenant = tenant;
      i.now = T1;
      tweak(i);
    }),
  );
}

describe('unchanged', () => {
  it('is true when the same facts are computed again later: the steady state writes nothing', () => {
    const tenant = written();
    expect(unchanged(tenant, next(tenant))).toBe(true);
  });

  it('ignores the parts of status that sync owns', () => {
    const tenant = written();
    tenant.status!.conditions!.push({
      type: 'Synced',
      status: 'True',
      reason: 'RowSynced',
      message: 'synced',
      lastTransitionTime: '2026-01-01T00:00:00Z',
    });
    tenant.status!.sync = { table: 'tenants', rowHash: 'h1', lastChangedTime: '2026-01-01T00:00:00Z' };
    expect(unchanged(tenant, next(tenant))).toBe(true);
  });

  it.each<[string, (input: StatusInput) => void]>([
    ['a new generation', (i) => (i.tenant.metadata.generation = 4)],
    ['a condition that changed', (i) => (i.error = retryable('ApplyFailed', 'timeout'))],
    ['fewer ready replicas', (i) => (i.deployment!.status!.readyReplicas = 1)],
    ['more replicas asked for', (i) => (i.deployment!.spec!.replicas = 3)],
    ['another Deployment', (i) => (i.deploymentName = 'team-a/api')],
    ['another list of ConfigMaps', (i) => (i.configMaps = [])],
    ['another state reached', (i) => (i.state = 'suspended')],
    ['a pause', (i) => (i.paused = true)],
    ['another TenantClass', (i) => (i.className = 'gold')],
  ])('is false for %s', (_case, tweak) => {
    const tenant = written();
    const copy = structuredClone(tenant);
    expect(unchanged(tenant, next(copy, tweak))).toBe(false);
  });
});

describe('newFailure', () => {
  const refusal = stall('PodSecurityViolation', 'Deployment team-a/web: hostPID is forbidden');

  it('announces nothing while the children are applied', () => {
    const tenant = written();
    expect(newFailure(tenant, next(tenant))).toBeUndefined();
  });

  it('takes a pause (Applied=Unknown) for no failure', () => {
    const tenant = written();
    expect(
      newFailure(
        tenant,
        next(tenant, (i) => (i.paused = true)),
      ),
    ).toBeUndefined();
  });

  it('announces a failure that was not there before', () => {
    const tenant = written();
    expect(
      newFailure(
        tenant,
        next(tenant, (i) => (i.error = refusal)),
      ),
    ).toEqual({
      reason: 'PodSecurityViolation',
      message: 'Deployment team-a/web: hostPID is forbidden',
    });
  });

  it('announces the same failure only once, however often it is retried', () => {
    const tenant = written((i) => (i.error = refusal));
    expect(
      newFailure(
        tenant,
        next(tenant, (i) => (i.error = refusal)),
      ),
    ).toBeUndefined();
  });

  it.each<[string, (input: StatusInput) => void]>([
    ['another reason', (i) => (i.error = stall('Conflict', refusal.message))],
    [
      'another message',
      (i) => (i.error = stall('PodSecurityViolation', 'Deployment team-a/web: privileged')),
    ],
  ])('announces a failure again with %s', (_case, tweak) => {
    const tenant = written((i) => (i.error = refusal));
    expect(newFailure(tenant, next(tenant, tweak))).toBeDefined();
  });
});

describe('newFailure for a row sync refused', () => {
  it("leaves the announcement to sync: Applied repeats the Synced reason, and sync's Event said it", () => {
    const tenant = written((i) => {
      i.deployment = undefined;
      i.deploymentName = undefined;
    });
    tenant.status!.conditions!.push({
      type: 'Synced',
      status: 'False',
      reason: 'InvalidRecord',
      message: 'spec: invalid JSON',
      lastTransitionTime: '2026-01-01T00:00:00Z',
    });
    const status = next(tenant, (i) => {
      i.deployment = undefined;
      i.deploymentName = undefined;
      i.error = stall('SpecMissing', 'no valid spec has been synced');
    });
    expect(status.conditions?.find((c) => c.type === 'Applied')?.reason).toBe('InvalidRecord');
    expect(newFailure(tenant, status)).toBeUndefined();
  });
});
