// The part of a Deployment's status the caches keep must decide everything the whole status does:
// the Tenant's status, the rollout check and the warm pool's readiness. Checked over the statuses
// a rollout goes through, stuck ones included.
import type { V1Deployment, V1DeploymentStatus } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { lighten, sameBesidesVersion } from '../runtime/kube/informer.js';
import { rolledOut, statusInput } from '../testing/operator-status.js';
import { unreadOf } from './facets/kinds.js';
import { readOfDeploymentStatus } from './deployment-status.js';
import { isAvailable } from './pool/members.js';
import { rolloutGap } from './rollout.js';
import { computeStatus } from './status.js';

const condition = (type: string, status: string, reason: string, message: string) => ({
  type,
  status,
  reason,
  message,
  lastUpdateTime: new Date('2026-01-01T00:00:00Z'),
  lastTransitionTime: new Date('2026-01-01T00:00:00Z'),
});

const UNAVAILABLE = condition(
  'Available',
  'False',
  'MinimumReplicasUnavailable',
  'does not have minimum availability',
);

/** What the Deployment controller writes as a rollout of 2 replicas goes, and where it can stick. */
const STATUSES: Record<string, V1DeploymentStatus> = {
  'not seen yet': { observedGeneration: 4 },
  'new ReplicaSet created': {
    observedGeneration: 5,
    replicas: 2,
    updatedReplicas: 2,
    unavailableReplicas: 2,
    conditions: [
      UNAVAILABLE,
      condition('Progressing', 'True', 'NewReplicaSetCreated', 'Created new replica set "web-1"'),
    ],
  },
  'one ready': {
    observedGeneration: 5,
    replicas: 2,
    updatedReplicas: 2,
    readyReplicas: 1,
    availableReplicas: 1,
    unavailableReplicas: 1,
    conditions: [
      UNAVAILABLE,
      condition('Progressing', 'True', 'ReplicaSetUpdated', 'ReplicaSet "web-1" is progressing'),
    ],
  },
  'rolled out': rolledOut().status!,
  'past its deadline': {
    observedGeneration: 5,
    replicas: 2,
    updatedReplicas: 2,
    conditions: [
      UNAVAILABLE,
      condition('Progressing', 'False', 'ProgressDeadlineExceeded', 'ReplicaSet "web-1" has timed out'),
    ],
  },
  'a replica refused': {
    observedGeneration: 5,
    replicas: 1,
    updatedReplicas: 1,
    conditions: [
      UNAVAILABLE,
      condition('ReplicaFailure', 'True', 'FailedCreate', 'pods "web-1-x" is forbidden: exceeded quota'),
    ],
  },
};

const withStatus = (status: V1DeploymentStatus): V1Deployment => ({ ...rolledOut(), status });
const kept = (deployment: V1Deployment): V1Deployment => lighten(deployment, unreadOf('Deployment'));

describe('readOfDeploymentStatus', () => {
  it.each(Object.entries(STATUSES))('decides as the whole status does: %s', (_case, status) => {
    const whole = withStatus(status);
    const cached = kept(whole);
    expect(computeStatus(statusInput((i) => (i.deployment = cached)))).toEqual(
      computeStatus(statusInput((i) => (i.deployment = whole))),
    );
    expect(rolloutGap(cached)).toBe(rolloutGap(whole));
    expect(isAvailable(cached)).toBe(isAvailable(whole));
  });

  it("keeps a healthy rollout's Progressing out, and its times, so the controller's rewrites of it wake nothing", () => {
    const first = withStatus(STATUSES['rolled out']!);
    first.metadata!.resourceVersion = '10';
    const next = withStatus({
      ...STATUSES['rolled out']!,
      conditions: [
        condition('Available', 'True', 'MinimumReplicasAvailable', 'has minimum availability'),
        condition('Progressing', 'True', 'ReplicaSetUpdated', 'ReplicaSet "web-1" is progressing'),
      ],
    });
    next.metadata!.resourceVersion = '11';
    expect(sameBesidesVersion(kept(first), kept(next))).toBe(true);
  });

  it('keeps every change a reconcile reads: a count, a stuck rollout, availability', () => {
    const before = kept(withStatus(STATUSES['one ready']!));
    for (const status of [STATUSES['rolled out']!, STATUSES['past its deadline']!]) {
      expect(sameBesidesVersion(before, kept(withStatus(status)))).toBe(false);
    }
  });

  it('leaves a status it cannot read as it is', () => {
    expect(readOfDeploymentStatus(undefined)).toBeUndefined();
    expect(readOfDeploymentStatus({})).toEqual({});
  });
});
