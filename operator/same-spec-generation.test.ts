import type { V1Deployment } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { readThroughBump, sameSpecBump } from './same-spec-generation.js';

const spec = {
  replicas: 1,
  selector: { matchLabels: { app: 'web' } },
  template: { spec: { containers: [] } },
};

function deployment(generation: number, observed: number, extra: Partial<V1Deployment> = {}): V1Deployment {
  return {
    metadata: { name: 'web', namespace: 'acme', uid: 'u-1', generation },
    spec,
    status: { observedGeneration: observed, replicas: 1, updatedReplicas: 1, availableReplicas: 1 },
    ...extra,
  };
}

describe('sameSpecBump', () => {
  it('is the write that raised the generation and left the spec, keys in any order', () => {
    const reordered = { template: spec.template, selector: spec.selector, replicas: 1 };
    expect(sameSpecBump(deployment(1, 1), deployment(2, 1, { spec: reordered }))).toEqual({
      uid: 'u-1',
      generation: 2,
      sameAs: 1,
    });
  });

  it('is none when the spec changed, the generation did not rise, or the object is another', () => {
    expect(
      sameSpecBump(deployment(1, 1), deployment(2, 1, { spec: { ...spec, replicas: 2 } })),
    ).toBeUndefined();
    expect(sameSpecBump(deployment(2, 1), deployment(2, 1))).toBeUndefined();
    const replaced = deployment(2, 1);
    replaced.metadata = { ...replaced.metadata, uid: 'u-2' };
    expect(sameSpecBump(deployment(1, 1), replaced)).toBeUndefined();
    expect(sameSpecBump(undefined, deployment(2, 1))).toBeUndefined();
  });
});

describe('readThroughBump', () => {
  const bump = { uid: 'u-1', generation: 2, sameAs: 1 };

  it('reads the copy as seen when the controller saw the generation with the same spec', () => {
    const reading = readThroughBump(deployment(2, 1), bump);
    expect(reading.kind).toBe('lifted');
    expect(reading.kind === 'lifted' && reading.deployment.status).toMatchObject({
      observedGeneration: 2,
      availableReplicas: 1,
    });
  });

  it('waits while the controller has not seen even that generation', () => {
    expect(readThroughBump(deployment(2, 0), bump)).toEqual({ kind: 'pending' });
  });

  it('is spent once the controller caught up, or the Deployment changed or was replaced since', () => {
    expect(readThroughBump(deployment(2, 2), bump)).toEqual({ kind: 'spent' });
    expect(readThroughBump(deployment(3, 1), bump)).toEqual({ kind: 'spent' });
    const replaced = deployment(2, 1);
    replaced.metadata = { ...replaced.metadata, uid: 'u-2' };
    expect(readThroughBump(replaced, bump)).toEqual({ kind: 'spent' });
  });
});
