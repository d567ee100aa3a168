// What a class's status says of its pool, and when it is written: only when the count changed, and
// never for a class that has no pool and no Ready member.
import { describe, expect, it } from 'vitest';
import type { TenantClass } from '../../api/tenantclass.js';
import { poolStatusOf, saysPoolStatus } from './warm-status.js';

const classWith = (status?: TenantClass['status']): TenantClass => ({
  apiVersion: 'landlord.dev/v1alpha1',
  kind: 'TenantClass',
  metadata: { name: 'quick' },
  spec: {},
  ...(status === undefined ? {} : { status }),
});

describe('poolStatusOf', () => {
  it.each([
    { why: 'a pool: its Ready members', pooled: true, ready: 3, status: { warm: 3 } },
    { why: 'a pool with none Ready: 0, shown', pooled: true, ready: 0, status: { warm: 0 } },
    {
      why: 'no pool, members still Ready: counted until they go',
      pooled: false,
      ready: 2,
      status: { warm: 2 },
    },
    { why: 'no pool and none Ready: nothing', pooled: false, ready: 0, status: {} },
  ])('$why', ({ pooled, ready, status }) => {
    expect(poolStatusOf(pooled, ready)).toEqual(status);
  });
});

describe('saysPoolStatus: whether the write is skipped', () => {
  it.each([
    { why: 'the same count', status: { warm: 3 }, next: { warm: 3 }, says: true },
    { why: 'another count', status: { warm: 2 }, next: { warm: 3 }, says: false },
    { why: 'a first count on a class without status', status: undefined, next: { warm: 0 }, says: false },
    { why: 'nothing to say, nothing said', status: undefined, next: {}, says: true },
    { why: 'nothing to say, nothing said (empty status)', status: {}, next: {}, says: true },
    { why: 'a count to remove', status: { warm: 1 }, next: {}, says: false },
  ])('$why', ({ status, next, says }) => {
    expect(saysPoolStatus(classWith(status), next)).toBe(says);
  });
});
