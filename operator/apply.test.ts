import { describe, expect, it } from 'vitest';
import { APPLY_WAVES } from './apply.js';
import { CHILD_API_VERSION } from './child-ref.js';

describe('APPLY_WAVES', () => {
  it('puts every kind in exactly one wave: the Namespace, then its fences, then the children', () => {
    const kinds = APPLY_WAVES.flat();
    expect([...kinds].sort()).toEqual(Object.keys(CHILD_API_VERSION).sort());
    expect(APPLY_WAVES[0]).toEqual(['Namespace']);
    expect(APPLY_WAVES.at(-1)).toEqual(['Deployment', 'ConfigMap']);
  });
});
