// What the route watch caches of each route (ROUTE_WATCHES' stubOf): a route landlord did not make
// as its stub and hosts, one of landlord's own as no more than tells it apart, which the host
// index reads as landlord's all the same.
import type { KubernetesObject } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { LABEL, MANAGED_BY } from '../../api/tenant.js';
import { ForeignRoutes } from './foreign-routes.js';
import { ROUTE_WATCHES } from './host-index.js';

const ingressWatch = ROUTE_WATCHES.find((w) => w.kind === 'Ingress')!;

function ingress(
  namespace: string,
  host: string,
  labels: Record<string, string>,
): KubernetesObject & { spec: unknown } {
  return {
    apiVersion: 'networking.k8s.io/v1',
    kind: 'Ingress',
    metadata: {
      name: 'landlord-app',
      namespace,
      uid: 'u-1',
      resourceVersion: '42',
      labels: { ...labels, team: 'web' },
      annotations: { 'landlord.dev/spec-hash': 'abc' },
      ownerReferences: [{ apiVersion: 'landlord.dev/v1beta1', kind: 'Tenant', name: 'acme', uid: 't-1' }],
    },
    spec: { ingressClassName: 'nginx', rules: [{ host, http: { paths: [] } }] },
  };
}

const LANDLORDS = { [LABEL.managedBy]: MANAGED_BY.operator, [LABEL.tenant]: 'acme' };

describe('the route watch', () => {
  it("keeps of landlord's own route its name, version and the labels that say it is landlord's", () => {
    expect(ingressWatch.stubOf!(ingress('tenant-acme', 'acme.apps.example.com', LANDLORDS))).toEqual({
      apiVersion: 'networking.k8s.io/v1',
      kind: 'Ingress',
      metadata: { name: 'landlord-app', namespace: 'tenant-acme', resourceVersion: '42', labels: LANDLORDS },
    });
  });

  it('keeps the hosts of a route landlord did not make, and of one labelled with a tenant alone', () => {
    const partly: Record<string, string>[] = [
      {},
      { [LABEL.tenant]: 'acme' },
      { [LABEL.managedBy]: MANAGED_BY.operator },
    ];
    for (const labels of partly) {
      const stub = ingressWatch.stubOf!(ingress('platform', 'www.example.com', labels));
      expect(stub).toMatchObject({ spec: { hosts: ['www.example.com'] }, metadata: { uid: 'u-1' } });
    }
  });

  it("holds no host for landlord's route, and the host for a platform route, from what the watch keeps", () => {
    const routes = new ForeignRoutes();
    const stub = (namespace: string, labels: Record<string, string>): KubernetesObject =>
      ingressWatch.stubOf!(ingress(namespace, 'www.example.com', labels))!;
    expect(routes.changed('Ingress', stub('tenant-acme', LANDLORDS), false)).toBeUndefined();
    expect(routes.platformHolder('www.example.com', () => false)).toBeUndefined();
    expect(routes.changed('Ingress', stub('platform', {}), false)).toEqual({
      namespace: 'platform',
      hosts: ['www.example.com'],
    });
    expect(routes.platformHolder('www.example.com', () => false)).toBe(
      'Ingress platform/landlord-app (not made by landlord)',
    );
  });
});
