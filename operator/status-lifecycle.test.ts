// computeStatus for the lifecycle: each state, a pause, and the state status.state records. The
// same shape as status.test.ts: the default input plus one tweak per case.
import { describe, expect, it } from 'vitest';
import type { Condition } from '../api/tenant.js';
import { statusInput } from '../testing/operator-status.js';
import { retryable, stall } from './reconcile-error.js';
import { computeStatus, type StatusInput } from './status.js';

type Brief = Pick<Condition, 'status' | 'reason'> & { message?: string | RegExp };
type Expected = Partial<Record<'Ready' | 'Applied' | 'Available' | 'Degraded', Partial<Brief>>>;

function conditions(input: StatusInput): Record<string, Condition> {
  return Object.fromEntries(computeStatus(input).conditions!.map((c) => [c.type, c]));
}

/** The Deployment scaled to 0 and settled there, as it is once a suspend has been applied. */
function suspended(i: StatusInput): void {
  i.state = 'suspended';
  i.deployment!.spec!.replicas = 0;
  Object.assign(i.deployment!.status!, {
    replicas: 0,
    updatedReplicas: 0,
    readyReplicas: 0,
    availableReplicas: 0,
  });
}

/** Nothing kept: no Deployment, no ConfigMaps. */
function archived(state: 'archived' | 'purged') {
  return (i: StatusInput): void => {
    i.state = state;
    i.deployment = undefined;
    i.deploymentName = undefined;
    i.configMaps = [];
  };
}

describe('computeStatus: the lifecycle', () => {
  it.each<[string, (input: StatusInput) => void, Expected]>([
    [
      'suspended',
      suspended,
      {
        Ready: {
          status: 'False',
          reason: 'Suspended',
          message:
            /^suspended by its row \(state: suspended\): Deployment team-a\/web runs 0 replicas .*set the row's state to active/,
        },
        Applied: { status: 'True', reason: 'Applied' },
        Available: { status: 'True' },
      },
    ],
    [
      'suspended while the pods are still going',
      (i) => {
        suspended(i);
        i.deployment!.status!.replicas = 2;
      },
      { Ready: { status: 'False', reason: 'Suspended' } },
    ],
    [
      'suspended, but the apply failed',
      (i) => {
        suspended(i);
        i.error = retryable('ApplyFailed', 'applying Deployment team-a/web: timeout');
      },
      {
        Ready: { status: 'False', reason: 'ApplyFailed' },
        Applied: { status: 'False', reason: 'ApplyFailed' },
      },
    ],
    [
      'archived',
      archived('archived'),
      {
        Ready: {
          status: 'False',
          reason: 'Archived',
          message: /^archived by its row .*set the row's state to active/,
        },
        Applied: {
          status: 'True',
          reason: 'Applied',
          message: 'the tenant is archived: no children are kept, as of generation 3',
        },
        Available: {
          status: 'False',
          reason: 'Archived',
          message: 'the tenant is archived: it keeps no Deployment',
        },
        Degraded: { status: 'False', reason: 'RolloutHealthy' },
      },
    ],
    [
      'purged: as archived, the data left to the purger',
      archived('purged'),
      {
        Ready: {
          status: 'False',
          reason: 'Archived',
          message: /removed as for archived, and the purger .* deletes the tenant's data after its delay/,
        },
        Available: { status: 'False', reason: 'Archived' },
      },
    ],
    [
      'paused',
      (i) => (i.paused = true),
      {
        Ready: {
          status: 'False',
          reason: 'Paused',
          message: /^paused by the annotation landlord.dev\/paused=true: .*remove the annotation to resume$/,
        },
        Applied: { status: 'Unknown', reason: 'Paused' },
        Available: { status: 'True', reason: 'DeploymentAvailable' },
      },
    ],
    [
      'paused while suspended, with a refusal pending',
      (i) => {
        suspended(i);
        i.paused = true;
        i.error = stall('PodSecurityViolation', 'no');
      },
      { Ready: { status: 'False', reason: 'Paused' }, Applied: { status: 'Unknown', reason: 'Paused' } },
    ],
  ])('reports %s', (_case, tweak, expected) => {
    const got = conditions(statusInput(tweak));
    for (const [type, want] of Object.entries(expected)) {
      const { message, ...rest } = want;
      expect(got[type], type).toMatchObject(rest);
      if (message instanceof RegExp) expect(got[type]?.message).toMatch(message);
      else if (message !== undefined) expect(got[type]?.message).toBe(message);
    }
  });

  it('leaves out the Deployment and replica counts of an archived tenant', () => {
    const status = computeStatus(statusInput(archived('archived')));
    expect(status).not.toHaveProperty('deployment');
    expect(status).not.toHaveProperty('replicaSummary');
    expect(status.configMaps).toEqual([]);
  });

  it('reports 0/0 replicas for a suspended tenant', () => {
    expect(computeStatus(statusInput(suspended)).replicaSummary).toBe('0/0');
  });
});

describe('computeStatus: status.state', () => {
  const stateAfter = (tweak: (i: StatusInput) => void): string | undefined =>
    computeStatus(statusInput(tweak)).state;

  it('is absent for active, as on Tenants from before states', () => {
    expect(stateAfter(() => undefined)).toBeUndefined();
  });

  it.each(['suspended', 'archived', 'purged'] as const)('records %s once the children match it', (state) => {
    expect(stateAfter((i) => (i.state = state))).toBe(state);
  });

  it.each<[string, (i: StatusInput) => void]>([
    ['a refusal', (i) => (i.error = stall('PodSecurityViolation', 'no'))],
    ['a failed apply', (i) => (i.error = retryable('ApplyFailed', 'timeout'))],
    ['a pause', (i) => (i.paused = true)],
  ])('keeps the state reported before after %s: the children did not change', (_case, tweak) => {
    const state = stateAfter((i) => {
      i.tenant.status = { state: 'suspended' };
      i.state = 'archived';
      tweak(i);
    });
    expect(state).toBe('suspended');
  });

  it('goes back to absent when an active tenant is resumed', () => {
    expect(stateAfter((i) => (i.tenant.status = { state: 'archived' }))).toBeUndefined();
  });
});
