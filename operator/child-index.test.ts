import type { KubernetesObject } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { heapUsed } from '../testing/heap.js';
import { ChildIndex } from './child-index.js';
import { childRef, type ChildKind } from './child-ref.js';
import { fencesFacet } from './fences/facet.js';

/** A PerTenant tenant's children, each as its watch delivers it (strings fresh from a parse). */
function perTenantChildren(tenant: string): [ChildKind, KubernetesObject][] {
  const namespace = `tenant-${tenant}`;
  const kinds: ChildKind[] = [...fencesFacet.kinds.map((k) => k.kind), 'Deployment', 'ConfigMap'];
  return kinds.map((kind) => {
    const metadata =
      kind === 'Namespace' ? { name: namespace } : { name: `${kind.toLowerCase()}-x`, namespace };
    const object = { metadata: { ...metadata, labels: { 'landlord.dev/tenant': tenant } } };
    return [kind, JSON.parse(JSON.stringify(object)) as KubernetesObject];
  });
}

function configMap(name: string, tenant?: string): KubernetesObject {
  const labels = tenant === undefined ? undefined : { 'landlord.dev/tenant': tenant };
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'team-a', labels } };
}

describe('ChildIndex', () => {
  it("holds a PerTenant tenant's eight children in about 1 KB", () => {
    const index = new ChildIndex();
    const add = (from: number, to: number): void => {
      for (let i = from; i < to; i++) {
        const tenant = `t-${String(i).padStart(5, '0')}`;
        for (const [kind, object] of perTenantChildren(tenant)) index.childChanged(kind, object, false);
      }
    };
    // Read as the growth from 1,000 to 3,000 tenants: what the test's start-up leaves is settled by then.
    add(0, 1000);
    const before = heapUsed();
    add(1000, 3000);
    const perTenant = (heapUsed() - before) / 2000;
    const children = index.childrenOf('t-00042');
    expect(children).toHaveLength(8);
    expect(children).toContainEqual(childRef('Namespace', '', 'tenant-t-00042'));
    expect(children).toContainEqual(childRef('ConfigMap', 'tenant-t-00042', 'configmap-x'));
    // With a ChildRef of its own per child besides its key: ~1.9 KB.
    expect(perTenant).toBeLessThan(1400);
  });

  it('names the Tenant a child is labelled for, and indexes the child under it', () => {
    const index = new ChildIndex();
    expect(index.childChanged('ConfigMap', configMap('a', 'acme'), false)).toEqual(['acme']);
    expect(index.childrenOf('acme')).toEqual([childRef('ConfigMap', 'team-a', 'a')]);
  });

  it('lists a child once however many updates its watch reports', () => {
    const index = new ChildIndex();
    for (let i = 0; i < 3; i++) index.childChanged('ConfigMap', configMap('a', 'acme'), false);
    index.childChanged('ConfigMap', configMap('b', 'acme'), false);
    expect(index.childrenOf('acme')).toEqual([
      childRef('ConfigMap', 'team-a', 'a'),
      childRef('ConfigMap', 'team-a', 'b'),
    ]);
  });

  it('names the Tenant a child was labelled for when the label goes, and drops it from that Tenant', () => {
    const index = new ChildIndex();
    index.childChanged('ConfigMap', configMap('a', 'acme'), false);
    expect(index.childChanged('ConfigMap', configMap('a'), false)).toEqual(['acme']);
    expect(index.childrenOf('acme')).toEqual([]);
  });

  it('moves a child whose label now names another Tenant', () => {
    const index = new ChildIndex();
    index.childChanged('ConfigMap', configMap('a', 'acme'), false);
    expect(index.childChanged('ConfigMap', configMap('a', 'rival'), false)).toEqual(['rival']);
    expect(index.childrenOf('acme')).toEqual([]);
    expect(index.childrenOf('rival')).toHaveLength(1);
  });

  it('names nobody for a child no Tenant ever labelled', () => {
    expect(new ChildIndex().childChanged('ConfigMap', configMap('a'), false)).toEqual([]);
  });

  it('wakes the Tenants refused over a child once that child is deleted, and only once', () => {
    const index = new ChildIndex();
    index.childChanged('ConfigMap', configMap('a', 'rival'), false);
    index.refused('acme', childRef('ConfigMap', 'team-a', 'a'));
    expect(index.childChanged('ConfigMap', configMap('a', 'rival'), false)).toEqual(['rival']);
    expect(index.childChanged('ConfigMap', configMap('a', 'rival'), true)).toEqual(['rival', 'acme']);
    expect(index.childChanged('ConfigMap', configMap('a'), true)).toEqual([]);
  });

  it('forgets what a deleted Tenant waited on, so only Tenants that exist are woken', () => {
    const index = new ChildIndex();
    index.refused('acme', childRef('ConfigMap', 'team-a', 'a'));
    index.refused('other', childRef('ConfigMap', 'team-a', 'a'));
    index.refused('acme', childRef('ConfigMap', 'team-a', 'b'));
    index.tenantGone('acme');
    expect(index.childChanged('ConfigMap', configMap('a'), true)).toEqual(['other']);
    expect(index.childChanged('ConfigMap', configMap('b'), true)).toEqual([]);
  });

  it('tells a Deployment from a ConfigMap of the same name', () => {
    const index = new ChildIndex();
    index.refused('acme', childRef('Deployment', 'team-a', 'a'));
    expect(index.childChanged('ConfigMap', configMap('a'), true)).toEqual([]);
    expect(index.childChanged('Deployment', { metadata: { name: 'a', namespace: 'team-a' } }, true)).toEqual([
      'acme',
    ]);
  });

  it('keeps no entry for a Tenant whose children are all gone, however many came and went', () => {
    const index = new ChildIndex();
    for (let i = 0; i < 100; i++) {
      index.childChanged('ConfigMap', configMap(`c-${i}`, `tenant-${i}`), false);
      index.childChanged('ConfigMap', configMap(`c-${i}`, `tenant-${i}`), true);
    }
    expect(index.tenants).toBe(0);
  });
});
