// The pool arithmetic against table cases: how many members to make, which to remove first, and
// how stale ones are replaced without emptying the pool.
import { describe, expect, it } from 'vitest';
import type { Member } from './members.js';
import { HALF_MADE_MS, sizePool, unfinished, type PoolTarget } from './sizing.js';

const HASH = 'current';
const target = (size: number, maxUnavailable = 1): PoolTarget => ({ size, maxUnavailable, hash: HASH });

function member(name: string, tweak: Partial<Member> = {}): Member {
  return {
    name,
    uid: `uid-${name}`,
    resourceVersion: '10',
    hash: HASH,
    created: 1000,
    deleting: false,
    ready: true,
    hasDeployment: true,
    ...tweak,
  };
}

const names = (members: readonly Member[]): string[] => members.map((m) => m.name);

describe('sizePool', () => {
  it.each([
    { why: 'empty pool: make size', size: 3, members: [], create: 3, remove: [] },
    { why: 'full: nothing', size: 2, members: [member('a'), member('b')], create: 0, remove: [] },
    {
      why: 'starting members count as kept',
      size: 2,
      members: [member('a', { ready: false }), member('b')],
      create: 0,
      remove: [],
    },
    {
      why: 'members being deleted do not count',
      size: 2,
      members: [member('a', { deleting: true }), member('b')],
      create: 1,
      remove: [],
    },
    {
      why: 'size down: the not-Ready one goes first, then the newest',
      size: 1,
      members: [
        member('old', { created: 1 }),
        member('new', { created: 9 }),
        member('cold', { ready: false }),
      ],
      create: 0,
      remove: ['cold', 'new'],
    },
    {
      why: 'size 0: every member goes',
      size: 0,
      members: [member('a'), member('b')],
      create: 0,
      remove: ['a', 'b'],
    },
  ])('$why', ({ size, members, create, remove }) => {
    const sizing = sizePool(target(size), members);
    expect(sizing.create).toBe(create);
    expect(names(sizing.remove)).toEqual(remove);
  });

  it('a changed spec replaces Ready stale members maxUnavailable at a time', () => {
    const stale = [
      member('s1', { hash: 'old' }),
      member('s2', { hash: 'old' }),
      member('s3', { hash: 'old' }),
    ];
    const first = sizePool(target(3, 2), stale);
    expect(first.remove).toHaveLength(2);
    expect(first.create).toBe(2);
    // Next pass: the two replacements are starting, so no Ready stale member may go yet.
    const kept = stale.filter((m) => !first.remove.includes(m));
    const starting = [member('n1', { ready: false }), member('n2', { ready: false })];
    const second = sizePool(target(3, 2), [...kept, ...starting]);
    expect(second).toEqual({ remove: [], create: 0 });
    // Once they are Ready, the last stale one goes.
    const third = sizePool(target(3, 2), [...kept, member('n1'), member('n2')]);
    expect(names(third.remove)).toEqual(names(kept));
    expect(third.create).toBe(1);
  });

  it('a stale member that is not Ready goes whatever the budget', () => {
    const sizing = sizePool(target(2, 1), [
      member('c', { ready: false }),
      member('s', { hash: 'old', ready: false }),
    ]);
    expect(names(sizing.remove)).toEqual(['s']);
    expect(sizing.create).toBe(1);
  });

  it('too many, some stale: the stale ones go first', () => {
    const sizing = sizePool(target(1, 1), [member('c'), member('s', { hash: 'old' })]);
    expect(names(sizing.remove)).toEqual(['s']);
    expect(sizing.create).toBe(0);
  });
});

describe('unfinished', () => {
  const NOW = 100_000;
  const halfMade = (name: string, tweak: Partial<Member> = {}): Member =>
    member(name, { ready: false, hasDeployment: false, ...tweak });
  const none = (): boolean => false;

  it.each([
    { why: 'a complete member: no', m: member('a'), waiting: none, done: false },
    {
      why: 'half-made long enough ago: yes',
      m: halfMade('a', { created: NOW - HALF_MADE_MS - 1 }),
      waiting: none,
      done: true,
    },
    {
      why: 'being made now: not twice',
      m: halfMade('a', { created: NOW - 1000 }),
      waiting: none,
      done: false,
    },
    {
      why: 'waiting for its quota: yes, at once',
      m: halfMade('a', { created: NOW - 1000 }),
      waiting: () => true,
      done: true,
    },
    {
      why: 'of an older spec: replaced, not completed',
      m: halfMade('a', { created: 0, hash: 'old' }),
      waiting: none,
      done: false,
    },
    {
      why: 'being deleted: no',
      m: halfMade('a', { created: 0, deleting: true }),
      waiting: () => true,
      done: false,
    },
  ])('$why', ({ m, waiting, done }) => {
    expect(names(unfinished([m], HASH, NOW, waiting))).toEqual(done ? ['a'] : []);
  });
});
