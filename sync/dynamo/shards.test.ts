import { describe, expect, it } from 'vitest';
import { ShardTracker, type ListedShard } from './shards.js';

type Listed = ListedShard & { closed: boolean };

const open = (id: string, parentId?: string): Listed => ({
  id,
  closed: false,
  ...(parentId ? { parentId } : {}),
});
const closed = (id: string, parentId?: string): Listed => ({ ...open(id, parentId), closed: true });
const ids = (tracker: ShardTracker): string[] => tracker.readable().map((shard) => shard.id);

describe('ShardTracker', () => {
  it('starts open shards at LATEST at the first listing and counts closed ones as read', () => {
    const tracker = new ShardTracker();
    tracker.update([closed('a'), open('b', 'a'), open('c')], true);
    expect(ids(tracker)).toEqual(['b', 'c']);
    expect(tracker.position('b')).toEqual({ type: 'LATEST' });
  });

  it('reads a parent before its children, then the children from their start', () => {
    const tracker = new ShardTracker();
    tracker.update([open('a')], true);
    tracker.update([closed('a'), open('b', 'a'), open('c', 'a')], false);
    expect(ids(tracker)).toEqual(['a']);
    tracker.advance('a', 'it-2', '100');
    expect(ids(tracker)).toEqual(['a']);
    tracker.advance('a', undefined, '101'); // closed and read to its end
    expect(ids(tracker)).toEqual(['b', 'c']);
    expect(tracker.position('b')).toEqual({ type: 'TRIM_HORIZON' });
  });

  it('reads a child at once when its parent is no longer listed (trimmed)', () => {
    const tracker = new ShardTracker();
    tracker.update([open('x')], true);
    tracker.update([open('x'), open('child', 'gone-parent')], false);
    expect(ids(tracker)).toEqual(['child', 'x']);
  });

  it('follows a chain: grandchildren wait for the child', () => {
    const tracker = new ShardTracker();
    tracker.update([open('a')], true);
    tracker.update([closed('a'), closed('b', 'a'), open('c', 'b')], false);
    tracker.advance('a', undefined, undefined);
    expect(ids(tracker)).toEqual(['b']);
    tracker.advance('b', undefined, '7');
    expect(ids(tracker)).toEqual(['c']);
  });

  it('reports shards that vanished before they were read to their end, and forgets read ones', () => {
    const tracker = new ShardTracker();
    tracker.update([open('a'), open('b')], true);
    tracker.advance('b', undefined, '9');
    expect(tracker.update([open('c')], false)).toEqual(['a']);
    expect(tracker.size).toBe(1);
  });

  it('continues after the last record read when an iterator expires', () => {
    const tracker = new ShardTracker();
    tracker.update([open('a')], true);
    tracker.setIterator('a', 'it-1');
    tracker.advance('a', 'it-2', '42');
    expect(tracker.expire('a')).toBe(false);
    expect(tracker.get('a')?.iterator).toBeUndefined();
    expect(tracker.position('a')).toEqual({ type: 'AFTER_SEQUENCE_NUMBER', sequence: '42' });
  });

  it('asks for a rescan when an iterator pinned at LATEST expires before any record was read', () => {
    const tracker = new ShardTracker();
    tracker.update([open('a')], true);
    tracker.setIterator('a', 'it-1');
    expect(tracker.expire('a')).toBe(true);
    expect(tracker.position('a')).toEqual({ type: 'LATEST' });
  });

  it('restarts a new shard from its start when its iterator expires unread: nothing is skipped', () => {
    const tracker = new ShardTracker();
    tracker.update([], true);
    tracker.update([open('n')], false);
    expect(tracker.expire('n')).toBe(false);
    expect(tracker.position('n')).toEqual({ type: 'TRIM_HORIZON' });
  });

  it('continues from now after the position was trimmed (the caller rescans)', () => {
    const tracker = new ShardTracker();
    tracker.update([open('a')], true);
    tracker.advance('a', 'it-2', '42');
    tracker.lose('a');
    expect(tracker.position('a')).toEqual({ type: 'LATEST' });
  });

  it('keeps its state for shards listed again', () => {
    const tracker = new ShardTracker();
    tracker.update([open('a')], true);
    tracker.advance('a', 'it-2', '42');
    tracker.update([open('a'), open('b')], false);
    expect(tracker.get('a')).toMatchObject({ iterator: 'it-2', lastSequence: '42', start: 'LATEST' });
  });
});
