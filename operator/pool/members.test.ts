import type { KubernetesObject, V1Deployment } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { claimOrder, isAvailable, memberClassUid, memberOf, type Member } from './members.js';

const deployment = (tweak: { generation?: number; observed?: number; available?: number }): V1Deployment => ({
  metadata: { generation: tweak.generation ?? 1 },
  spec: { replicas: 2, selector: {}, template: {} },
  status: {
    observedGeneration: tweak.observed ?? 1,
    updatedReplicas: 2,
    availableReplicas: tweak.available ?? 2,
  },
});

describe('isAvailable', () => {
  it.each([
    { why: 'rolled out, every replica available', d: deployment({}), available: true },
    { why: 'a replica not available yet', d: deployment({ available: 1 }), available: false },
    { why: 'a new generation not yet observed', d: deployment({ generation: 2 }), available: false },
    { why: 'no status yet', d: { spec: { replicas: 1 } } as V1Deployment, available: false },
  ])('$why: $available', ({ d, available }) => {
    expect(isAvailable(d)).toBe(available);
  });
});

describe('memberClassUid', () => {
  const ns = (labels: Record<string, string>, owner?: { kind: string; name: string }): KubernetesObject => ({
    metadata: {
      name: 'm',
      labels,
      ownerReferences:
        owner === undefined
          ? []
          : [{ ...owner, apiVersion: 'landlord.dev/v1alpha1', uid: 'cu', controller: true }],
    },
  });
  it.each([
    {
      why: 'labelled and controlled by the class',
      n: ns({ 'landlord.dev/pool': 'c' }, { kind: 'TenantClass', name: 'c' }),
      uid: 'cu',
    },
    {
      why: 'another class',
      n: ns({ 'landlord.dev/pool': 'd' }, { kind: 'TenantClass', name: 'd' }),
      uid: undefined,
    },
    { why: 'no owner (not landlord-made)', n: ns({ 'landlord.dev/pool': 'c' }), uid: undefined },
    {
      why: 'owned by a Tenant (claimed)',
      n: ns({ 'landlord.dev/pool': 'c' }, { kind: 'Tenant', name: 'c' }),
      uid: undefined,
    },
  ])('$why', ({ n, uid }) => {
    expect(memberClassUid(n, 'c')).toBe(uid);
  });

  it('memberOf: a member of a pool of several is complete and Ready only with each of them available', () => {
    const ns = { metadata: { name: 'm', annotations: { 'landlord.dev/pool-hash': 'h' } } };
    const one = memberOf(ns, [deployment({})], 2);
    expect([one.hasDeployment, one.ready]).toEqual([false, false]);
    const both = memberOf(ns, [deployment({}), deployment({})], 2);
    expect([both.hasDeployment, both.ready]).toEqual([true, true]);
    const starting = memberOf(ns, [deployment({}), deployment({ available: 0 })], 2);
    expect([starting.hasDeployment, starting.ready]).toEqual([true, false]);
    expect(memberOf(ns, []).hasDeployment).toBe(false);
  });

  it('memberOf reads the hash, age, deletion and readiness', () => {
    const member = memberOf(
      {
        metadata: {
          name: 'm',
          uid: 'u',
          resourceVersion: '7',
          creationTimestamp: new Date(5000),
          annotations: { 'landlord.dev/pool-hash': 'h' },
        },
      },
      [deployment({})],
    );
    expect(member).toEqual({
      name: 'm',
      uid: 'u',
      resourceVersion: '7',
      hash: 'h',
      created: 5000,
      deleting: false,
      ready: true,
      hasDeployment: true,
    });
  });
});

describe('claimOrder', () => {
  const m = (name: string, tweak: Partial<Member> = {}): Member => ({
    name,
    uid: name,
    resourceVersion: '1',
    hash: 'h',
    created: 0,
    deleting: false,
    ready: true,
    hasDeployment: true,
    ...tweak,
  });

  it('only Ready members not being deleted, current ones first', () => {
    const order = claimOrder(
      't',
      [m('old', { hash: 'x' }), m('cur'), m('starting', { ready: false }), m('going', { deleting: true })],
      'h',
    );
    expect(order.map((x) => x.name)).toEqual(['cur', 'old']);
  });

  it('different tenants try members in different orders, each the same every time', () => {
    const pool = Array.from({ length: 10 }, (_, i) => m(`m${i}`));
    const firsts = new Set(
      Array.from({ length: 20 }, (_, i) => claimOrder(`tenant-${i}`, pool, 'h')[0]!.name),
    );
    expect(firsts.size).toBeGreaterThan(3);
    expect(claimOrder('tenant-1', pool, 'h')).toEqual(claimOrder('tenant-1', pool, 'h'));
  });
});
