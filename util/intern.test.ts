import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { heapUsed } from '../testing/heap.js';
import { intern, internStrings } from './intern.js';

/** A fresh copy of the text, as a JSON parse of another response would make it. */
function copyOf(text: string): string {
  return (JSON.parse(JSON.stringify({ text })) as { text: string }).text;
}

describe('intern', () => {
  it('returns an equal string, numeric and special names included', () => {
    for (const value of ['Deployment', '', '12345', '__proto__', 'constructor', 'a'.repeat(20_000)]) {
      expect(intern(copyOf(value))).toBe(value);
    }
  });

  it('keeps one copy of equal strings', () => {
    const text = 'Deployment has minimum availability.';
    const held: string[] = [];
    const before = heapUsed();
    for (let i = 0; i < 20_000; i++) held.push(copyOf(text));
    const copies = heapUsed() - before;
    for (let i = 0; i < held.length; i++) held[i] = intern(held[i]!);
    const interned = heapUsed() - before;
    // 20,000 copies of 36 characters take ~1 MiB; the array holding them 160 KiB.
    expect(copies).toBeGreaterThan(800_000);
    expect(interned).toBeLessThan(copies / 2);
    expect(new Set(held)).toEqual(new Set([text]));
  });
});

describe('internStrings', () => {
  it('leaves a parsed object equal to what it was', () => {
    const object = {
      apiVersion: 'apps/v1',
      metadata: { name: 'a', labels: { 'landlord.dev/tenant': 'a' }, generation: 3 },
      spec: { replicas: 1, paused: false, template: { spec: { containers: [{ args: ['-c', 'x'] }] } } },
      status: { conditions: [{ type: 'Available', status: 'True' }], nothing: null },
    };
    const parsed: unknown = JSON.parse(JSON.stringify(object));
    internStrings(parsed);
    expect(parsed).toStrictEqual(object);
  });

  it('takes from a previous version only what is equal, whatever the shapes of both', () => {
    const json = fc.jsonValue({ maxDepth: 3 });
    fc.assert(
      fc.property(json, json, (value, previous) => {
        const copy: unknown = JSON.parse(JSON.stringify(value));
        internStrings(copy, JSON.parse(JSON.stringify(previous)));
        expect(copy).toStrictEqual(JSON.parse(JSON.stringify(value)));
      }),
      { numRuns: 500 },
    );
  });

  it('leaves an update equal to itself where it repeats and where it changed', () => {
    const previous = { status: { conditions: [{ type: 'Available', status: 'False' }], replicas: 1 } };
    const update = {
      status: { conditions: [{ type: 'Available', status: 'True' }, { type: 'Progressing' }] },
    };
    const copy: unknown = JSON.parse(JSON.stringify(update));
    internStrings(copy, previous);
    expect(copy).toStrictEqual(update);
  });
});
