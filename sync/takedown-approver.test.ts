import { describe, expect, it } from 'vitest';
import { API_VERSION, KIND, type Tenant } from '../api/tenant.js';
import type { EventRecorder } from '../runtime/kube/events.js';
import { createMetrics } from '../runtime/metrics.js';
import { FakeInformer } from '../testing/fake-informer.js';
import { memoryLogger } from '../testing/sync.js';
import { ownedAnnotations, ownedLabels, tableIdentity } from './identity.js';
import { TakedownApprover } from './takedown-approver.js';
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

describe('TakedownApprover with a budget interval (index mode)', () => {
  it('sizes the budget once per interval, however many complete polls it holds', () => {
    const informer = new FakeInformer();
    const view = new TenantCache(informer.asInformer(), SYNC_TENANT_CACHE);
    const names = Array.from({ length: 20 }, (_, i) => `t${String(i).padStart(2, '0')}`);
    for (const name of names) informer.emit('add', tenant(name));
    let now = 0;
    const woken: string[] = [];
    const approver = new TakedownApprover({
      ledger: new Ledger(view, identity),
      view,
      wake: (name) => woken.push(name),
      events: { record: () => Promise.resolve() } as unknown as EventRecorder,
      logger: memoryLogger().logger,
      metrics: createMetrics('sync'),
      limits: { fraction: 0, minimum: 3 },
      identity,
      budgetIntervalMs: () => 60_000,
      now: () => now,
    });
    // Every poll finds no rows at all: the first approves 3, the next polls nothing more…
    for (let poll = 0; poll < 5; poll++, now += 1_000) approver.afterScan(new Set());
    expect(woken).toEqual(['t00', 't01', 't02']);
    // …until the interval is over.
    now = 60_000;
    approver.afterScan(new Set());
    expect(woken).toHaveLength(6);
  });
});

describe('TakedownApprover: rows set to archived share the budget', () => {
  const running = (name: string): Tenant => ({
    ...tenant(name),
    spec: { deployment: {}, configMaps: [], state: 'active' },
  });

  function setUp(budgetIntervalMs: number): {
    approver: TakedownApprover;
    ledger: Ledger;
    woken: string[];
    events: string[];
    clock: { now: number };
    names: string[];
  } {
    const informer = new FakeInformer();
    const view = new TenantCache(informer.asInformer(), SYNC_TENANT_CACHE);
    const names = Array.from({ length: 8 }, (_, i) => `t${i}`);
    for (const name of names) informer.emit('add', running(name));
    const ledger = new Ledger(view, identity);
    for (const name of names) {
      const spec = { deployment: {} as never, configMaps: [], state: 'archived' as const };
      ledger.record({ kind: 'tenant', name, spec, hash: `h-${name}` });
    }
    const woken: string[] = [];
    const events: string[] = [];
    const clock = { now: 0 };
    const approver = new TakedownApprover({
      ledger,
      view,
      wake: (name) => woken.push(name),
      events: {
        record: (_t: Tenant, _type: string, reason: string) => {
          events.push(reason);
          return Promise.resolve();
        },
      } as unknown as EventRecorder,
      logger: memoryLogger().logger,
      metrics: createMetrics('sync'),
      limits: { fraction: 0, minimum: 2 },
      identity,
      budgetIntervalMs: () => budgetIntervalMs,
      now: () => clock.now,
    });
    return { approver, ledger, woken, events, clock, names };
  }

  it('approves the budget’s share per pass, holds back the rest with the reason and an Event', () => {
    const { approver, ledger, events, names } = setUp(0);
    approver.afterScan(new Set(names));
    const approved = names.filter((name) => ledger.takedownApproval(name) !== undefined);
    expect(approved).toEqual(['t0', 't1']);
    expect(ledger.next('t0')).toEqual({ kind: 'applySpec', hash: 'h-t0' });
    const action = ledger.next('t5');
    expect(action.kind).toBe('applyStatus');
    if (action.kind === 'applyStatus') expect(action.status.conditions[0]?.reason).toBe('TakedownHeldBack');
    expect(events.filter((reason) => reason === 'TakedownHeldBack')).toHaveLength(6);
  });

  it('without a stream, sizes the budget once per interval however many polls it holds', () => {
    const { approver, ledger, clock, names } = setUp(60_000);
    const approved = (): string[] => names.filter((name) => ledger.takedownApproval(name) !== undefined);
    for (let poll = 0; poll < 5; poll++, clock.now += 1_000) approver.afterScan(new Set(names));
    expect(approved()).toEqual(['t0', 't1']);
    clock.now = 60_000;
    approver.afterScan(new Set(names));
    expect(approved()).toHaveLength(4);
  });

  it('takes stream changes from the same interval’s budget', () => {
    const { approver, ledger, names } = setUp(0);
    const record = (name: string, state: 'active' | 'archived'): void => {
      const spec = { deployment: {} as never, configMaps: [], state };
      ledger.record({ kind: 'tenant', name, spec, hash: `h-${state}-${name}` });
    };
    for (const name of names) record(name, 'active');
    approver.afterScan(new Set(names));
    // The stream brings the eight rows set to archived: the pass's budget, unspent, lets two go.
    for (const name of names) record(name, 'archived');
    approver.rowsTakingDown(names);
    expect(names.filter((name) => ledger.takedownApproval(name) !== undefined)).toEqual(['t0', 't1']);
    approver.rowsTakingDown(names);
    expect(names.filter((name) => ledger.takedownApproval(name) !== undefined)).toHaveLength(2);
  });
});
