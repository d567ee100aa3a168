import { describe, expect, it } from 'vitest';
import type { V1Deployment } from '@kubernetes/client-node';
import { LABEL } from '../api/tenant.js';
import { builtInClass } from '../api/tenantclass.js';
import { childRef } from './child-ref.js';
import { ObservedState } from './observed.js';
import type { WatchedCaches } from './watches.js';

/** No watch has listed anything: every lookup falls through to what the operator applied. */
const apis = { gatewayApi: false, externalSecrets: false };
const noCaches = { child: () => undefined, apis } as unknown as WatchedCaches;

const deployment = (resourceVersion: string, tenant = 'acme'): V1Deployment => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'web', namespace: 'acme', resourceVersion, labels: { [LABEL.tenant]: tenant } },
  spec: { selector: { matchLabels: { app: 'web' } }, template: {} },
});

describe('ObservedState.childChanged', () => {
  const ref = childRef('Deployment', 'acme', 'web');

  it('names no Tenant for the echo of the operator’s own apply', () => {
    const observed = new ObservedState(noCaches, ['acme'], builtInClass());
    observed.childApplied(ref, deployment('7'));
    expect(observed.childChanged('Deployment', deployment('7'), false)).toEqual([]);
    // The index still learnt the child from it.
    expect(observed.childrenOf('acme')).toEqual([ref]);
  });

  it('names the Tenant for a later version, a deletion, or a child it did not apply', () => {
    const observed = new ObservedState(noCaches, ['acme'], builtInClass());
    observed.childApplied(ref, deployment('7'));
    expect(observed.childChanged('Deployment', deployment('8'), false)).toEqual(['acme']);
    observed.childApplied(ref, deployment('9'));
    expect(observed.childChanged('Deployment', deployment('9'), true)).toEqual(['acme']);
    expect(observed.childChanged('Deployment', deployment('12'), false)).toEqual(['acme']);
  });
});

describe('ObservedState.heldChild', () => {
  const ref = childRef('Deployment', 'acme', 'web');

  it('gives the watch the copy the apply returned for that very version, lightened once', () => {
    const observed = new ObservedState(noCaches, ['acme'], builtInClass());
    observed.childApplied(ref, {
      ...deployment('7'),
      metadata: { ...deployment('7').metadata, managedFields: [] },
    });
    const held = observed.heldChild('Deployment', deployment('7'));
    expect(held).toBe(observed.child(ref));
    expect(held?.metadata?.managedFields).toBeUndefined();
  });

  it('keeps no copy when the echo came first: the cache already holds that version', () => {
    const cachedCopy = deployment('7');
    const caches = { child: () => ({ get: () => cachedCopy }), apis } as unknown as WatchedCaches;
    const observed = new ObservedState(caches, ['acme'], builtInClass());
    observed.childApplied(ref, deployment('7'));
    expect(observed.heldChild('Deployment', deployment('7'))).toBeUndefined();
    expect(observed.child(ref)).toBe(cachedCopy);
    // A newer version than the cache's is still overlaid.
    observed.childApplied(ref, deployment('8'));
    expect(observed.child(ref)?.metadata?.resourceVersion).toBe('8');
  });

  it('gives nothing for another version, another child, or once the echo has settled', () => {
    const observed = new ObservedState(noCaches, ['acme'], builtInClass());
    observed.childApplied(ref, deployment('7'));
    expect(observed.heldChild('Deployment', deployment('8'))).toBeUndefined();
    expect(observed.heldChild('ConfigMap', { ...deployment('7'), kind: 'ConfigMap' })).toBeUndefined();
    observed.childChanged('Deployment', deployment('7'), false);
    expect(observed.heldChild('Deployment', deployment('7'))).toBeUndefined();
  });
});

describe('ObservedState while a reconcile converges a child', () => {
  const ref = childRef('Deployment', 'acme', 'web');
  const converging = (): ObservedState => {
    const observed = new ObservedState(noCaches, ['acme'], builtInClass());
    observed.convergeStarted('acme', [ref]);
    return observed;
  };

  it('holds the echo that comes before the apply returns, and asks for no second look', () => {
    const observed = converging();
    expect(observed.childChanged('Deployment', deployment('7'), false)).toEqual([]);
    observed.childApplied(ref, deployment('7'));
    expect(observed.convergeEnded(ref, deployment('7'))).toBe(false);
  });

  it('asks for a second look when a version newer than the one reported came meanwhile', () => {
    const observed = converging();
    expect(observed.childChanged('Deployment', deployment('9'), false)).toEqual([]);
    expect(observed.childChanged('Deployment', deployment('8'), false)).toEqual([]);
    expect(observed.convergeEnded(ref, deployment('7'))).toBe(true);
  });

  it('asks for one when the apply failed after an event, and none without an event', () => {
    const observed = converging();
    observed.childChanged('Deployment', deployment('9'), false);
    expect(observed.convergeEnded(ref, undefined)).toBe(true);
    observed.convergeStarted('acme', [ref]);
    expect(observed.convergeEnded(ref, undefined)).toBe(false);
  });

  it('wakes the Tenant for a deletion, and another Tenant for its own event', () => {
    const observed = new ObservedState(noCaches, ['acme'], builtInClass());
    observed.childChanged('Deployment', deployment('7'), false);
    observed.convergeStarted('acme', [ref]);
    expect(observed.childChanged('Deployment', deployment('9'), true)).toEqual(['acme']);
    expect(converging().childChanged('Deployment', deployment('8', 'other'), false)).toEqual(['other']);
  });

  it('holds nothing once the converge has ended', () => {
    const observed = converging();
    observed.convergeEnded(ref, deployment('7'));
    expect(observed.childChanged('Deployment', deployment('8'), false)).toEqual(['acme']);
  });
});

describe('ObservedState and a generation raised without a spec change', () => {
  const ref = childRef('Deployment', 'acme', 'web');
  const at = (resourceVersion: string, generation: number, observedGeneration: number): V1Deployment => ({
    ...deployment(resourceVersion),
    metadata: { ...deployment(resourceVersion).metadata, uid: 'u-1', generation },
    status: { observedGeneration, replicas: 1, updatedReplicas: 1, availableReplicas: 1 },
  });

  it("reads the operator's own metadata-only write as seen, until the controller's status comes", () => {
    let cachedCopy: V1Deployment | undefined;
    const caches = { child: () => ({ get: () => cachedCopy }), apis } as unknown as WatchedCaches;
    const observed = new ObservedState(caches, ['acme'], builtInClass());
    observed.childApplied(ref, at('8', 2, 1), at('7', 1, 1));
    expect(observed.child<V1Deployment>(ref)?.status?.observedGeneration).toBe(2);
    // The echo of the write, from the watch: still the controller's old word, still read as seen.
    cachedCopy = at('8', 2, 1);
    expect(observed.child<V1Deployment>(ref)?.status?.observedGeneration).toBe(2);
    // The controller's own status: the bump is spent, and a later copy is read as it is.
    cachedCopy = at('9', 2, 2);
    expect(observed.child<V1Deployment>(ref)?.status?.observedGeneration).toBe(2);
    cachedCopy = at('10', 2, 1);
    expect(observed.child<V1Deployment>(ref)?.status?.observedGeneration).toBe(1);
  });

  it('lifts nothing for a write that changed the spec, or one made with no copy before it', () => {
    const observed = new ObservedState(noCaches, ['acme'], builtInClass());
    const changed = { ...at('8', 2, 1), spec: { ...at('8', 2, 1).spec!, replicas: 3 } };
    observed.childApplied(ref, changed, at('7', 1, 1));
    expect(observed.child<V1Deployment>(ref)?.status?.observedGeneration).toBe(1);
    observed.childApplied(ref, at('9', 3, 1));
    expect(observed.child<V1Deployment>(ref)?.status?.observedGeneration).toBe(1);
  });
});
