import { describe, expect, it } from 'vitest';
import { API_VERSION, KIND, type Tenant, type TenantState } from '../api/tenant.js';
import { lighten } from '../runtime/kube/informer.js';
import { takedownOf } from './takedown.js';
import { UNREAD } from './tenants.js';

const tenantIn = (state: TenantState | undefined, spec = true): Tenant => ({
  apiVersion: API_VERSION,
  kind: KIND,
  metadata: { name: 't' },
  ...(spec ? { spec: { deployment: {}, configMaps: [], ...(state ? { state } : {}) } } : {}),
});

describe('takedownOf', () => {
  it.each<[TenantState | undefined, TenantState, string | undefined]>([
    ['active', 'archived', 'archived'],
    [undefined, 'archived', 'archived'],
    ['suspended', 'archived', 'archived'],
    ['active', 'purged', 'purged'],
    ['archived', 'purged', 'purged'],
    ['active', 'suspended', undefined],
    ['active', 'active', undefined],
    ['archived', 'archived', undefined],
    ['purged', 'archived', undefined],
    ['purged', 'active', undefined],
    ['archived', 'active', undefined],
  ])('a Tenant in %s, a row in %s: %s', (current, row, expected) => {
    expect(takedownOf(row, tenantIn(current))).toBe(expected);
  });

  // sync reads Tenants from its cache, which keeps little of the spec: the state must be in it.
  it.each<[TenantState | undefined, TenantState, string | undefined]>([
    [undefined, 'archived', 'archived'],
    ['active', 'purged', 'purged'],
    ['archived', 'archived', undefined],
  ])('a Tenant in %s as sync caches it, a row in %s: %s', (current, row, expected) => {
    expect(takedownOf(row, lighten(tenantIn(current), UNREAD))).toBe(expected);
  });

  it('is none for a new Tenant, a Tenant without a spec, or one being deleted', () => {
    expect(takedownOf('archived', undefined)).toBeUndefined();
    expect(takedownOf('purged', tenantIn(undefined, false))).toBeUndefined();
    const deleting = tenantIn('active');
    deleting.metadata.deletionTimestamp = new Date();
    expect(takedownOf('archived', deleting)).toBeUndefined();
  });
});
