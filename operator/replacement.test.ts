import type { KubernetesObject } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { childRef, type ChildKind } from './child-ref.js';
import type { DesiredChild } from './desired.js';
import { needsReplacement } from './replacement.js';

const desired = (kind: ChildKind, spec: Record<string, unknown>): DesiredChild => ({
  ref: childRef(kind, 'acme', 'web'),
  manifest: {
    apiVersion: 'v1',
    kind,
    metadata: { name: 'web', namespace: 'acme' },
    spec,
  } as KubernetesObject,
  hash: 'h',
});

const live = (spec: Record<string, unknown>): KubernetesObject =>
  ({ apiVersion: 'v1', kind: 'Service', metadata: { name: 'web', uid: 'u1' }, spec }) as KubernetesObject;

describe('needsReplacement', () => {
  it.each([
    ['turning headless', { type: 'ClusterIP', clusterIP: 'None' }, { clusterIP: '10.96.0.7' }, true],
    ['turning back', { type: 'ClusterIP' }, { clusterIP: 'None', clusterIPs: ['None'] }, true],
    ['staying headless', { clusterIP: 'None' }, { clusterIP: 'None' }, false],
    ['keeping its address', { type: 'ClusterIP' }, { clusterIP: '10.96.0.7' }, false],
  ])('a Service %s: %s', (_, wanted, current, expected) => {
    expect(needsReplacement(desired('Service', wanted), live(current))).toBe(expected);
  });

  it('replaces no other kind, whatever its spec says', () => {
    const deployment = desired('Deployment', { clusterIP: 'None' });
    expect(needsReplacement(deployment, live({ clusterIP: '10.96.0.7' }))).toBe(false);
  });
});
