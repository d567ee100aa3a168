// SQL quoting: whatever a name holds, it stays one quoted name.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { myAccount, myGrantDatabase, myIdent, myLiteral, pgIdent, pgLiteral } from './quote.js';

describe('quoting', () => {
  it.each([
    ['t_acme', '"t_acme"', '`t_acme`'],
    ['t_my-tenant', '"t_my-tenant"', '`t_my-tenant`'],
    ['a"b', '"a""b"', '`a"b`'],
    ['a`b', '"a`b"', '`a``b`'],
    ['x"; DROP DATABASE y; --', '"x""; DROP DATABASE y; --"', '`x"; DROP DATABASE y; --`'],
  ])('%s', (name, pg, my) => {
    expect(pgIdent(name)).toBe(pg);
    expect(myIdent(name)).toBe(my);
  });

  it('quotes literals for each engine', () => {
    expect(pgLiteral("it's")).toBe("'it''s'");
    expect(pgLiteral('a\\b')).toBe("'a\\b'");
    expect(myLiteral("it's")).toBe("'it\\'s'");
    expect(myLiteral('a\\b')).toBe("'a\\\\b'");
    expect(myAccount('t_a')).toBe("'t_a'@'%'");
  });

  it('escapes the wildcards of a database grant', () => {
    expect(myGrantDatabase('t_a%b')).toBe('`t\\_a\\%b`');
  });

  it('refuses NUL', () => {
    expect(() => pgIdent('a\0b')).toThrow(/NUL/);
    expect(() => myLiteral('a\0b')).toThrow(/NUL/);
  });

  it('a PostgreSQL identifier never ends early', () => {
    fc.assert(
      fc.property(
        fc.string().filter((s) => !s.includes('\0')),
        (name) => {
          const quoted = pgIdent(name);
          const inner = quoted.slice(1, -1);
          // Inside, every double quote comes in a pair: no quote closes the name before its end.
          expect(inner.replaceAll('""', '')).not.toContain('"');
        },
      ),
    );
  });

  it('a MariaDB identifier never ends early', () => {
    fc.assert(
      fc.property(
        fc.string().filter((s) => !s.includes('\0')),
        (name) => {
          const inner = myIdent(name).slice(1, -1);
          expect(inner.replaceAll('``', '')).not.toContain('`');
        },
      ),
    );
  });
});
