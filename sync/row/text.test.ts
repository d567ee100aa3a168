import { describe, expect, it } from 'vitest';
import { MAX_ECHO, quote, truncate } from './text.js';

describe('truncate', () => {
  it('keeps a short text as it is', () => {
    expect(truncate('tenant-1')).toBe('tenant-1');
    expect(truncate('x'.repeat(MAX_ECHO))).toBe('x'.repeat(MAX_ECHO));
  });

  it('cuts a long text and marks the cut', () => {
    expect(truncate('x'.repeat(400_000))).toBe(`${'x'.repeat(MAX_ECHO)}…`);
    expect(truncate('abcdef', 3)).toBe('abc…');
  });

  it('never splits a surrogate pair', () => {
    const cut = truncate(`${'x'.repeat(MAX_ECHO - 1)}😀😀`);
    expect(cut).toBe(`${'x'.repeat(MAX_ECHO - 1)}…`);
  });
});

describe('quote', () => {
  it('quotes and escapes so a message stays on one line', () => {
    expect(quote('Tenant_1')).toBe('"Tenant_1"');
    expect(quote('a\nb"c')).toBe('"a\\nb\\"c"');
  });

  it('quotes only the start of a long value', () => {
    expect(quote('s'.repeat(1000))).toBe(`"${'s'.repeat(MAX_ECHO)}…"`);
  });
});
