import { describe, expect, it } from 'vitest';
import { describeAttribute, readAttribute } from './attribute.js';
import type { Attribute } from './attribute.js';

describe('readAttribute', () => {
  it.each<[unknown, Attribute]>([
    [{ S: 'x' }, { tag: 'S', value: 'x' }],
    [{ S: '' }, { tag: 'S', value: '' }],
    [{ N: '3' }, { tag: 'N', value: '3' }],
    [{ BOOL: false }, { tag: 'BOOL', value: false }],
    [{ NULL: true }, { tag: 'NULL' }],
    [{ M: { a: { S: 'b' } } }, { tag: 'M', value: { a: { S: 'b' } } }],
    [{ L: [{ N: '1' }] }, { tag: 'L', value: [{ N: '1' }] }],
    [{ B: new Uint8Array([1]) }, { tag: 'B' }],
    [{ SS: ['a'] }, { tag: 'SS' }],
    [{ NS: ['1'] }, { tag: 'NS' }],
    [{ BS: [new Uint8Array()] }, { tag: 'BS' }],
    [{ $unknown: ['VECTOR', [1, 2]] }, { tag: 'unknown', name: 'VECTOR' }],
    [
      { S: 'x', N: undefined, M: undefined },
      { tag: 'S', value: 'x' },
    ],
  ])('reads %j', (value, expected) => {
    expect(readAttribute(value)).toEqual(expected);
  });

  it.each<[string, unknown]>([
    ['undefined', undefined],
    ['null', null],
    ['a bare string', 'tenant-1'],
    ['a list', [{ S: 'x' }]],
    ['no tag', {}],
    ['two tags', { S: 'x', N: '1' }],
    ['an unknown tag', { Z: 'x' }],
    ['a lower-case tag', { s: 'x' }],
    ['S holding a number', { S: 1 }],
    ['N holding a number', { N: 1 }],
    ['BOOL holding a string', { BOOL: 'true' }],
    ['NULL false', { NULL: false }],
    ['M holding a list', { M: [] }],
    ['M holding null', { M: null }],
    ['L holding a map', { L: {} }],
    ['a malformed $unknown', { $unknown: 'VECTOR' }],
    ['an inherited tag', Object.create({ S: 'x' }) as unknown],
  ])('rejects %s', (_case, value) => {
    expect(readAttribute(value)).toBeUndefined();
  });
});

describe('describeAttribute', () => {
  it.each<[Attribute | undefined, string]>([
    [{ tag: 'S', value: 'true' }, 'S "true"'],
    [{ tag: 'S', value: 'x'.repeat(200) }, `S "${'x'.repeat(80)}…"`],
    [{ tag: 'N', value: '1' }, 'N 1'],
    [{ tag: 'BOOL', value: true }, 'BOOL true'],
    [{ tag: 'NULL' }, 'NULL'],
    [{ tag: 'M', value: {} }, 'M (map)'],
    [{ tag: 'L', value: [] }, 'L (list)'],
    [{ tag: 'B' }, 'B (binary)'],
    [{ tag: 'SS' }, 'SS (string set)'],
    [{ tag: 'NS' }, 'NS (number set)'],
    [{ tag: 'BS' }, 'BS (binary set)'],
    [{ tag: 'unknown', name: 'VECTOR' }, 'unknown type "VECTOR"'],
    [undefined, 'a value that is not a DynamoDB AttributeValue'],
  ])('describes %j as %j', (attribute, expected) => {
    expect(describeAttribute(attribute)).toBe(expected);
  });
});
