// computeStatus, case by case: one default input and a small tweak per case. One table, so one
// file, a little past 250 lines.
import { describe, expect, it } from 'vitest';
import type { Condition } from '../api/tenant.js';
import { deploymentCondition, rolledOut, statusInput, T1 } from '../testing/operator-status.js';
import { childRef } from './child-ref.js';
import { retryable, stall } from './reconcile-error.js';
import { childNames, computeStatus, type StatusInput } from './status.js';

type Brief = Pick<Condition, 'status' | 'reason' | 'message'>;
type Expected = Partial<Record<'Ready' | 'Applied' | 'Available' | 'Degraded', Partial<Brief>>>;

function conditions(input: StatusInput): Record<string, Brief> {
  const status = computeStatus(input);
  return Object.fromEntries(
    status.conditions!.map((c) => [c.type, { status: c.status, reason: c.reason, message: c.message }]),
  );
}

const synced = (status: Condition['status'], reason: string, message: string): Condition => ({
  type: 'Synced',
  status,
  reason,
  message,
  lastTransitionTime: '2026-01-01T00:00:00Z',
});

const PSS_MESSAGE =
  'Deployment team-a/web: spec.template.spec.hostPID: forbidden by the baseline Pod Security Standard';
const CONFLICT_MESSAGE = 'ConfigMap team-a/settings already exists and is not managed by landlord';

describe('computeStatus', () => {
  it('says Ready when the children are applied and the Deployment has rolled out', () => {
    expect(computeStatus(statusInput())).toEqual({
      observedGeneration: 3,
      conditions: [
        {
          type: 'Ready',
          status: 'True',
          reason: 'Ready',
          message: 'Deployment team-a/web has 2/2 replicas ready',
          observedGeneration: 3,
          lastTransitionTime: '2026-01-01T00:00:00Z',
        },
        expect.objectContaining({ type: 'Applied', status: 'True', reason: 'Applied' }),
        expect.objectContaining({ type: 'Available', status: 'True', reason: 'DeploymentAvailable' }),
        expect.objectContaining({ type: 'Degraded', status: 'False', reason: 'RolloutHealthy' }),
      ],
      replicas: 2,
      readyReplicas: 2,
      replicaSummary: '2/2',
      deployment: 'team-a/web',
      configMaps: ['team-a/settings'],
    });
  });

  it('says Applied=False and Ready=False WaitingForQuota while the workload waits for the quota', () => {
    const quotaWait = { ref: childRef('ResourceQuota', 'team-a', 'landlord-quota'), resources: ['pods'] };
    const waiting = statusInput((i) => {
      i.deployment = undefined;
      i.quotaWait = quotaWait;
    });
    const message =
      'waiting for the quota controller to enforce ResourceQuota team-a/landlord-quota (pods not in its status.hard yet): the Deployment and ConfigMaps are applied once it does, so that no pod or ConfigMap escapes the quota';
    expect(conditions(waiting)).toMatchObject({
      Ready: { status: 'False', reason: 'WaitingForQuota', message },
      Applied: { status: 'False', reason: 'WaitingForQuota', message },
      Available: { status: 'Unknown', reason: 'DeploymentNotFound' },
    });
  });

  it("reports a PerTenant tenant's namespace, and says so in Applied", () => {
    const status = computeStatus({ ...statusInput(), namespace: 'team-a' });
    expect(status.namespace).toBe('team-a');
    expect(status.conditions?.find((c) => c.type === 'Applied')?.message).toBe(
      "Deployment team-a/web and 1 ConfigMap match generation 3, placed in the tenant's own namespace team-a whatever their manifests say",
    );
    expect(computeStatus(statusInput())).not.toHaveProperty('namespace');
  });

  it.each<[string, (input: StatusInput) => void, Expected]>([
    [
      'applied',
      () => undefined,
      {
        Applied: {
          status: 'True',
          reason: 'Applied',
          message: 'Deployment team-a/web and 1 ConfigMap match generation 3',
        },
      },
    ],
    [
      'applied with two ConfigMaps',
      (i) => (i.configMaps = ['team-a/a', 'team-a/b']),
      { Applied: { message: 'Deployment team-a/web and 2 ConfigMaps match generation 3' } },
    ],
    [
      'refused by policy',
      (i) => (i.error = stall('PodSecurityViolation', PSS_MESSAGE)),
      {
        Applied: { status: 'False', reason: 'PodSecurityViolation', message: PSS_MESSAGE },
        Ready: { status: 'False', reason: 'PodSecurityViolation', message: PSS_MESSAGE },
        Available: { status: 'True' },
      },
    ],
    [
      'refused over a child another owner holds',
      (i) => (i.error = stall('Conflict', CONFLICT_MESSAGE)),
      {
        Applied: { status: 'False', reason: 'Conflict', message: CONFLICT_MESSAGE },
        Ready: { status: 'False', reason: 'Conflict' },
      },
    ],
    [
      'an apply the API server failed',
      (i) => (i.error = retryable('ApplyFailed', 'applying Deployment team-a/web: timeout')),
      {
        Applied: {
          status: 'False',
          reason: 'ApplyFailed',
          message: 'applying Deployment team-a/web: timeout',
        },
        Ready: { status: 'False', reason: 'ApplyFailed' },
      },
    ],
    [
      'a Deployment that does not exist',
      (i) => (i.deployment = undefined),
      {
        Available: {
          status: 'Unknown',
          reason: 'DeploymentNotFound',
          message: 'Deployment team-a/web does not exist',
        },
        Ready: { status: 'False', reason: 'DeploymentNotFound' },
        Degraded: { status: 'False', reason: 'RolloutHealthy' },
      },
    ],
    [
      'no Deployment applied at all',
      (i) => {
        i.deployment = undefined;
        i.deploymentName = undefined;
        i.error = stall('SpecMissing', 'no valid spec has been synced');
      },
      {
        Available: {
          status: 'Unknown',
          reason: 'DeploymentNotFound',
          message: 'no Deployment has been applied',
        },
        Ready: { status: 'False', reason: 'SpecMissing' },
      },
    ],
    [
      "no spec because sync refused the row: sync's reason is the root cause",
      (i) => {
        i.deployment = undefined;
        i.deploymentName = undefined;
        i.error = stall('SpecMissing', 'no valid spec has been synced');
        i.tenant.status = { conditions: [synced('False', 'InvalidRecord', 'spec: invalid JSON')] };
      },
      {
        Applied: {
          status: 'False',
          reason: 'InvalidRecord',
          message: "sync refused the tenant's row, so there is no spec to apply: spec: invalid JSON",
        },
        Ready: { status: 'False', reason: 'InvalidRecord' },
      },
    ],
    [
      "a refused edit of a tenant that runs: the operator's own reason stays",
      (i) => {
        i.error = stall('PodSecurityViolation', PSS_MESSAGE);
        i.tenant.status = { conditions: [synced('False', 'InvalidRecord', 'spec: invalid JSON')] };
      },
      { Applied: { status: 'False', reason: 'PodSecurityViolation' } },
    ],
    [
      'a new spec the Deployment controller has not seen',
      (i) => (i.deployment!.metadata!.generation = 6),
      {
        Ready: {
          status: 'False',
          reason: 'RolloutInProgress',
          message: 'the Deployment controller has not seen the new spec yet',
        },
      },
    ],
    [
      'a rollout with replicas still to update',
      (i) => (i.deployment!.status!.updatedReplicas = 1),
      { Ready: { status: 'False', reason: 'RolloutInProgress', message: '1 of 2 replicas updated' } },
    ],
    [
      'a rollout with old replicas still terminating',
      (i) => (i.deployment!.status!.replicas = 3),
      {
        Ready: {
          status: 'False',
          reason: 'RolloutInProgress',
          message: '1 old replicas pending termination',
        },
      },
    ],
    [
      'a rollout waiting for updated replicas to become available',
      (i) => (i.deployment!.status!.availableReplicas = 1),
      {
        Ready: { status: 'False', reason: 'RolloutInProgress', message: '1 of 2 updated replicas available' },
      },
    ],
    [
      'a Deployment below its minimum availability',
      (i) =>
        deploymentCondition(i, 'Available', {
          status: 'False',
          reason: 'MinimumReplicasUnavailable',
          message: 'no',
        }),
      {
        Available: { status: 'False', reason: 'DeploymentUnavailable', message: 'no' },
        Ready: { status: 'False', reason: 'DeploymentUnavailable', message: 'no' },
      },
    ],
    [
      'a Deployment that has not reported availability',
      (i) => (i.deployment!.status!.conditions = []),
      {
        Available: {
          status: 'False',
          reason: 'DeploymentUnavailable',
          message: 'the Deployment has not reported availability yet',
        },
      },
    ],
    [
      'a Deployment whose Available condition carries no message',
      (i) => deploymentCondition(i, 'Available', { status: 'True', reason: 'MinimumReplicasAvailable' }),
      {
        Available: {
          status: 'True',
          reason: 'DeploymentAvailable',
          message: 'the Deployment reports Available=True',
        },
      },
    ],
    [
      'a rollout past its progress deadline',
      (i) =>
        deploymentCondition(i, 'Progressing', {
          status: 'False',
          reason: 'ProgressDeadlineExceeded',
          message: 'ReplicaSet "web-1" has timed out progressing.',
        }),
      {
        Degraded: {
          status: 'True',
          reason: 'ProgressDeadlineExceeded',
          message: 'ReplicaSet "web-1" has timed out progressing.',
        },
        Ready: { status: 'False', reason: 'ProgressDeadlineExceeded' },
      },
    ],
    [
      'a ReplicaSet that cannot create pods',
      (i) =>
        deploymentCondition(i, 'ReplicaFailure', {
          status: 'True',
          reason: 'FailedCreate',
          message: 'quota exceeded',
        }),
      {
        Degraded: { status: 'True', reason: 'ReplicaFailure', message: 'quota exceeded' },
        Ready: { status: 'False', reason: 'ReplicaFailure', message: 'quota exceeded' },
      },
    ],
    [
      'a Progressing=False that is not the deadline',
      (i) => deploymentCondition(i, 'Progressing', { status: 'False', reason: 'Other', message: 'x' }),
      { Degraded: { status: 'False', reason: 'RolloutHealthy' }, Ready: { status: 'True' } },
    ],
  ])('reports %s', (_case, tweak, expected) => {
    const got = conditions(statusInput(tweak));
    for (const [type, want] of Object.entries(expected)) expect(got[type], type).toMatchObject(want);
  });

  it("adds each facet's condition after the summary's, without it deciding Ready, and its fields", () => {
    const secrets = {
      type: 'SecretsReady',
      status: 'False' as const,
      reason: 'SecretSourceNotFound',
      message: 'm',
    };
    const status = computeStatus(
      statusInput((i) => (i.facets = { conditions: [secrets], status: { url: 'https://acme.example.com' } })),
    );
    expect(status.conditions!.map((c) => [c.type, c.status])).toEqual([
      ['Ready', 'True'],
      ['Applied', 'True'],
      ['Available', 'True'],
      ['Degraded', 'False'],
      ['SecretsReady', 'False'],
    ]);
    expect(status.url).toBe('https://acme.example.com');
  });

  it('leaves out a field no facet filled', () => {
    expect(computeStatus(statusInput((i) => (i.facets = { conditions: [], status: {} })))).not.toHaveProperty(
      'url',
    );
  });

  it('leaves out the replica counts when there is no Deployment to count', () => {
    const status = computeStatus(statusInput((i) => (i.deployment = undefined)));
    expect(status).not.toHaveProperty('replicas');
    expect(status).not.toHaveProperty('replicaSummary');
    expect(status.deployment).toBe('team-a/web');
  });

  it('keeps lastTransitionTime while a status holds, and moves it when the status changes', () => {
    const before = statusInput();
    before.tenant.status = computeStatus(before);
    const after = computeStatus(
      statusInput((i) => {
        i.tenant = before.tenant;
        i.now = T1;
        i.deployment!.status!.updatedReplicas = 1;
      }),
    );
    const times = Object.fromEntries(after.conditions!.map((c) => [c.type, c.lastTransitionTime]));
    expect(times).toEqual({
      Ready: '2026-01-01T00:05:00Z',
      Applied: '2026-01-01T00:00:00Z',
      Available: '2026-01-01T00:00:00Z',
      Degraded: '2026-01-01T00:00:00Z',
    });
  });
});

describe('childNames', () => {
  it('names the Deployment by kind wherever it is in the list, and sorts the ConfigMaps', () => {
    const refs = [
      childRef('ConfigMap', 'team-a', 'zeta'),
      childRef('Deployment', 'team-a', 'web'),
      childRef('ConfigMap', 'team-a', 'alpha'),
    ];
    expect(childNames(refs)).toEqual({
      deploymentName: 'team-a/web',
      configMaps: ['team-a/alpha', 'team-a/zeta'],
    });
  });

  it('names no Deployment when none is among the children', () => {
    expect(childNames([childRef('ConfigMap', 'team-a', 'a')])).toEqual({
      deploymentName: undefined,
      configMaps: ['team-a/a'],
    });
  });
});

describe('computeStatus: a tenant of several Deployments', () => {
  const worker = (available: 'True' | 'False') => {
    const d = rolledOut();
    d.metadata!.name = 'worker';
    d.status!.conditions![0]!.status = available;
    if (available === 'False') d.status!.availableReplicas = 0;
    return d;
  };
  const several = (available: 'True' | 'False') =>
    statusInput((i) => {
      i.workloads = [
        { name: 'team-a/web', deployment: rolledOut() },
        { name: 'team-a/worker', deployment: worker(available) },
      ];
    });

  it('lists each in status.workloads, sums the replicas and leaves status.deployment out', () => {
    const status = computeStatus(several('True'));
    expect(status).not.toHaveProperty('deployment');
    expect(status).toMatchObject({ replicas: 4, readyReplicas: 4, replicaSummary: '4/4' });
    expect(status.workloads?.map((w) => [w.name, w.available])).toEqual([
      ['team-a/web', 'True'],
      ['team-a/worker', 'True'],
    ]);
    expect(conditions(several('True')).Ready).toMatchObject({
      status: 'True',
      message: '2 Deployments have 4/4 replicas ready',
    });
  });

  it('is Ready only when every one is available', () => {
    expect(conditions(several('False')).Available).toMatchObject({ status: 'False' });
    expect(conditions(several('False')).Ready?.status).toBe('False');
  });

  it('with none applied yet, says so rather than all available', () => {
    const none = statusInput((i) => {
      i.deployment = undefined;
      i.workloads = [];
    });
    expect(conditions(none).Available?.status).toBe('Unknown');
  });
});
