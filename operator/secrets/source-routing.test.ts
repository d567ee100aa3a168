import { describe, expect, it } from 'vitest';
import { API_VERSION, KIND, type Tenant } from '../../api/tenant.js';
import { CLASS_API_VERSION, CLASS_KIND, type TenantClass } from '../../api/tenantclass.js';
import { tenantsOfSource } from './source-routing.js';

const tenant = (name: string, className: string, how: 'spec' | 'status' = 'status'): Tenant => ({
  apiVersion: API_VERSION,
  kind: KIND,
  metadata: { name },
  ...(how === 'spec' ? { spec: { class: className } } : { status: { class: className } }),
});

const klass = (name: string, from: { namespace: string; name: string }[]): TenantClass => ({
  apiVersion: CLASS_API_VERSION,
  kind: CLASS_KIND,
  metadata: { name },
  spec: { secrets: from.map((f, i) => ({ name: `s${i}`, from: f })) },
});

const TENANTS = [tenant('a', 'std'), tenant('b', 'std', 'spec'), tenant('a-db', 'std'), tenant('c', 'other')];
const CLASSES = [
  klass('std', [
    { namespace: 'src', name: 'sendgrid' },
    { namespace: 'src', name: '{name}-db' },
  ]),
  klass('other', [{ namespace: 'src', name: 'other' }]),
];

describe('tenantsOfSource', () => {
  it.each([
    { source: 'sendgrid', tenants: ['a', 'a-db', 'b'] },
    { source: 'a-db', tenants: ['a'] },
    // "a-db-db" fills "{name}-db" for the tenant a-db only, not for a.
    { source: 'a-db-db', tenants: ['a-db'] },
    { source: 'other', tenants: ['c'] },
    { source: 'unknown', tenants: [] },
    { source: 'c-db', tenants: [] },
  ])('a change of src/$source concerns $tenants', ({ source, tenants }) => {
    expect(tenantsOfSource(TENANTS, CLASSES, { namespace: 'src', name: source })).toEqual(tenants);
  });

  it('looks only at the namespace the class names', () => {
    expect(tenantsOfSource(TENANTS, CLASSES, { namespace: 'elsewhere', name: 'sendgrid' })).toEqual([]);
  });
});
