import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DNS_1123_LABEL_MAX, isDns1123Label } from './dns.js';

describe('isDns1123Label', () => {
  it.each(['a', '0', 'tenant-1', '1tenant', 'a-b-c', 'a--b', 'a'.repeat(DNS_1123_LABEL_MAX)])(
    'accepts %j',
    (name) => {
      expect(isDns1123Label(name)).toBe(true);
    },
  );

  it.each([
    ['empty', ''],
    ['upper case', 'Tenant-1'],
    ['underscore', 'tenant_1'],
    ['dot', 'tenant.1'],
    ['leading dash', '-tenant'],
    ['trailing dash', 'tenant-'],
    ['64 characters', 'a'.repeat(DNS_1123_LABEL_MAX + 1)],
    ['unicode letter', 'tenänt'],
    ['emoji', 'tenant-😀'],
    ['space', 'tenant 1'],
    ['trailing newline', 'tenant\n'],
    ['a number passed by an untyped caller', 42 as unknown as string],
  ])('rejects a name with %s', (_case, name) => {
    expect(isDns1123Label(name)).toBe(false);
  });

  it('answers at once for a 400 KB string', () => {
    expect(isDns1123Label(`${'a'.repeat(400_000)}-`)).toBe(false);
  });

  it('accepts every label the rule describes', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[a-z0-9](?:[-a-z0-9]{0,61}[a-z0-9])?$/), (name) => {
        expect(isDns1123Label(name)).toBe(true);
      }),
    );
  });

  it('rejects any name holding a character outside [-a-z0-9]', () => {
    const outside = fc.string({ minLength: 1, maxLength: 1 }).filter((c) => !/[-a-z0-9]/.test(c));
    fc.assert(
      fc.property(fc.string({ maxLength: 20 }), outside, fc.string({ maxLength: 20 }), (a, c, b) => {
        expect(isDns1123Label(`${a}${c}${b}`)).toBe(false);
      }),
    );
  });
});
