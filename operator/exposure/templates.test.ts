import { describe, expect, it } from 'vitest';
import { templatedNames } from './templates.js';

describe('templatedNames', () => {
  it.each([
    ['victim.apps.example.com', ['{name}.apps.example.com'], ['victim']],
    ['www.victim.apps.example.com', ['{name}.apps.example.com'], []],
    ['apps.example.com', ['{name}.apps.example.com'], []],
    ['shop-a.example.com', ['shop-{name}.example.com'], ['a']],
    ['a-x.apps.example.com', ['{name}.apps.example.com', '{name}-x.apps.example.com'], ['a', 'a-x']],
    ['a.a.example.com', ['{name}.{name}.example.com'], ['a']],
    ['a.b.example.com', ['{name}.{name}.example.com'], []],
    // Regular-expression characters in a template are literal text.
    ['axapps.example.com', ['{name}.apps.example.com'], []],
    ['-bad.apps.example.com', ['{name}.apps.example.com'], []],
    [`${'a'.repeat(64)}.apps.example.com`, ['{name}.apps.example.com'], []],
    ['fixed.example.com', ['fixed.example.com'], []],
  ])('%s under %j: %j', (host, templates, names) => {
    expect(templatedNames(host, templates)).toEqual(names);
  });
});
