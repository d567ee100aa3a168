// The upgrade budget's slots: at most the limit held, freed when a rollout is over, the waiting
// woken oldest first, and a new leader's count taken from the cache.
import { describe, expect, it } from 'vitest';
import type { V1Deployment } from '@kubernetes/client-node';
import { childKey, childRef, type ChildRef } from './child-ref.js';
import { RolloutBudget, rolloutLimit, TemplateUpgradeGate } from './rollout-budget.js';
import { TEMPLATE_REVISION_ANNOTATION } from './workload/template-revision.js';

const ref = (tenant: string): ChildRef => childRef('Deployment', tenant, 'app');

function budget(limit: number): { budget: RolloutBudget; done: Set<string>; woken: string[] } {
  const done = new Set<string>();
  const woken: string[] = [];
  const made = new RolloutBudget({
    limit: () => limit,
    settled: (r) => done.has(r.namespace),
    wake: (tenant) => woken.push(tenant),
  });
  return { budget: made, done, woken };
}

describe('rolloutLimit', () => {
  it.each([
    ['5', 1000, 5],
    ['5%', 1000, 50],
    ['5%', 10, 1],
    ['100%', 40, 40],
    ['1', 0, 1],
  ])('%s of %i Tenants: %i', (setting, tenants, limit) => {
    expect(rolloutLimit(setting, tenants)).toBe(limit);
  });
});

describe('RolloutBudget', () => {
  it('gives at most the limit of slots; a Tenant that holds one keeps it', () => {
    const { budget: b } = budget(2);
    expect(['a', 'b', 'c'].map((t) => b.take(t, ref(t)))).toEqual([true, true, false]);
    expect(b.take('a', ref('a'))).toBe(true);
    expect([b.rolling, b.pending]).toEqual([2, 1]);
  });

  it('frees a slot once its rollout is over, and wakes the Tenant that waited longest', () => {
    const { budget: b, done, woken } = budget(1);
    b.take('a', ref('a'));
    b.take('b', ref('b'));
    b.take('c', ref('c'));
    b.pass('a');
    expect(woken).toEqual([]);
    done.add('a');
    b.pass('a');
    expect(woken).toEqual(['b']);
    expect(b.take('b', ref('b'))).toBe(true);
    expect([b.rolling, b.pending]).toEqual([1, 1]);
  });

  it('wakes the next one when a woken Tenant no longer needs the slot', () => {
    const { budget: b, done, woken } = budget(1);
    for (const t of ['a', 'b', 'c']) b.take(t, ref(t));
    done.add('a');
    b.pass('a');
    b.pass('b'); // its row changed: its own rollout, no slot
    expect(woken).toEqual(['b', 'c']);
    expect(b.take('c', ref('c'))).toBe(true);
  });

  it('frees the slots of rollouts that are over when it is full, whatever woke nobody', () => {
    const { budget: b, done } = budget(1);
    b.take('a', ref('a'));
    expect(b.take('b', ref('b'))).toBe(false);
    done.add('a');
    expect(b.take('b', ref('b'))).toBe(true);
    expect(b.pending).toBe(0);
  });

  it('forgets a Tenant that is gone, and its slot goes to the next', () => {
    const { budget: b, woken } = budget(1);
    b.take('a', ref('a'));
    b.take('b', ref('b'));
    b.forget('a');
    expect(woken).toEqual(['b']);
    b.forget('b');
    expect([b.rolling, b.pending]).toEqual([0, 0]);
  });
});

describe('TemplateUpgradeGate', () => {
  const deployment = (revision: number | undefined, rolling: boolean): V1Deployment => ({
    metadata: {
      generation: 2,
      annotations: revision === undefined ? {} : { [TEMPLATE_REVISION_ANNOTATION]: String(revision) },
    },
    spec: { replicas: 1, selector: {}, template: {} },
    status: { observedGeneration: 2, replicas: 1, updatedReplicas: rolling ? 0 : 1, availableReplicas: 1 },
  });

  it('a new leader counts the Deployments at its revision still rolling out, and no others', () => {
    const live = new Map<string, V1Deployment>([
      [childKey(ref('a')), deployment(2, true)],
      [childKey(ref('b')), deployment(2, false)],
      [childKey(ref('c')), deployment(undefined, true)],
    ]);
    const gate = new TemplateUpgradeGate({
      revision: 2,
      limit: '5',
      tenantCount: () => 3,
      deployment: (r) => live.get(childKey(r)),
      wake: () => undefined,
    });
    gate.seedFrom(['a', 'b', 'c'].map((t): [string, ChildRef] => [t, ref(t)]));
    expect(gate.rolling).toBe(1);
    expect(gate.admit('c', ref('c'), 'tenant')).toBe(true);
    expect(gate.rolling).toBe(1);
  });
});
