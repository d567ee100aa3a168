import { describe, expect, it } from 'vitest';
import { describeChange, diffJson, shortValue } from './json-diff.js';

describe('diffJson', () => {
  it('finds nothing between equal values', () => {
    expect(diffJson({ a: [1, { b: 'x' }] }, { a: [1, { b: 'x' }] })).toEqual([]);
  });

  it('names changed leaves by path, in key order', () => {
    const before = { spec: { replicas: 2, template: { containers: [{ image: 'a' }] } } };
    const after = { spec: { replicas: 3, template: { containers: [{ image: 'b' }] } } };
    expect(diffJson(before, after).map(describeChange)).toEqual([
      'spec.replicas: 2 → 3',
      'spec.template.containers[0].image: "a" → "b"',
    ]);
  });

  it('reports whole added and removed subtrees, and list items past the shorter end', () => {
    expect(
      diffJson({ a: 1, env: [1] }, { env: [1, { name: 'X' }], b: { c: 1 } }).map(describeChange),
    ).toEqual(['a: removed', 'b: added {"c":1}', 'env[1]: added {"name":"X"}']);
  });

  it('quotes keys that are not identifiers, as labels are', () => {
    expect(
      diffJson({ labels: { 'app.kubernetes.io/name': 'a' } }, { labels: { 'app.kubernetes.io/name': 'b' } }),
    ).toEqual([{ path: 'labels["app.kubernetes.io/name"]', kind: 'changed', before: 'a', after: 'b' }]);
  });

  it('reports a type change as a change, not as nested differences', () => {
    expect(diffJson({ a: [1] }, { a: { 0: 1 } })).toEqual([
      { path: 'a', kind: 'changed', before: [1], after: { 0: 1 } },
    ]);
  });
});

describe('shortValue', () => {
  it('shortens long values to a recognisable prefix', () => {
    expect(shortValue('x'.repeat(100), 10)).toBe(`"${'x'.repeat(8)}…`);
    expect(shortValue(3)).toBe('3');
  });
});
