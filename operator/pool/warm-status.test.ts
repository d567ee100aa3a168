// What a class's status says of its pool, and when it is written: only when the count changed;
// never for a class that never had a pool; never by removing the field.
import { describe, expect, it } from 'vitest';
import type { TenantClass } from '../../api/tenantclass.js';
import { poolStatusOf, saysPoolStatus, type PoolStatus } from './warm-status.js';

const classWith = (status?: TenantClass['status']): TenantClass => ({
  apiVersion: 'landlord.dev/v1beta1',
  kind: 'TenantClass',
  metadata: { name: 'quick' },
  spec: {},
  ...(status === undefined ? {} : { status }),
});

describe('poolStatusOf', () => {
  it.each([
    { why: 'a pool: its Ready members', pooled: true, ready: 3, status: undefined, next: { warm: 3 } },
    { why: 'a pool with none Ready: 0, shown', pooled: true, ready: 0, status: undefined, next: { warm: 0 } },
    {
      why: 'pool removed, members still Ready',
      pooled: false,
      ready: 2,
      status: { warm: 3 },
      next: { warm: 2 },
    },
    {
      why: 'pool removed, none left: 0, not removed',
      pooled: false,
      ready: 0,
      status: { warm: 2 },
      next: { warm: 0 },
    },
    { why: 'never a pool: nothing', pooled: false, ready: 0, status: undefined, next: {} },
    { why: 'never a pool, empty status: nothing', pooled: false, ready: 0, status: {}, next: {} },
  ])('$why', ({ pooled, ready, status, next }) => {
    expect(poolStatusOf(classWith(status), pooled, ready)).toEqual(next);
  });
});

describe('saysPoolStatus: the write is skipped', () => {
  it.each<{ why: string; status: TenantClass['status']; next: PoolStatus; says: boolean }>([
    { why: 'the same count', status: { warm: 3 }, next: { warm: 3 }, says: true },
    { why: 'the same 0', status: { warm: 0 }, next: { warm: 0 }, says: true },
    { why: 'another count', status: { warm: 2 }, next: { warm: 3 }, says: false },
    { why: 'a first count, no status yet', status: undefined, next: { warm: 0 }, says: false },
    { why: 'nothing to say, nothing said', status: undefined, next: {}, says: true },
  ])('$why', ({ status, next, says }) => {
    expect(saysPoolStatus(classWith(status), next)).toBe(says);
  });

  it('a steady pool writes once, then never again', () => {
    let tc = classWith();
    const writes: PoolStatus[] = [];
    for (const ready of [0, 0, 1, 1, 1]) {
      const next = poolStatusOf(tc, true, ready);
      if (saysPoolStatus(tc, next)) continue;
      writes.push(next);
      tc = classWith({ ...tc.status, ...next });
    }
    expect(writes).toEqual([{ warm: 0 }, { warm: 1 }]);
  });
});
