import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { placeholderValue } from './template-match.js';

const NAME = '{name}';

describe('placeholderValue', () => {
  it.each([
    ['tenant-{name}', 'tenant-acme', 'acme'],
    ['{name}-db', 'a-db-db', 'a-db'],
    ['{name}-{name}', 'ab-ab', 'ab'],
    ['{name}-{name}', 'ab-cd', undefined],
    ['tenant-{name}', 'tenant-', undefined],
    ['tenant-{name}', 'team-acme', undefined],
    ['{name}-db', 'db', undefined],
    ['sendgrid', 'sendgrid', ''],
    ['sendgrid', 'other', undefined],
  ])('%j gives %j for %j', (template, text, value) => {
    expect(placeholderValue(template, NAME, text)).toBe(value);
  });

  it('reads whichever placeholder it is given', () => {
    expect(placeholderValue('t-{id}', '{id}', 't-ab12')).toBe('ab12');
    expect(placeholderValue('t-{id}', NAME, 't-ab12')).toBeUndefined();
  });
});

/** Text around the placeholders: no braces, so it never spells a placeholder itself. */
const fixedText = fc.string({ maxLength: 8 }).filter((s) => !s.includes('{'));
const template = fc.array(fixedText, { minLength: 2, maxLength: 4 }).map((parts) => parts.join(NAME));
const value = fc.string({ minLength: 1, maxLength: 12 });

describe('placeholderValue properties', () => {
  it('gives back the value a template was filled with', () => {
    fc.assert(
      fc.property(template, value, (t, v) => {
        expect(placeholderValue(t, NAME, t.split(NAME).join(v))).toBe(v);
      }),
    );
  });

  it('answers only with a value that fills the template to the very text', () => {
    fc.assert(
      fc.property(template, fc.string({ maxLength: 30 }), (t, text) => {
        const found = placeholderValue(t, NAME, text);
        if (found !== undefined) expect(t.split(NAME).join(found)).toBe(text);
      }),
    );
  });

  it('a template without the placeholder gives only itself, for every value', () => {
    fc.assert(
      fc.property(fixedText, fc.string({ maxLength: 8 }), (t, text) => {
        expect(placeholderValue(t, NAME, text)).toBe(t === text ? '' : undefined);
      }),
    );
  });
});
