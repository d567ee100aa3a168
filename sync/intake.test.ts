import { beforeEach, describe, expect, it } from 'vitest';
import type { Tenant } from '../api/tenant.js';
import { API_VERSION, KIND } from '../api/tenant.js';
import { FakeInformer, memoryLogger } from '../testing/sync.js';
import { ownedAnnotations, ownedLabels, tableIdentity } from './identity.js';
import { Intake } from './intake.js';
import { Pruner } from './prune.js';
import { RowBook } from './row-book.js';
import { desiredStatus } from './status.js';
import type { Item } from './dynamo/table-source.js';
import { TenantView } from './tenant-view.js';
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
  let book: RowBook;
  let queued: string[];
  let intake: Intake;
  let lines: Record<string, unknown>[];

  beforeEach(() => {
    informer = new FakeInformer();
    const view = new TenantView(informer.asInformer());
    book = new RowBook();
    queued = [];
    const log = memoryLogger();
    lines = log.lines;
    const events = { record: () => Promise.resolve() } as unknown as EventRecorder;
    const pruner = new Pruner({
      book,
      view,
      enqueue: (name) => queued.push(name),
      events,
      logger: log.logger,
      metrics: createMetrics('sync'),
      limits: { fraction: 0.1, minimum: 1 },
      table: identity.table,
    });
    intake = new Intake({
      book,
      view,
      enqueue: (name) => queued.push(name),
      forgetBackoff: () => undefined,
      pruner,
      identity,
      logger: log.logger,
    });
  });

  it('queues nothing and keeps no spec for a row its Tenant already reflects', () => {
    informer.emit('add', tenantFor(item('a')));
    expect(intake.accept(item('a'))).toEqual({ name: 'a', invalid: false });
    expect(queued).toEqual([]);
    expect(book.pendingWrites).toBe(0);
  });

  it('queues a changed row and keeps its spec until the write', () => {
    informer.emit('add', tenantFor(item('a')));
    intake.accept(item('a', deployment('a', 'nginx:2')));
    expect(queued).toEqual(['a']);
    expect(book.pendingWrites).toBe(1);
  });

  it('queues a deleted: true row only when there is a Tenant to delete', () => {
    intake.accept({ name: { S: 'gone' }, deleted: { BOOL: true } });
    expect(queued).toEqual([]);
    informer.emit('add', tenantFor(item('a')));
    intake.accept({ name: { S: 'a' }, deleted: { BOOL: true } });
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
    expect(book.has('a')).toBe(true);
    expect(book.has('b')).toBe(false);
  });

  it('reports a rescan asked for by the stream', () => {
    expect(intake.acceptBatch({ changes: [{ kind: 'rescan', reason: 'lost' }] })).toBe('lost');
  });
});
