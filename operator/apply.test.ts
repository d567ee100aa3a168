import type { KubernetesObject, V1ResourceQuota } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { quotaWaitOf } from './apply.js';
import { APPLY_WAVES } from './facets/kinds.js';
import { CHILD_API_VERSION, childRef, type ChildKind } from './child-ref.js';
import type { DesiredChild } from './desired.js';

describe('APPLY_WAVES', () => {
  it('puts every kind in exactly one wave: the Namespace, then its fences, then the children', () => {
    const kinds = APPLY_WAVES.flat();
    expect([...kinds].sort()).toEqual(Object.keys(CHILD_API_VERSION).sort());
    expect(APPLY_WAVES[0]).toEqual(['Namespace']);
    expect(APPLY_WAVES.at(-1)).toEqual(['Deployment', 'ConfigMap']);
  });
});

describe('quotaWaitOf', () => {
  const child = (kind: ChildKind, name: string): DesiredChild => ({
    ref: childRef(kind, 'team-a', name),
    manifest: { apiVersion: CHILD_API_VERSION[kind], kind, metadata: { name, namespace: 'team-a' } },
    hash: 'h',
  });
  const quota = child('ResourceQuota', 'landlord-quota');
  const desired = [
    quota,
    child('LimitRange', 'landlord-limits'),
    child('Deployment', 'web'),
    child('ConfigMap', 'settings'),
  ];
  const quotaAs = (status: V1ResourceQuota['status']): V1ResourceQuota => ({
    ...quota.manifest,
    spec: { hard: { pods: '3', 'requests.cpu': '1' } },
    ...(status === undefined ? {} : { status }),
  });
  const fenced =
    (status: V1ResourceQuota['status']): ((index: number) => KubernetesObject | undefined) =>
    (index) =>
      [quotaAs(status), desired[1]!.manifest, undefined, undefined][index];
  const newTenant = (i: number): boolean => i >= 2;

  it("waits for a quota just made, whose status the quota controller has not written, before a new tenant's workload", () => {
    expect(quotaWaitOf(desired, fenced(undefined), newTenant)).toEqual({
      ref: quota.ref,
      resources: ['pods', 'requests.cpu'],
    });
  });

  it('does not wait once the quota enforces every limit it sets', () => {
    const enforced = { hard: { pods: '3', 'requests.cpu': '1' }, used: { pods: '0' } };
    expect(quotaWaitOf(desired, fenced(enforced), newTenant)).toBeUndefined();
  });

  it('does not wait when no workload child is to be written: a running tenant stays Ready', () => {
    expect(quotaWaitOf(desired, fenced({ hard: { pods: '3' } }), () => false)).toBeUndefined();
    // Archived: the namespace and its quota stay, no workload is desired.
    expect(quotaWaitOf(desired.slice(0, 2), fenced(undefined), () => true)).toBeUndefined();
  });

  it('waits for a limit the class adds when the workload changes too', () => {
    const drifted = (i: number): boolean => i === 2;
    expect(quotaWaitOf(desired, fenced({ hard: { pods: '3' } }), drifted)).toEqual({
      ref: quota.ref,
      resources: ['requests.cpu'],
    });
  });
});
