import { beforeEach, describe, expect, it } from 'vitest';
import type { Tenant } from '../api/tenant.js';
import { API_VERSION, KIND } from '../api/tenant.js';
import { FakeInformer } from '../testing/fake-informer.js';
import { memoryLogger, recordingQueue } from '../testing/sync.js';
import { ownedAnnotations, ownedLabels, tableIdentity } from './identity.js';
import { Intake } from './intake.js';
import { Ledger } from './ledger.js';
import { TakedownApprover } from './takedown-approver.js';
import { SYNC_LOG } from './reasons.js';
import { Trigger } from './trigger.js';
import { desiredStatus } from './status.js';
import type { Item } from './dynamo/table-source.js';
import { TenantCache } from '../runtime/kube/tenant-cache.js';
import { SYNC_TENANT_CACHE } from './tenants.js';
import { createMetrics } from '../runtime/metrics.js';
import type { EventRecorder } from '../runtime/kube/events.js';
import { parseRow } from './row/index.js';

const identity = tableIdentity('tenants');

const deployment = (name: string, image = 'nginx:1'): string =>
  JSON.stringify({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: `${name}-app` },
    spec: { template: { spec: { containers: [{ name: 'app', image }] } } },
  });

const item = (name: string, spec = deployment(name)): Item => ({ name: { S: name }, spec: { S: spec } });

/** The Tenant sync would have left for this row. */
function tenantFor(row: Item): Tenant {
  const parsed = parseRow(row);
  if (parsed.kind !== 'tenant') throw new Error('not a valid row');
  const tenant: Tenant = {
    apiVersion: API_VERSION,
    kind: KIND,
    metadata: {
      name: parsed.name,
      uid: `uid-${parsed.name}`,
      resourceVersion: '10',
      generation: 1,
      labels: ownedLabels(identity),
      annotations: ownedAnnotations(identity, parsed.hash),
    },
    spec: parsed.spec,
  };
  tenant.status = desiredStatus({ kind: 'synced', hash: parsed.hash }, tenant, identity.table, new Date());
  return tenant;
}

describe('Intake', () => {
  let informer: FakeInformer;
  let ledger: Ledger;
  let queued: string[];
  let forgotten: string[];
  let intake: Intake;
  let approver: TakedownApprover;
  let lines: Record<string, unknown>[];
  /** The rows a re-read finds, by name. */
  let table: Map<string, Item>;

  beforeEach(() => {
    table = new Map();
    informer = new FakeInformer();
    const view = new TenantCache(informer.asInformer(), SYNC_TENANT_CACHE);
    ledger = new Ledger(view, identity);
    const recorded = recordingQueue();
    queued = recorded.added;
    forgotten = recorded.forgotten;
    const log = memoryLogger();
    lines = log.lines;
    const events = { record: () => Promise.resolve() } as unknown as EventRecorder;
    const trigger = new Trigger(ledger, recorded.queue);
    approver = new TakedownApprover({
      ledger,
      view,
      wake: (name) => trigger.tenant(name),
      events,
      logger: log.logger,
      metrics: createMetrics('sync'),
      limits: { fraction: 0.1, minimum: 1 },
      identity,
    });
    intake = new Intake({
      ledger,
      trigger,
      approver,
      source: { read: (name) => Promise.resolve(table.get(name)) },
      logger: log.logger,
    });
  });

  it('queues nothing and keeps no spec for a row its Tenant already reflects', () => {
    informer.emit('add', tenantFor(item('a')));
    expect(intake.accept(item('a'))).toEqual({ name: 'a', invalid: false, deleted: false, elsewhere: false });
    expect(queued).toEqual([]);
    expect(ledger.pendingWrites).toBe(0);
  });

  it('queues a changed row and keeps its spec until the write', () => {
    informer.emit('add', tenantFor(item('a')));
    intake.accept(item('a', deployment('a', 'nginx:2')));
    expect(queued).toEqual(['a']);
    expect(ledger.pendingWrites).toBe(1);
  });

  it('skips the backoff only for a row whose content changed', () => {
    informer.emit('add', tenantFor(item('a')));
    intake.accept(item('a'));
    intake.accept(item('a'));
    intake.accept(item('a', deployment('a', 'nginx:2')));
    expect(forgotten).toEqual(['a', 'a']);
  });

  it('does not send again a row the API server rejected: the Tenant only reports it', () => {
    const rejected = tenantFor(item('a'));
    const hash = parseRow(item('a', deployment('a', 'nginx:2')));
    if (hash.kind !== 'tenant') throw new Error('not a valid row');
    rejected.status = desiredStatus(
      { kind: 'rejected', hash: hash.hash, message: 'no' },
      rejected,
      identity.table,
      new Date(),
    );
    informer.emit('add', rejected);
    intake.accept(item('a', deployment('a', 'nginx:2')));
    expect(queued).toEqual([]);
    expect(ledger.pendingWrites).toBe(0);
    expect(ledger.verdict('a')).toEqual({ kind: 'rejected', hash: hash.hash, message: 'no' });
  });

  it('queues a deleted: true row only when there is a Tenant to delete and the budget approves', () => {
    intake.accept({ name: { S: 'gone' }, deleted: { BOOL: true } });
    expect(queued).toEqual([]);
    informer.emit('add', tenantFor(item('a')));
    // Read by a scan: the scan's end asks the takedown budget (takedown-approver.ts); until then it waits.
    expect(intake.accept({ name: { S: 'a' }, deleted: { BOOL: true } })).toMatchObject({ deleted: true });
    expect(queued).toEqual([]);
    approver.afterScan(new Set(['a']));
    expect(ledger.takedownApproval('a')).toBe(1);
    expect(queued).toEqual(['a']);
  });

  it('takes a stream batch marking rows deleted: true through the same budget as removed rows', () => {
    for (const name of ['a', 'b', 'c']) informer.emit('add', tenantFor(item(name)));
    approver.afterScan(new Set(['a', 'b', 'c'])); // an interval of max(1, 10% of 3) = 1 deletion
    intake.acceptBatch({
      changes: ['a', 'b', 'c'].map((name) => ({
        kind: 'upsert' as const,
        item: { name: { S: name }, deleted: { BOOL: true } },
      })),
    });
    expect(queued).toEqual(['a']);
    expect(lines.find((l) => l.msg === SYNC_LOG.heldBack)).toMatchObject({
      tenants: ['b', 'c'],
      rowDeleted: 2,
      rowGone: 0,
    });
  });

  it('never counts, approves or queues a Tenant that is not this table’s', () => {
    const foreign = tenantFor(item('a'));
    foreign.metadata.labels = {};
    informer.emit('add', foreign);
    approver.afterScan(new Set());
    intake.acceptBatch({
      changes: [{ kind: 'upsert', item: { name: { S: 'a' }, deleted: { BOOL: true } } }],
    });
    expect(ledger.takedownApproval('a')).toBeUndefined();
    expect(lines.find((l) => l.msg === SYNC_LOG.heldBack)).toBeUndefined();
    // The row is reported (once), never deleted.
    expect(queued).toEqual(['a']);
  });

  it('logs a row whose name cannot name a Tenant once, however often it is read', () => {
    for (let i = 0; i < 3; i++) expect(intake.accept(item('Not_A_Name')).invalid).toBe(true);
    intake.scanFinished();
    intake.accept(item('Not_A_Name'));
    const logged = lines.filter((l) => l.msg === 'row skipped: its name cannot name a Tenant');
    expect(logged).toHaveLength(1);
    expect(logged[0]?.rawName).toBe('Not_A_Name');
  });

  it('takes a stream batch in order: a row removed and written again is simply there', () => {
    informer.emit('add', tenantFor(item('a')));
    informer.emit('add', tenantFor(item('b')));
    intake.acceptBatch({
      changes: [
        { kind: 'remove', name: 'a' },
        { kind: 'upsert', item: item('a') },
        { kind: 'upsert', item: item('b') },
        { kind: 'remove', name: 'b' },
      ],
    });
    expect(ledger.hasRow('a')).toBe(true);
    expect(ledger.hasRow('b')).toBe(false);
    // Before the first complete scan there is no budget yet: b's deletion is held back.
    expect(ledger.takedownApproval('b')).toBeUndefined();
    expect(queued).toEqual([]);
    expect(lines.find((l) => l.msg === SYNC_LOG.heldBack)).toMatchObject({ tenants: ['b'], rowGone: 1 });
  });

  it('takes a row moved to another cluster as removed here, through the same budget', () => {
    for (const name of ['a', 'b']) informer.emit('add', tenantFor(item(name)));
    approver.afterScan(new Set(['a', 'b'])); // one deletion this interval
    const moved = (name: string): Item => ({ ...item(name), cluster: { S: 'eu' } });
    intake.acceptBatch({
      changes: [
        { kind: 'upsert', item: moved('a') },
        { kind: 'upsert', item: moved('b') },
      ],
    });
    expect(ledger.hasRow('a')).toBe(false);
    expect(queued).toEqual(['a']);
    expect(ledger.takedownApproval('a')).toBeDefined();
    expect(lines.find((l) => l.msg === SYNC_LOG.heldBack)).toMatchObject({ tenants: ['b'], rowGone: 1 });
  });

  it("skips another cluster's row without recording it, counting it or calling it a conflict", () => {
    const foreign = tenantFor(item('x'));
    foreign.metadata.labels = {};
    informer.emit('add', foreign);
    const there = { ...item('x'), cluster: { S: 'eu' } };
    expect(intake.accept(there)).toEqual({ name: 'x', invalid: false, deleted: false, elsewhere: true });
    expect(intake.accept({ ...there, spec: { S: 'not json' } }).invalid).toBe(false);
    expect(ledger.hasRow('x')).toBe(false);
    expect(queued).toEqual([]);
  });

  it('records a row read again as any read, and leaves the deciding to the reconciler that asked', async () => {
    informer.emit('add', tenantFor(item('a')));
    const edited = item('a', deployment('a', 'nginx:2'));
    table.set('a', edited);
    expect(await intake.reread('a', AbortSignal.timeout(1_000))).toBe('recorded');
    expect(queued).toEqual([]);
    expect(ledger.pendingWrites).toBe(1);
    const parsed = parseRow(edited);
    if (parsed.kind !== 'tenant') throw new Error('not a valid row');
    expect(ledger.next('a')).toEqual({ kind: 'applySpec', hash: parsed.hash });
  });

  it('forgets a row that a re-read finds gone or placed on another cluster', async () => {
    intake.accept(item('a'));
    intake.accept(item('b'));
    table.set('b', { ...item('b'), cluster: { S: 'eu' } });
    expect(await intake.reread('a', AbortSignal.timeout(1_000))).toBe('gone');
    expect(await intake.reread('b', AbortSignal.timeout(1_000))).toBe('gone');
    expect([ledger.hasRow('a'), ledger.hasRow('b')]).toEqual([false, false]);
  });

  it('records nothing for a row read again whose name cannot name a Tenant', async () => {
    table.set('x', item('Not_A_Name'));
    expect(await intake.reread('x', AbortSignal.timeout(1_000))).toBe('unusable');
    expect(ledger.hasRow('x')).toBe(false);
    expect(ledger.hasRow('Not_A_Name')).toBe(false);
  });

  it('reports a rescan asked for by the stream', () => {
    expect(intake.acceptBatch({ changes: [{ kind: 'rescan', reason: 'lost' }] })).toBe('lost');
  });
});
