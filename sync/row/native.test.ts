import { describe, expect, it } from 'vitest';
import { MAX_DEPTH } from './json.js';
import { mapToJson } from './native.js';

/** `depth` levels of M, counting the outer map handed to mapToJson. */
function nestedMaps(depth: number): Record<string, unknown> {
  let map: Record<string, unknown> = {};
  for (let level = 1; level < depth; level += 1) {
    map = { a: { M: map } };
  }
  return map;
}

function messageOf(map: Record<string, unknown>): string {
  const result = mapToJson(map, 'spec', 1);
  return result.ok ? '' : result.message;
}

describe('mapToJson', () => {
  it('turns every JSON-like type into its JSON value', () => {
    const map = {
      s: { S: 'text' },
      n: { N: '3' },
      b: { BOOL: true },
      z: { NULL: true },
      m: { M: { inner: { S: 'x' } } },
      l: { L: [{ N: '1' }, { S: 'two' }, { L: [] }, { M: {} }] },
    };
    expect(mapToJson(map, 'spec', 1)).toEqual({
      ok: true,
      value: { s: 'text', n: 3, b: true, z: null, m: { inner: 'x' }, l: [1, 'two', [], {}] },
    });
  });

  it.each([
    ['3', 3],
    ['-3', -3],
    ['+3', 3],
    ['0.5', 0.5],
    ['.5', 0.5],
    ['5.', 5],
    ['-1.5E3', -1500],
    ['1e-2', 0.01],
    ['12345678901234567890', JSON.parse('12345678901234567890') as number],
  ])('reads N %j as %d', (text, expected) => {
    expect(mapToJson({ replicas: { N: text } }, 'spec', 1)).toEqual({
      ok: true,
      value: { replicas: expected },
    });
  });

  it.each(['', ' 1', '1 ', '0x10', 'Infinity', 'NaN', '1e400', '1,5', '--1', 'e5', 'abc'])(
    'refuses N %j',
    (text) => {
      expect(messageOf({ replicas: { N: text } })).toBe(
        `spec.replicas: N ${JSON.stringify(text)} is not a finite number`,
      );
    },
  );

  it('refuses a 400 KB N quickly', () => {
    expect(messageOf({ n: { N: `${'1'.repeat(400_000)}x` } })).toMatch(
      /^spec\.n: N "1+…" is not a finite number$/,
    );
  });

  it.each([
    [{ SS: ['a'] }, 'SS (string set) has no JSON form'],
    [{ NS: ['1'] }, 'NS (number set) has no JSON form'],
    [{ BS: [] }, 'BS (binary set) has no JSON form'],
    [{ B: new Uint8Array() }, 'B (binary) has no JSON form'],
    [{ $unknown: ['VECTOR', []] }, 'unknown type "VECTOR" has no JSON form'],
    [{ S: 1 }, 'not a DynamoDB AttributeValue'],
    ['bare', 'not a DynamoDB AttributeValue'],
    [undefined, 'not a DynamoDB AttributeValue'],
  ])('refuses %j inside a map', (value, reason) => {
    expect(messageOf({ kind: value })).toBe(`spec.kind: ${reason}`);
  });

  it('names the path to a bad element', () => {
    const map = {
      spec: {
        M: { template: { M: { 'app.kubernetes.io/name': { L: [{ S: 'ok' }, { SS: ['x'] }] } } } },
      },
    };
    expect(messageOf(map)).toBe(
      'spec.spec.template["app.kubernetes.io/name"][1]: SS (string set) has no JSON form',
    );
  });

  it('starts the path where it is told', () => {
    const result = mapToJson({ data: { M: { k: { N: 'x' } } } }, 'customizations[3]', 2);
    expect(result).toEqual({ ok: false, message: 'customizations[3].data.k: N "x" is not a finite number' });
  });

  it('shortens a long path', () => {
    let map: Record<string, unknown> = { bad: { SS: [] } };
    for (let level = 0; level < 40; level += 1) {
      map = { [`key-${'k'.repeat(60)}`]: { M: map } };
    }
    expect(messageOf(map).length).toBeLessThanOrEqual(200);
  });

  it(`accepts ${MAX_DEPTH} levels and refuses ${MAX_DEPTH + 1}, naming only the attribute`, () => {
    expect(mapToJson(nestedMaps(MAX_DEPTH), 'spec', 1).ok).toBe(true);
    expect(messageOf(nestedMaps(MAX_DEPTH + 1))).toBe(`spec: nested deeper than ${MAX_DEPTH} levels`);
    expect(mapToJson(nestedMaps(MAX_DEPTH), 'customizations[0]', 2).ok).toBe(false);
  });

  it('counts lists as levels too', () => {
    let list: unknown = { L: [] };
    for (let level = 2; level < MAX_DEPTH; level += 1) {
      list = { L: [list] };
    }
    expect(mapToJson({ a: list }, 'spec', 1).ok).toBe(true);
    expect(messageOf({ a: { L: [list] } })).toBe(`spec: nested deeper than ${MAX_DEPTH} levels`);
  });

  it('stops at the depth limit on a map that contains itself', () => {
    const map: Record<string, unknown> = {};
    map.self = { M: map };
    expect(messageOf(map)).toBe(`spec: nested deeper than ${MAX_DEPTH} levels`);
  });

  it('keeps a "__proto__" key as an own key without touching any prototype', () => {
    const map = JSON.parse('{"__proto__":{"M":{"polluted":{"BOOL":true}}}}') as Record<string, unknown>;
    const result = mapToJson(map, 'spec', 1);
    const value = result.ok ? result.value : {};
    expect(Object.keys(value)).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(value, '__proto__')?.value).toEqual({ polluted: true });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('returns fresh objects', () => {
    const inner = { M: { x: { S: 'y' } } };
    const map = { a: inner, b: inner };
    const result = mapToJson(map, 'spec', 1);
    const value = result.ok ? result.value : {};
    expect(value.a).not.toBe(value.b);
    expect(value.a).toEqual(value.b);
  });
});
