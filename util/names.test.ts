import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isDns1123Label, isDns1123Subdomain } from './names.js';

describe('isDns1123Label', () => {
  it.each(['a', '0', 'team-a', 'a-1-b', '1abc', 'a'.repeat(63)])('accepts %j', (name) => {
    expect(isDns1123Label(name)).toBe(true);
  });

  it.each(['', 'A', 'Team', 'a_b', '-a', 'a-', 'a.b', 'a b', 'ä', 'tenant-😀', 'a'.repeat(64), 'a\n'])(
    'refuses %j',
    (name) => {
      expect(isDns1123Label(name)).toBe(false);
    },
  );

  it('refuses a non-string from an untyped caller', () => {
    expect(isDns1123Label(42 as unknown as string)).toBe(false);
  });

  it('answers a 400 KB string without scanning it with the pattern', () => {
    expect(isDns1123Label(`${'a'.repeat(400_000)}-`)).toBe(false);
  });
});

describe('isDns1123Subdomain', () => {
  it.each([
    'a',
    'web',
    'a.b',
    'a-b.c-d',
    'web.team-a.example',
    'a'.repeat(253),
    `${'a'.repeat(63)}.${'b'.repeat(189)}`,
  ])('accepts %j', (name) => {
    expect(isDns1123Subdomain(name)).toBe(true);
  });

  it.each(['', '.', 'a..b', '.a', 'a.', 'A.b', 'a_b', '-a.b', 'a-.b', 'a'.repeat(254), 'a b'])(
    'refuses %j',
    (name) => {
      expect(isDns1123Subdomain(name)).toBe(false);
    },
  );
});

const label = fc.stringMatching(/^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/);

describe('DNS-1123 properties', () => {
  it('accepts every label built from the allowed characters, as a label and as a subdomain', () => {
    fc.assert(
      fc.property(label, (name) => {
        expect(isDns1123Label(name)).toBe(true);
        expect(isDns1123Subdomain(name)).toBe(true);
      }),
    );
  });

  it('accepts labels joined by dots up to 253 characters', () => {
    fc.assert(
      fc.property(fc.array(label, { minLength: 1, maxLength: 6 }), (parts) => {
        const name = parts.join('.');
        expect(isDns1123Subdomain(name)).toBe(name.length <= 253);
      }),
    );
  });

  it('refuses any name with an upper-case letter', () => {
    fc.assert(
      fc.property(label, fc.constantFrom('A', 'Z', 'Q'), fc.nat(), (name, upper, at) => {
        const index = at % (name.length + 1);
        const mixed = `${name.slice(0, index)}${upper}${name.slice(index)}`;
        expect(isDns1123Label(mixed)).toBe(false);
        expect(isDns1123Subdomain(mixed)).toBe(false);
      }),
    );
  });

  it('treats every label as a subdomain, for any text', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 80 }), (text) => {
        if (isDns1123Label(text)) expect(isDns1123Subdomain(text)).toBe(true);
      }),
    );
  });
});
