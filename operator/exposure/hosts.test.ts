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
