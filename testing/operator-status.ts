// Inputs for the operator's status decisions: a Tenant whose children were applied and whose
// Deployment has fully rolled out. Each case tweaks one thing, so it reads as exactly what differs.
import type { V1Deployment } from '@kubernetes/client-node';
import { API_VERSION, KIND, type Tenant } from '../api/tenant.js';
import type { StatusInput } from '../operator/status.js';

export const T0 = new Date('2026-01-01T00:00:00Z');
export const T1 = new Date('2026-01-01T00:05:00Z');

export function statusTenant(): Tenant {
  return {
    apiVersion: API_VERSION,
    kind: KIND,
    metadata: { name: 'acme', uid: 'uid-acme', generation: 3 },
  };
}

/** A Deployment of 2 replicas, every one updated and available. */
export function rolledOut(): V1Deployment {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', namespace: 'team-a', generation: 5 },
    spec: { replicas: 2, selector: { matchLabels: { app: 'web' } }, template: {} },
    status: {
      observedGeneration: 5,
      replicas: 2,
      updatedReplicas: 2,
      readyReplicas: 2,
      availableReplicas: 2,
      conditions: [
        {
          type: 'Available',
          status: 'True',
          reason: 'MinimumReplicasAvailable',
          message: 'has minimum availability',
        },
        {
          type: 'Progressing',
          status: 'True',
          reason: 'NewReplicaSetAvailable',
          message: 'has successfully progressed',
        },
      ],
    },
  };
}

export function statusInput(tweak: (input: StatusInput) => void = () => undefined): StatusInput {
  const input: StatusInput = {
    tenant: statusTenant(),
    error: undefined,
    deployment: rolledOut(),
    deploymentName: 'team-a/web',
    configMaps: ['team-a/settings'],
    now: T0,
    state: 'active',
    paused: false,
  };
  tweak(input);
  return input;
}

/** Sets one of the Deployment's conditions, replacing any of the same type. */
export function deploymentCondition(
  input: StatusInput,
  type: string,
  condition: { status: string; reason: string; message?: string },
): void {
  const status = (input.deployment!.status ??= {});
  status.conditions = [...(status.conditions ?? []).filter((c) => c.type !== type), { type, ...condition }];
}
