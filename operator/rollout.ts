// Whether a Deployment's rollout is complete: for its Ready condition, and before a Deployment it
// replaces (a tenant moved to another namespace, a renamed Deployment) is pruned.
import type { V1Deployment } from '@kubernetes/client-node';

function counts(d: V1Deployment): {
  want: number;
  seen: boolean;
  updatedReplicas: number;
  replicas: number;
  availableReplicas: number;
} {
  const { observedGeneration = 0, updatedReplicas = 0, replicas = 0, availableReplicas = 0 } = d.status ?? {};
  const seen = observedGeneration >= (d.metadata?.generation ?? 0);
  return { want: d.spec?.replicas ?? 1, seen, updatedReplicas, replicas, availableReplicas };
}

/** What the rollout still lacks, as `kubectl rollout status` judges it; undefined when it is complete. */
export function rolloutGap(d: V1Deployment): string | undefined {
  const { want, seen, updatedReplicas, replicas, availableReplicas } = counts(d);
  if (!seen) return 'the Deployment controller has not seen the new spec yet';
  if (updatedReplicas < want) return `${updatedReplicas} of ${want} replicas updated`;
  if (replicas > updatedReplicas) return `${replicas - updatedReplicas} old replicas pending termination`;
  if (availableReplicas < want) return `${availableReplicas} of ${want} updated replicas available`;
  return undefined;
}
