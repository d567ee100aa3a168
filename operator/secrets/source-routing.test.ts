import type { V1Secret } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { API_VERSION, KIND, type Tenant } from '../../api/tenant.js';
import {
  BUILT_IN_CLASS_NAME,
  CLASS_API_VERSION,
  CLASS_KIND,
  DEFAULT_CLASS_ANNOTATION,
  type TenantClass,
} from '../../api/tenantclass.js';
import { sourceIndex, SOURCE_WATCHES } from './source-index.js';
import { tenantsOfSource } from './source-routing.js';

const tenant = (name: string, className: string, how: 'spec' | 'status' = 'status'): Tenant => ({
  apiVersion: API_VERSION,
  kind: KIND,
  metadata: { name },
  ...(how === 'spec' ? { spec: { class: className } } : { status: { class: className } }),
});

const klass = (
  name: string,
  from: { namespace: string; name: string }[],
  isDefault = false,
): TenantClass => ({
  apiVersion: CLASS_API_VERSION,
  kind: CLASS_KIND,
  metadata: { name, annotations: isDefault ? { [DEFAULT_CLASS_ANNOTATION]: 'true' } : {} },
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

describe('tenantsOfSource and the default class', () => {
  const standard = klass('standard', [{ namespace: 'src', name: 'sendgrid' }], true);
  const gold = klass('gold', [{ namespace: 'src', name: 'gold-key' }]);
  const follower = (name: string, status?: Tenant['status']): Tenant => ({
    apiVersion: API_VERSION,
    kind: KIND,
    metadata: { name },
    ...(status === undefined ? {} : { status }),
  });
  const tenants = [
    // Not reconciled yet: no class recorded, so it follows the default.
    follower('new'),
    // Under the built-in class until a default class appeared.
    follower('built-in', { class: BUILT_IN_CLASS_NAME, classSource: 'Default' }),
    // The row stopped naming gold: it goes back to the default.
    follower('dropped', { class: 'gold', classSource: 'Row' }),
    // Given another default class once, and kept under it.
    follower('kept', { class: 'old-default', classSource: 'Default' }),
    tenant('named', 'gold', 'spec'),
  ];

  it('reaches the Tenants that follow the default when the default class copies the source', () => {
    expect(tenantsOfSource(tenants, [standard, gold], { namespace: 'src', name: 'sendgrid' })).toEqual([
      'built-in',
      'dropped',
      'new',
    ]);
  });

  it('reaches no follower of the default through a class that is not the default', () => {
    expect(tenantsOfSource(tenants, [standard, gold], { namespace: 'src', name: 'gold-key' })).toEqual([
      'dropped',
      'named',
    ]);
  });
});

describe("the secrets facet's watch of its sources (source-index.ts)", () => {
  const secret = (name: string, data: Record<string, string> = {}): V1Secret => ({
    metadata: { name, namespace: 'src' },
    type: 'Opaque',
    data,
  });
  const cached = new Map([['sendgrid', secret('sendgrid', { key: 'dmFsdWU=' })]]);
  const index = sourceIndex({
    tenants: () => TENANTS,
    classes: () => CLASSES,
    builtInClass: undefined,
    apis: { gatewayApi: false, externalSecrets: true },
    read: (_kind, namespace, name) => (namespace === 'src' ? cached.get(name) : undefined),
  });

  it('reads each source through its cache, as a copy takes it', () => {
    expect(index.view.secret('src', 'sendgrid')).toEqual({ type: 'Opaque', data: { key: 'dmFsdWU=' } });
    expect(index.view.secret('src', 'missing')).toBeUndefined();
    expect(index.view.externalSecrets).toBe(true);
  });

  it('wakes the Tenants that copy a changed source, at the class-rollout rate, and the warm pools', () => {
    const wakes = index.changed('Secret', secret('sendgrid'), false);
    expect(wakes).toMatchObject({ paced: true, pool: true });
    expect(wakes.tenants()).toEqual(['a', 'a-db', 'b']);
    expect(index.changed('Secret', secret('a-db'), true).tenants()).toEqual(['a']);
  });

  it('watches the source namespaces the policy names, whole', () => {
    const [watch] = SOURCE_WATCHES;
    expect(watch).toMatchObject({ apiVersion: 'v1', kind: 'Secret' });
    expect(watch!.unread).toBeUndefined();
  });
});
