import { describe, expect, it } from 'vitest';
import { readHosts } from './hosts.js';
import { rowHash } from './hash.js';

const L = (...values: unknown[]): unknown => ({ L: values });

describe('readHosts', () => {
  it.each([
    ['absent', undefined, undefined],
    ['NULL', { NULL: true }, undefined],
    ['an empty list', L(), undefined],
    [
      'an L of S, sorted and distinct',
      L({ S: 'b.example.com' }, { S: 'a.example.com' }, { S: 'b.example.com' }),
      ['a.example.com', 'b.example.com'],
    ],
    ['JSON text', { S: '["shop.example.com"]' }, ['shop.example.com']],
  ])('%s', (_what, value, hosts) => {
    expect(readHosts(value)).toEqual({ ok: true, value: hosts });
  });

  it.each([
    ['a number', { N: '1' }, 'hosts: must be a list of strings (L of S, or JSON text of one), got N'],
    ['an L with a number', L({ N: '1' }), 'hosts[0]: must be a string'],
    ['JSON text of an object', { S: '{"a":1}' }, 'hosts: must be a list of strings'],
    ['broken JSON', { S: '["a"' }, 'hosts: invalid JSON'],
    ['an empty host', L({ S: '' }), 'hosts[0]: must be 1 to 253 characters'],
    [
      'a host longer than a DNS name',
      L({ S: `${'a'.repeat(242)}.example.com` }),
      'hosts[0]: must be 1 to 253',
    ],
    ['too many', L(...Array.from({ length: 33 }, (_, i) => ({ S: `h${i}.example.com` }))), 'hosts: 33 hosts'],
  ])('refuses %s', (_what, value, message) => {
    const read = readHosts(value);
    expect(read.ok).toBe(false);
    if (!read.ok) expect(read.message).toContain(message);
  });
});

describe('rowHash with hosts', () => {
  it('is unchanged for a row without hosts, and changes with them', () => {
    const spec = { deployment: {}, configMaps: [] };
    expect(rowHash({ ...spec, hosts: [] })).toBe(rowHash(spec));
    expect(rowHash({ ...spec, hosts: ['a.example.com'] })).not.toBe(rowHash(spec));
  });
});
