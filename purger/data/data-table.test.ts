import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseDataTables, partitionValueFor, type DataTableSpec } from './data-table.js';

const spec = (valueTemplate: string): DataTableSpec => ({
  table: 'orders',
  partitionKey: 'pk',
  valueTemplate,
});

describe('partitionValueFor', () => {
  it('puts the tenant name where the template says', () => {
    expect(partitionValueFor(spec('{name}'), 'acme')).toBe('acme');
    expect(partitionValueFor(spec('TENANT#{name}'), 'acme')).toBe('TENANT#acme');
    expect(partitionValueFor(spec('{name}#data'), 'acme-eu')).toBe('acme-eu#data');
  });

  it('refuses a template without {name} or with two', () => {
    expect(() => partitionValueFor(spec('TENANT#'), 'acme')).toThrow(/exactly once \(found 0\)/);
    expect(() => partitionValueFor(spec('{name}#{name}'), 'acme')).toThrow(/exactly once \(found 2\)/);
  });

  it('gives different tenants different values, the template around each intact', () => {
    const label = fc.stringMatching(/^[a-z0-9]([a-z0-9-]{0,20}[a-z0-9])?$/);
    fc.assert(
      fc.property(label, label, fc.constantFrom('{name}', 'TENANT#{name}', 'x{name}y'), (a, b, template) => {
        const [before, after] = template.split('{name}') as [string, string];
        const value = partitionValueFor(spec(template), a);
        expect(value).toBe(`${before}${a}${after}`);
        if (a !== b) expect(partitionValueFor(spec(template), b)).not.toBe(value);
      }),
    );
  });
});

describe('parseDataTables', () => {
  const good = [
    { table: 'orders', partitionKey: 'tenant', valueTemplate: '{name}' },
    { table: 'events.v2', partitionKey: 'pk', valueTemplate: 'TENANT#{name}' },
  ];

  it('accepts a list of tables', () => {
    expect(parseDataTables(JSON.stringify(good))).toEqual(good);
    expect(parseDataTables('[]')).toEqual([]);
  });

  it.each([
    ['not JSON', '[{', /^data tables: not JSON/],
    ['not an array', '{"table":"orders"}', /must be a JSON array/],
    [
      'a missing field',
      '[{"table":"orders","partitionKey":"pk"}]',
      /^data table 0 \("orders"\): must have required property 'valueTemplate'/,
    ],
    [
      'an unknown field',
      '[{"table":"orders","partitionKey":"pk","valueTemplate":"{name}","sortKey":"sk"}]',
      /additional properties \(sortKey\)/,
    ],
    [
      'a bad table name',
      '[{"table":"a b","partitionKey":"pk","valueTemplate":"{name}"}]',
      /^data table 0 \("a b"\): table must match/,
    ],
    [
      'an empty partition key',
      '[{"table":"orders","partitionKey":"","valueTemplate":"{name}"}]',
      /partitionKey must NOT have fewer than 1 characters/,
    ],
    [
      'a template without {name}',
      '[{"table":"orders","partitionKey":"pk","valueTemplate":"TENANT#"}]',
      /^data table 0 \("orders"\): valueTemplate "TENANT#" must contain \{name\} exactly once/,
    ],
  ])('refuses %s, naming the entry', (_, json, message) => {
    expect(() => parseDataTables(json)).toThrow(message);
  });

  it('names the second entry when the second is wrong, and refuses a table listed twice', () => {
    const second = [good[0], { ...good[1], valueTemplate: '{name}{name}' }];
    expect(() => parseDataTables(JSON.stringify(second))).toThrow(/^data table 1 \("events.v2"\)/);
    const twice = [good[0], { ...good[0], partitionKey: 'other' }];
    expect(() => parseDataTables(JSON.stringify(twice))).toThrow(/^data table 1 \("orders"\): listed twice/);
  });
});
