import type { KubernetesObject } from '@kubernetes/client-node';
import { lighten } from '../../runtime/kube/informer.js';
import { describe, expect, it } from 'vitest';
import { LABEL, MANAGED_BY } from '../../api/tenant.js';
import { ForeignRoutes, keepHostsOf, type RouteKind } from './foreign-routes.js';

/** A route as the watch caches it: metadata and the hosts of its spec. */
function cached(
  kind: RouteKind,
  namespace: string,
  spec: unknown,
  labels?: Record<string, string>,
): KubernetesObject {
  const object = {
    apiVersion: 'x',
    kind,
    metadata: { name: 'r', namespace, labels },
    spec,
    status: { a: 1 },
  };
  return lighten(object, { dropStatus: true, keepOfSpec: keepHostsOf(kind) });
}

const ingress = (namespace: string, hosts: string[], labels?: Record<string, string>): KubernetesObject =>
  cached(
    'Ingress',
    namespace,
    { rules: [...hosts.map((host) => ({ host, http: {} })), { http: {} }] },
    labels,
  );

describe('ForeignRoutes', () => {
  it('keeps only the hosts of an Ingress or an HTTPRoute', () => {
    expect(ingress('web', ['a.example.org'])).toMatchObject({ spec: { hosts: ['a.example.org'] } });
    expect(cached('HTTPRoute', 'web', { hostnames: ['b.example.org'], rules: [{}] })).toEqual(
      expect.objectContaining({ spec: { hosts: ['b.example.org'] } }),
    );
  });

  it('makes a hand-made route outside tenant namespaces the holder of its hosts, one inside none', () => {
    const routes = new ForeignRoutes();
    const tenantNamespaces = new Set(['acme']);
    const isTenantNamespace = (ns: string): boolean => tenantNamespaces.has(ns);
    expect(routes.changed('Ingress', ingress('web', ['a.example.org']), false)).toEqual({
      namespace: 'web',
      hosts: ['a.example.org'],
    });
    expect(routes.platformHolder('a.example.org', isTenantNamespace)).toBe(
      'Ingress web/r (not made by landlord)',
    );
    tenantNamespaces.add('web');
    expect(routes.platformHolder('a.example.org', isTenantNamespace)).toBeUndefined();
    expect(routes.inNamespace('web')).toEqual([{ route: 'Ingress web/r', hosts: ['a.example.org'] }]);
    expect(routes.changed('Ingress', ingress('web', ['a.example.org']), false)).toBeUndefined();
    expect(routes.changed('Ingress', ingress('web', ['b.example.org']), false)).toEqual({
      namespace: 'web',
      hosts: ['a.example.org', 'b.example.org'],
    });
    expect(routes.changed('Ingress', ingress('web', ['b.example.org']), true)?.hosts).toEqual([
      'b.example.org',
    ]);
    expect(routes.inNamespace('web')).toEqual([]);
    expect(routes.platformHolder('b.example.org', () => false)).toBeUndefined();
  });

  it("leaves out landlord's own routes: those are Tenants' claims", () => {
    const routes = new ForeignRoutes();
    const labels = { [LABEL.managedBy]: MANAGED_BY.operator, [LABEL.tenant]: 'acme' };
    expect(routes.changed('Ingress', ingress('acme', ['acme.example.org'], labels), false)).toBeUndefined();
    expect(routes.platformHolder('acme.example.org', () => false)).toBeUndefined();
  });
});
