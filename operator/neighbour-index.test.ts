// The neighbours index: one entry per Tenant that keeps children, replaced on every change, dropped
// when the Tenant goes or stops keeping children; and its label lookup, which may leave out only
// Deployments that share no labels with the one asking.
import type { V1LabelSelector } from '@kubernetes/client-node';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Tenant } from '../api/tenant.js';
import { validTenant } from '../testing/policy.js';
import { NeighbourIndex } from './neighbour-index.js';
import { matches } from '../util/label-selector.js';

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

  it('holds the newest version of a Tenant whose labels did not change', () => {
    const index = new NeighbourIndex();
    index.tenantChanged(tenant('acme'));
    const newer = tenant('acme');
    newer.status = { observedGeneration: 1 };
    index.tenantChanged(newer);
    const [held] = index.inNamespace('team-a');
    expect(index.tenantsIn('team-a')).toEqual(['acme']);
    expect(held?.selector).toBe(newer.spec!.deployment!.spec!.selector);
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

  describe('candidates', () => {
    const key = fc.constantFrom('app', 'tier', 'team');
    const value = fc.constantFrom('a', 'b', 'c');
    const labels = fc.dictionary(key, value, { maxKeys: 3 });
    const expression = fc.record({
      key,
      operator: fc.constantFrom('In', 'NotIn', 'Exists', 'DoesNotExist'),
      values: fc.array(value, { maxLength: 2 }),
    });
    const selector: fc.Arbitrary<V1LabelSelector> = fc.record(
      { matchLabels: labels, matchExpressions: fc.array(expression, { maxLength: 2 }) },
      { requiredKeys: [] },
    );
    const deployed = fc.record({ podLabels: labels, selector });

    type Deployed = { podLabels: Record<string, string>; selector: V1LabelSelector };

    function deployedTenant(name: string, { podLabels, selector: sel }: Deployed): Tenant {
      const t = tenant(name);
      t.spec!.deployment!.spec!.selector = sel;
      t.spec!.deployment!.spec!.template.metadata = { labels: podLabels };
      return t;
    }

    function indexOf(list: Deployed[]): NeighbourIndex {
      const index = new NeighbourIndex();
      list.forEach((d, i) => index.tenantChanged(deployedTenant(`t${i}`, d)));
      return index;
    }

    it('never leaves out a Deployment that shares labels with the probe, either way', () => {
      // Several go, so pairs shared by many, by one, then by none are all looked up.
      const goneList = fc.array(fc.nat(11), { maxLength: 8 });
      fc.assert(
        fc.property(fc.array(deployed, { maxLength: 12 }), deployed, goneList, (list, probe, gone) => {
          const index = indexOf(list);
          for (const i of gone) index.tenantGone(`t${i}`);
          const found = new Set([...index.candidates('team-a', probe)].map((n) => n.tenant));
          for (const n of index.inNamespace('team-a')) {
            const shares = matches(n.selector, probe.podLabels) || matches(probe.selector, n.podLabels);
            if (shares) expect(found).toContain(n.tenant);
          }
        }),
        { numRuns: 500 },
      );
    });

    it('finds the same Deployments whatever labels their Tenants had before', () => {
      const changed = fc.array(fc.record({ before: deployed, now: deployed }), { maxLength: 12 });
      fc.assert(
        fc.property(changed, deployed, fc.boolean(), (list, probe, same) => {
          const direct = indexOf(list.map((d) => d.now));
          const edited = indexOf(list.map((d) => (same ? d.now : d.before)));
          list.forEach(({ now }, i) => edited.tenantChanged(deployedTenant(`t${i}`, now)));
          const names = (index: NeighbourIndex): string[] =>
            [...index.candidates('team-a', probe)].map((n) => n.tenant).sort();
          expect(names(edited)).toEqual(names(direct));
          const held = (index: NeighbourIndex) =>
            index.inNamespace('team-a').sort((a, b) => (a.tenant < b.tenant ? -1 : 1));
          expect(held(edited)).toEqual(held(direct));
        }),
        { numRuns: 300 },
      );
    });

    it('looks only at the Deployments sharing a label when selectors name labels', () => {
      const list = Array.from({ length: 1000 }, (_, i) => ({
        podLabels: { app: `app-${i}` },
        selector: { matchLabels: { app: `app-${i}` } },
      }));
      const index = indexOf(list);
      const probe = { podLabels: { app: 'app-7', tier: 'web' }, selector: { matchLabels: { app: 'app-7' } } };
      expect([...index.candidates('team-a', probe)].map((n) => n.tenant)).toEqual(['t7']);
      const open = {
        podLabels: { app: 'x' },
        selector: { matchExpressions: [{ key: 'app', operator: 'Exists' }] },
      };
      expect([...index.candidates('team-a', open)]).toHaveLength(1000);
    });
  });
});
