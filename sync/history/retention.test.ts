import { describe, expect, it } from 'vitest';
import { nextRevision, revisionsToPrune } from './retention.js';

describe('revisionsToPrune', () => {
  it.each<[string, number[], number, number[]]>([
    ['none while within the limit', [1, 2, 3], 3, []],
    ['the oldest beyond the limit', [1, 2, 3, 4], 3, [1]],
    ['oldest first, whatever the listed order', [7, 2, 9, 4, 5], 2, [2, 4, 5]],
    ['numbers, not names (10 is newer than 9)', [9, 10, 11], 2, [9]],
    ['everything at a limit of 0', [1, 2], 0, [1, 2]],
    ['nothing of nothing', [], 3, []],
  ])('chooses %s', (_case, revisions, limit, pruned) => {
    expect(revisionsToPrune(revisions, limit)).toEqual(pruned);
  });
});

describe('nextRevision', () => {
  it('continues from the highest kept, so a pruned number never comes back', () => {
    expect(nextRevision([])).toBe(1);
    expect(nextRevision([4, 6, 5])).toBe(7);
  });
});
