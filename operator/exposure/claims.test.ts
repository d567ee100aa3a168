import { describe, expect, it } from 'vitest';
import { HostClaims } from './claims.js';

describe('HostClaims', () => {
  it('names the rivals over the hosts whose claims changed, and only when they changed', () => {
    const claims = new HostClaims();
    expect(claims.set('a', '2026-01-01T00:00:00Z', ['a.example.org', 'shop.example.org'])).toEqual([]);
    expect(claims.set('b', '2026-02-01T00:00:00Z', ['b.example.org', 'shop.example.org'])).toEqual(['a']);
    // Nothing changed: nobody to wake.
    expect(claims.set('b', '2026-02-01T00:00:00Z', ['b.example.org', 'shop.example.org'])).toEqual([]);
    expect(claims.holderBefore('shop.example.org', { tenant: 'b', createdAt: '2026-02-01T00:00:00Z' })).toBe(
      'Tenant a',
    );
    // The holder lets go (archived): the claimant is named, and may take it.
    expect(claims.gone('a')).toEqual(['b']);
    expect(
      claims.holderBefore('shop.example.org', { tenant: 'b', createdAt: '2026-02-01T00:00:00Z' }),
    ).toBeUndefined();
    // It comes back: the one that took the host meanwhile is named, and loses it.
    expect(claims.set('a', '2026-01-01T00:00:00Z', ['a.example.org', 'shop.example.org'])).toEqual(['b']);
    expect(claims.claimants('shop.example.org')).toEqual(['a', 'b']);
    expect(claims.holderBefore('shop.example.org', { tenant: 'b', createdAt: '2026-02-01T00:00:00Z' })).toBe(
      'Tenant a',
    );
  });

  it('among Tenants created in the same second, the one named first holds', () => {
    const claims = new HostClaims();
    claims.set('b', '2026-01-01T00:00:00Z', ['shop.example.org']);
    claims.set('a', '2026-01-01T00:00:00Z', ['shop.example.org']);
    expect(claims.holderBefore('shop.example.org', { tenant: 'b', createdAt: '2026-01-01T00:00:00Z' })).toBe(
      'Tenant a',
    );
    expect(
      claims.holderBefore('shop.example.org', { tenant: 'a', createdAt: '2026-01-01T00:00:00Z' }),
    ).toBeUndefined();
  });
});
