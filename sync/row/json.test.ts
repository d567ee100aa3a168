import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { deeperThan, isJsonObject, jsonType, MAX_DEPTH, parseJson } from './json.js';
import type { JsonValue } from './json.js';

/** `depth` levels of arrays, the innermost holding `leaf`. */
function nestedArrays(depth: number, leaf = '1'): string {
  return `${'['.repeat(depth)}${leaf}${']'.repeat(depth)}`;
}

describe('jsonType', () => {
  it.each<[JsonValue, string]>([
    [{}, 'object'],
    [[], 'array'],
    [null, 'null'],
    ['x', 'string'],
    [0, 'number'],
    [false, 'boolean'],
  ])('names %j %s', (value, expected) => {
    expect(jsonType(value)).toBe(expected);
    expect(isJsonObject(value)).toBe(expected === 'object');
  });
});

describe('parseJson', () => {
  it('parses JSON text', () => {
    expect(parseJson('spec', '{"a":[1,"b",null,true]}')).toEqual({
      ok: true,
      value: { a: [1, 'b', null, true] },
    });
  });

  it.each([
    ['a trailing comma', '{"a":1,}'],
    ['an empty string', ''],
    ['a bare word', 'hello'],
    ['unbalanced brackets', '[1,2'],
    ['two values', '{}{}'],
    ['single quotes', "{'a':1}"],
  ])('refuses %s, naming the attribute and the parser error', (_case, text) => {
    const result = parseJson('spec', text);
    expect(result.ok).toBe(false);
    expect(result.ok ? '' : result.message).toMatch(/^spec: invalid JSON: \S/);
  });

  it('keeps the parser message short when it quotes the text', () => {
    const secret = `password=${'s'.repeat(400_000)}`;
    const result = parseJson('spec', secret);
    expect(result.ok ? '' : result.message.length).toBeLessThanOrEqual(160);
  });

  it(`accepts ${MAX_DEPTH} levels and refuses ${MAX_DEPTH + 1}`, () => {
    expect(parseJson('spec', nestedArrays(MAX_DEPTH)).ok).toBe(true);
    expect(parseJson('spec', nestedArrays(MAX_DEPTH + 1))).toEqual({
      ok: false,
      message: `spec: nested deeper than ${MAX_DEPTH} levels`,
    });
  });

  it('refuses 400 KB of nesting quickly, without exhausting the stack', () => {
    expect(parseJson('customizations', nestedArrays(200_000, '')).ok).toBe(false);
  });

  it('keeps a "__proto__" key as an own key', () => {
    const result = parseJson('spec', '{"__proto__":{"polluted":true}}');
    const value = result.ok ? result.value : null;
    expect(Object.keys(value ?? {})).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
  });

  it('never throws on any text', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.json()), (text) => {
        const result = parseJson('spec', text);
        expect(result.ok || result.message.startsWith('spec: ')).toBe(true);
      }),
    );
  });
});

describe('deeperThan', () => {
  it.each<[JsonValue, number]>([
    [1, 0],
    [{}, 1],
    [{ a: 1 }, 1],
    [{ a: [] }, 2],
    [[{ a: [{}] }], 4],
  ])('finds %j nested %i levels', (value, depth) => {
    expect(deeperThan(value, depth)).toBe(false);
    expect(deeperThan(value, depth - 1)).toBe(depth > 0);
  });
});
