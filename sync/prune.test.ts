import { describe, expect, it } from 'vitest';
import { API_VERSION, KIND, type Tenant } from '../api/tenant.js';
import type { EventRecorder } from '../runtime/kube/events.js';
import { createMetrics } from '../runtime/metrics.js';
import { FakeInformer } from '../testing/fake-informer.js';
import { memoryLogger } from '../testing/sync.js';
import { ownedAnnotations, ownedLabels, tableIdentity } from './identity.js';
import { Pruner } from './prune.js';
import { Ledger } from './ledger.js';
import { TenantCache } from '../runtime/kube/tenant-cache.js';
import { SYNC_TENANT_CACHE } from './tenants.js';

const identity = tableIdentity('tenants', { cluster: 'b', claimsUnassigned: false });

const tenant = (name: string): Tenant => ({
  apiVersion: API_VERSION,
  kind: KIND,
  metadata: {
    name,
    uid: `uid-${name}`,
    labels: ownedLabels(identity),
    annotations: ownedAnnotations(identity),
  },
});

describe('Pruner with a budget interval (index mode)', () => {
  it('sizes the budget once per interval, however many complete polls it holds', () => {
    const informer = new FakeInformer();
    const view = new TenantCache(informer.asInformer(), SYNC_TENANT_CACHE);
    const names = Array.from({ length: 20 }, (_, i) => `t${String(i).padStart(2, '0')}`);
    for (const name of names) informer.emit('add', tenant(name));
    let now = 0;
    const woken: string[] = [];
    const pruner = new Pruner({
      ledger: new Ledger(view, identity),
      view,
      wake: (name) => woken.push(name),
      events: { record: () => Promise.resolve() } as unknown as EventRecorder,
      logger: memoryLogger().logger,
      metrics: createMetrics('sync'),
      limits: { fraction: 0, minimum: 3 },
      identity,
      budgetIntervalMs: 60_000,
      now: () => now,
    });
    // Every poll finds no rows at all: the first approves 3, the next polls nothing more…
    for (let poll = 0; poll < 5; poll++, now += 1_000) pruner.afterScan(new Set());
    expect(woken).toEqual(['t00', 't01', 't02']);
    // …until the interval is over.
    now = 60_000;
    pruner.afterScan(new Set());
    expect(woken).toHaveLength(6);
  });
});
