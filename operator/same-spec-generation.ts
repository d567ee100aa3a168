// The API server raises a Deployment's generation on any change to its annotations (they are
// copied to its ReplicaSets), not only to its spec; a rollout then counts as unseen until the
// Deployment controller writes the new generation into its status. A warm pool claim is such a
// change: it rewrites the hash annotation and owner, not what the pods run, and under load the
// controller took a second or more to get to it, so the claimed tenant waited that long for Ready
// with its pods running all along. When the operator's own write raised the generation and left the
// spec as it was, the controller's status for the generation before describes the new one as well.
// Pure; ObservedState (observed.ts) keeps the bumps it is told of and reads Deployments through them.
// ADR 0014 says what this leans on.
import type { KubernetesObject, V1Deployment } from '@kubernetes/client-node';
import { canonicalJson } from '../util/canonical-json.js';

/** A generation the operator's write made without changing the spec: `generation` runs what `sameAs` ran. */
export interface SameSpecBump {
  uid: string;
  generation: number;
  sameAs: number;
}

const generationOf = (d: KubernetesObject | undefined): number => d?.metadata?.generation ?? 0;

/**
 * The bump a write made, when `after` (its response) is the same Deployment as `before` (what the
 * operator saw when it wrote) at a higher generation with the same spec; undefined otherwise.
 */
export function sameSpecBump(
  before: KubernetesObject | undefined,
  after: KubernetesObject,
): SameSpecBump | undefined {
  const uid = after.metadata?.uid;
  if (before === undefined || uid === undefined || before.metadata?.uid !== uid) return undefined;
  if (generationOf(after) <= generationOf(before)) return undefined;
  const specOf = (d: KubernetesObject): unknown => (d as V1Deployment).spec;
  if (canonicalJson(specOf(before)) !== canonicalJson(specOf(after))) return undefined;
  return { uid, generation: generationOf(after), sameAs: generationOf(before) };
}

/** What to make of a Deployment copy in the light of a bump. */
export type BumpReading =
  /** The controller saw the generation the bump repeats: read it as having seen the bump's. */
  | { kind: 'lifted'; deployment: V1Deployment }
  /** The controller has not seen even that one yet: the copy as it is, the bump still pending. */
  | { kind: 'pending' }
  /** The controller caught up, or the Deployment changed or was replaced since: the bump is spent. */
  | { kind: 'spent' };

export function readThroughBump(d: V1Deployment, bump: SameSpecBump): BumpReading {
  if (d.metadata?.uid !== bump.uid || generationOf(d) !== bump.generation) return { kind: 'spent' };
  const observed = d.status?.observedGeneration ?? 0;
  if (observed >= bump.generation) return { kind: 'spent' };
  if (observed < bump.sameAs) return { kind: 'pending' };
  return {
    kind: 'lifted',
    deployment: { ...d, status: { ...d.status, observedGeneration: bump.generation } },
  };
}
