import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hostProblem, isUnder } from './hosts.js';

const DOMAINS = ['apps.example.com', 'example.org'];

describe('hostProblem', () => {
  it.each([
    ['acme.apps.example.com', undefined],
    ['apps.example.com', undefined],
    ['a.b.example.org', undefined],
    ['shop.example.org', undefined],
    ['*.apps.example.com', 'InvalidHost'],
    ['10.0.0.1', 'InvalidHost'],
    ['::1', 'InvalidHost'],
    ['[fd00::1]', 'InvalidHost'],
    ['Acme.apps.example.com', 'InvalidHost'],
    ['acme_1.apps.example.com', 'InvalidHost'],
    ['-acme.apps.example.com', 'InvalidHost'],
    ['acme..apps.example.com', 'InvalidHost'],
    ['localhost', 'InvalidHost'],
    [`${'a'.repeat(64)}.apps.example.com`, 'InvalidHost'],
    [`${'a.'.repeat(127)}example.org`, 'InvalidHost'],
    ['evilapps.example.com', 'HostNotAllowed'],
    ['example.com', 'HostNotAllowed'],
    ['acme.example.net', 'HostNotAllowed'],
  ])('%s: %s', (host, reason) => {
    expect(hostProblem(host, DOMAINS)?.reason).toBe(reason);
  });

  it('says the class allows no domain when allowedDomains is empty', () => {
    expect(hostProblem('acme.apps.example.com', [])).toEqual({
      reason: 'HostNotAllowed',
      text: "is not under the class's allowedDomains: none (the class sets no allowedDomains)",
    });
  });
});

describe('isUnder', () => {
  it('matches whole labels only', () => {
    expect(isUnder('a.apps.example.com', 'apps.example.com')).toBe(true);
    expect(isUnder('apps.example.com', 'apps.example.com')).toBe(true);
    expect(isUnder('xapps.example.com', 'apps.example.com')).toBe(false);
  });
});

const label = fc.stringMatching(/^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/);

describe('hostProblem properties', () => {
  it('routes any DNS name under an allowed domain, up to 253 characters', () => {
    fc.assert(
      fc.property(fc.array(label, { minLength: 1, maxLength: 5 }), (labels) => {
        const host = [...labels, 'example.org'].join('.');
        expect(hostProblem(host, DOMAINS)?.reason).toBe(host.length <= 253 ? undefined : 'InvalidHost');
      }),
    );
  });

  it('refuses a label of more than 63 characters, wherever it stands', () => {
    fc.assert(
      fc.property(label, fc.integer({ min: 64, max: 100 }), fc.boolean(), (name, length, first) => {
        const long = 'a'.repeat(length);
        const host = first ? `${long}.${name}.example.org` : `${name}.${long}.example.org`;
        expect(hostProblem(host, DOMAINS)?.reason).toBe('InvalidHost');
      }),
    );
  });
});
