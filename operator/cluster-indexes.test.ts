import { describe, expect, it } from 'vitest';
import type { Tenant } from '../api/tenant.js';
import { CLASS_API_VERSION, CLASS_KIND, type TenantClass } from '../api/tenantclass.js';
import { validTenant } from '../testing/policy.js';
import { ClusterIndexes } from './cluster-indexes.js';
import type { HostHolders } from './exposure/claims.js';
import { exposureFacet } from './exposure/facet.js';

/** Indexes over these classes, with no Tenant listed and no watched object cached. */
const indexesOver = (classes: readonly TenantClass[]): ClusterIndexes =>
  new ClusterIndexes({
    tenants: () => [],
    classes: () => classes,
    builtInClass: undefined,
    apis: { gatewayApi: false, externalSecrets: false },
    read: () => undefined,
  });

const holdersOf = (indexes: ClusterIndexes): HostHolders => indexes.view().of(exposureFacet)!;

const routeChanged = (
  indexes: ClusterIndexes,
  route: { metadata: object; spec: object },
): readonly string[] => indexes.watchedChanged(exposureFacet, 'Ingress', route, false).tenants();

const exposing = (name: string, host: string): TenantClass => ({
  apiVersion: CLASS_API_VERSION,
  kind: CLASS_KIND,
  metadata: { name },
  spec: {
    namespace: { mode: 'PerTenant' },
    expose: { port: 8080, host, ingressClassName: 'nginx' },
    allowedDomains: ['apps.example.com', 'shop.example.com'],
  },
});

function tenant(name: string, hosts: string[], at: string): Tenant {
  const t = validTenant();
  t.metadata = { ...t.metadata, name, creationTimestamp: at as unknown as Date };
  t.spec = { ...t.spec, class: 'web', hosts };
  t.status = { namespace: name };
  return t;
}

describe('ClusterIndexes and hosts', () => {
  it('names the rivals a Tenant change concerns, and every Tenant whose claims a new template changes', () => {
    const classes = [exposing('web', '{name}.apps.example.com')];
    const indexes = indexesOver(classes);
    const acme = tenant('acme', ['x.shop.example.com', 'www.shop.example.com'], '2026-01-01T00:00:00Z');
    expect(indexes.tenantChanged(acme)).toEqual([]);
    expect(indexes.tenantChanged(tenant('beta', ['www.shop.example.com'], '2026-02-01T00:00:00Z'))).toEqual([
      'acme',
    ]);
    // A class whose template gives x.shop.example.com to the name "x" (and www.shop.example.com to
    // "www"): acme's claims to them go, and acme is named though nobody else claims x (its route
    // must drop the host); beta, which claimed www too, is named with it.
    classes.push(exposing('shop', '{name}.shop.example.com'));
    expect(indexes.classesChanged([acme])).toEqual(['acme', 'beta']);
    expect(holdersOf(indexes).claimants('x.shop.example.com')).toEqual([]);
    expect(holdersOf(indexes).templatedNames('x.shop.example.com')).toEqual(['x']);
    // The tenant whose name it is comes: nobody else claims its host.
    expect(indexes.tenantChanged(tenant('x', [], '2026-03-01T00:00:00Z'))).toEqual([]);
    expect(indexes.tenantGone('acme')).toEqual([]);
  });

  it('names the Tenant whose namespace a hand-made route is in, and holds nothing for it there', () => {
    const indexes = indexesOver([exposing('web', '{name}.apps.example.com')]);
    indexes.tenantChanged(tenant('acme', [], '2026-01-01T00:00:00Z'));
    indexes.tenantChanged(tenant('beta', ['www.shop.example.com'], '2026-02-01T00:00:00Z'));
    const route = {
      metadata: { name: 'hand', namespace: 'acme' },
      spec: { hosts: ['www.shop.example.com'] },
    };
    expect(routeChanged(indexes, route)).toEqual(['acme', 'beta']);
    const self = { tenant: 'beta', createdAt: '2026-02-01T00:00:00Z' };
    expect(holdersOf(indexes).holderBefore('www.shop.example.com', self)).toBeUndefined();
    expect(holdersOf(indexes).handMadeIn('acme')).toEqual([
      { route: 'Ingress acme/hand', hosts: ['www.shop.example.com'] },
    ]);
    // The same route outside tenant namespaces holds the host.
    const platform = {
      metadata: { name: 'hand', namespace: 'platform' },
      spec: { hosts: ['www.shop.example.com'] },
    };
    expect(routeChanged(indexes, platform)).toEqual(['beta']);
    expect(holdersOf(indexes).holderBefore('www.shop.example.com', self)).toBe(
      'Ingress platform/hand (not made by landlord)',
    );
  });
});
