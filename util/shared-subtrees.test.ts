import type { V1Deployment } from '@kubernetes/client-node';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { collect } from '../testing/heap.js';
import { SubtreePool } from './shared-subtrees.js';

/** A child of the Tenant named, as its kind's watch delivers it (every part fresh from a parse). */
function child(kind: string, tenant: string, uid = `uid-${tenant}`): { metadata: Record<string, unknown> } {
  const ownerReferences = [{ apiVersion: 'landlord.dev/v1alpha1', kind: 'Tenant', name: tenant, uid }];
  const labels = { 'landlord.dev/tenant': tenant, 'app.kubernetes.io/managed-by': 'landlord-operator' };
  const metadata = { name: kind.toLowerCase(), namespace: `tenant-${tenant}`, labels, ownerReferences };
  return JSON.parse(JSON.stringify({ kind, metadata })) as { metadata: Record<string, unknown> };
}

/** A Deployment as the API server serves one, for the tenant named. */
function deployment(tenant: string): V1Deployment {
  return JSON.parse(
    JSON.stringify({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: `${tenant}-app`, namespace: tenant, labels: { 'landlord.dev/tenant': tenant } },
      spec: {
        replicas: 1,
        strategy: { rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' }, type: 'RollingUpdate' },
        template: {
          spec: {
            containers: [{ image: 'nginx:1.27', name: 'app', resources: {}, ports: [{ containerPort: 80 }] }],
            securityContext: {},
          },
        },
      },
    }),
  ) as V1Deployment;
}

describe('SubtreePool', () => {
  it('holds equal parts of two objects once, and leaves each equal to what it was', () => {
    const pool = new SubtreePool();
    const a = pool.share(deployment('a'), 'Deployment');
    const b = pool.share(deployment('b'), 'Deployment');
    expect(b.spec!.strategy).toBe(a.spec!.strategy);
    expect(b.spec!.template).toBe(a.spec!.template);
    expect(b.metadata).not.toBe(a.metadata);
    expect(JSON.stringify(a)).toBe(JSON.stringify(deployment('a')));
    expect(JSON.stringify(b)).toBe(JSON.stringify(deployment('b')));
  });

  it('freezes what it keeps, so a change in place fails instead of changing other objects', () => {
    const pool = new SubtreePool();
    pool.share(deployment('a'), 'Deployment');
    const b = pool.share(deployment('b'), 'Deployment');
    expect(Object.isFrozen(b)).toBe(true);
    const containers = b.spec!.template.spec!.containers;
    expect(() => {
      containers[0]!.image = 'evil:1';
    }).toThrow(TypeError);
    expect(() => containers.push({ name: 'more' })).toThrow(TypeError);
  });

  it('does not share parts whose keys come in another order (a copy may be compared as JSON)', () => {
    const pool = new SubtreePool();
    const a = pool.share({ kind: 'X', spec: { x: { a: 1, b: 2 } } }, 'X');
    const b = pool.share({ kind: 'X', spec: { x: { b: 2, a: 1 } } }, 'X');
    expect(b.spec.x).not.toBe(a.spec.x);
    expect(JSON.stringify(b)).toBe('{"kind":"X","spec":{"x":{"b":2,"a":1}}}');
  });

  it('shares only among parts at the same place', () => {
    const pool = new SubtreePool();
    const a = pool.share({ one: { v: 1 }, two: { v: 2 } }, 'X');
    const b = pool.share({ one: { v: 2 }, two: { v: 1 } }, 'X');
    expect(b.one).not.toBe(a.two);
    expect(b.one).toEqual({ v: 2 });
  });

  it("shares an array's items when it holds more different items than a place remembers", () => {
    // A NetworkPolicy's egress rules: its own namespace, DNS, HTTPS; the same in every tenant's.
    const policy = () => ({
      kind: 'NetworkPolicy',
      spec: {
        egress: [{ to: [{ podSelector: {} }] }, { ports: [{ port: 53 }] }, { ports: [{ port: 443 }] }],
      },
    });
    const pool = new SubtreePool();
    const a = pool.share(policy(), 'NetworkPolicy');
    const b = pool.share(policy(), 'NetworkPolicy');
    expect(b.spec).toBe(a.spec);
  });

  it("holds once the labels and owner reference of one Tenant's children, whatever their kinds", () => {
    const pool = new SubtreePool();
    // Listed kind by kind, as the watches list them: each tenant's children far apart.
    const kinds = ['ServiceAccount', 'ResourceQuota', 'NetworkPolicy'];
    const shared = kinds.map((kind) => ['a', 'b', 'c'].map((t) => pool.share(child(kind, t), kind)));
    const [sa, quota, policy] = shared.map((children) => children[1]!.metadata);
    expect(quota!.ownerReferences).toBe(sa!.ownerReferences);
    expect(policy!.labels).toBe(sa!.labels);
    expect(shared[2]![0]!.metadata.labels).not.toBe(policy!.labels);
    expect(JSON.stringify(shared[1]![1])).toBe(JSON.stringify(child('ResourceQuota', 'b')));
  });

  it('forgets parts shared across kinds once no object holds them', async () => {
    const pool = new SubtreePool();
    const shareMany = (from: number): void => {
      for (let i = from; i < from + 4096; i++) pool.share(child('ConfigMap', `t-${i}`), 'ConfigMap');
    };
    shareMany(0);
    // A weak reference holds its object until the current job ends.
    await new Promise((resolve) => setImmediate(resolve));
    collect();
    shareMany(4096);
    // Two entries per tenant (labels, owner reference): the second 4,096 tenants', and the few the
    // places still remember; the first 4,096 tenants' were swept (16,384 kept otherwise).
    expect(pool.sharedAcrossKinds).toBeLessThanOrEqual(2 * 4096 + 8);
  });

  it('does not remember large parts, which would outlive their objects', () => {
    const pool = new SubtreePool();
    const big = (): { data: { text: string } } => ({ data: { text: 'x'.repeat(4096) } });
    const a = pool.share(big(), 'ConfigMap');
    const b = pool.share(big(), 'ConfigMap');
    expect(b.data).not.toBe(a.data);
  });

  it('bounds its places, whatever keys the objects bring', () => {
    const pool = new SubtreePool();
    for (let i = 0; i < 5000; i++) pool.share({ spec: { [`key-${i}`]: { [`inner-${i}`]: {} } } }, 'Tenant');
    expect(pool.size).toBeLessThanOrEqual(1024);
    // Past the bound, objects are still frozen and unchanged.
    const late = pool.share({ spec: { fresh: { a: [1, { b: 2 }] } } }, 'Tenant');
    expect(Object.isFrozen(late.spec.fresh.a[1])).toBe(true);
    expect(late).toEqual({ spec: { fresh: { a: [1, { b: 2 }] } } });
  });

  it('takes parts already frozen as shared, without changing them', () => {
    const pool = new SubtreePool();
    const a = pool.share(deployment('a'), 'Deployment');
    const built: V1Deployment = { ...a, metadata: { ...a.metadata, name: 'other' } };
    const b = pool.share(built, 'Deployment');
    expect(b.spec).toBe(a.spec);
    expect(b.metadata?.name).toBe('other');
  });

  it('returns a value equal to any JSON it is given', () => {
    const pool = new SubtreePool();
    fc.assert(
      fc.property(fc.array(fc.jsonValue({ maxDepth: 4 }), { minLength: 1, maxLength: 8 }), (values) => {
        const shared = values.map((v) => pool.share(JSON.parse(JSON.stringify(v)) as unknown, 'K'));
        shared.forEach((s, i) => expect(JSON.stringify(s)).toBe(JSON.stringify(values[i])));
      }),
    );
  });
});
