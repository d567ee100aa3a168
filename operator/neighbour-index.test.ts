// The neighbours index: one entry per Tenant that keeps children, replaced on every change, dropped
// when the Tenant goes or stops keeping children.
import { describe, expect, it } from 'vitest';
import type { Tenant } from '../api/tenant.js';
import { validTenant } from '../testing/policy.js';
import { NeighbourIndex } from './neighbour-index.js';

function tenant(name: string, namespace = 'team-a', state?: string): Tenant {
  const t = validTenant();
  t.metadata.name = name;
  t.metadata.creationTimestamp = '2026-01-01T00:00:00Z' as unknown as Date;
  t.spec!.deployment!.metadata!.namespace = namespace;
  if (state !== undefined) t.spec!.state = state as 'archived';
  return t;
}

describe('NeighbourIndex', () => {
  it('leaves out a PerTenant Tenant: its Deployment is in its own namespace, not where its manifest says', () => {
    const index = new NeighbourIndex();
    const perTenant = tenant('acme');
    perTenant.status = { namespace: 'acme' };
    index.tenantChanged(perTenant);
    expect(index.inNamespace('team-a')).toEqual([]);
    expect(index.namespace('acme')).toBeUndefined();
  });

  it('leaves out a Tenant whose class gives it a namespace of its own before its status says so', () => {
    const index = new NeighbourIndex((t) => t.metadata.name === 'acme');
    index.tenantChanged(tenant('acme'));
    index.tenantChanged(tenant('rival'));
    expect(index.tenantsIn('team-a')).toEqual(['rival']);
    expect(index.namespace('acme')).toBeUndefined();
  });

  it("indexes a Tenant's Deployment under its namespace", () => {
    const index = new NeighbourIndex();
    index.tenantChanged(tenant('acme'));
    expect(index.inNamespace('team-a')).toEqual([
      {
        tenant: 'acme',
        createdAt: '2026-01-01T00:00:00Z',
        deployment: 'web',
        selector: { matchLabels: { app: 'web' } },
        podLabels: { app: 'web' },
      },
    ]);
    expect(index.tenantsIn('team-a')).toEqual(['acme']);
    expect(index.namespace('acme')).toBe('team-a');
  });

  it('moves a Tenant whose Deployment moved, and keeps one entry however many edits', () => {
    const index = new NeighbourIndex();
    for (let i = 0; i < 100; i++) index.tenantChanged(tenant('acme', i % 2 === 0 ? 'team-a' : 'team-b'));
    expect(index.inNamespace('team-a')).toEqual([]);
    expect(index.tenantsIn('team-b')).toEqual(['acme']);
  });

  it('drops a Tenant that went, or keeps no children', () => {
    const index = new NeighbourIndex();
    index.tenantChanged(tenant('acme'));
    index.tenantChanged(tenant('rival'));
    index.tenantGone('acme');
    index.tenantChanged(tenant('rival', 'team-a', 'archived'));
    expect(index.inNamespace('team-a')).toEqual([]);
    expect(index.namespace('rival')).toBeUndefined();
  });
});
