// Whether a Deployment's rollout is complete: for its Ready condition, before a Deployment it
// replaces (a tenant moved to another namespace, a renamed Deployment) is pruned, and before an
// upgrade's rollout slot is freed (rollout-budget.ts).
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

/**
 * The rollout is over, for whatever waits on it: complete, or stuck past the Deployment's progress
 * deadline (Degraded says so), which more waiting would not change.
 */
export function rolloutSettled(d: V1Deployment): boolean {
  if (rolloutGap(d) === undefined) return true;
  return (d.status?.conditions ?? []).some(
    (c) => c.type === 'Progressing' && c.status === 'False' && c.reason === 'ProgressDeadlineExceeded',
  );
}
