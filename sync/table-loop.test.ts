import { describe, expect, it } from 'vitest';
import type { EventRecorder } from '../runtime/kube/events.js';
import { createMetrics } from '../runtime/metrics.js';
import { FakeInformer } from '../testing/fake-informer.js';
import { memoryLogger, recordingQueue } from '../testing/sync.js';
import { tableIdentity } from './identity.js';
import { Intake } from './intake.js';
import { Ledger } from './ledger.js';
import { TakedownApprover } from './takedown-approver.js';
import { SYNC_LOG } from './reasons.js';
import { TableLoop } from './table-loop.js';
import type { ChangeBatch, Item, TableSource } from './dynamo/table-source.js';
import { TenantCache } from '../runtime/kube/tenant-cache.js';
import { SYNC_TENANT_CACHE } from './tenants.js';
import { Trigger } from './trigger.js';
import { API_VERSION, KIND, type Tenant } from '../api/tenant.js';
import { ownedLabels } from './identity.js';

const identity = tableIdentity('tenants');
const row = (name: string): Item => ({ name: { S: name }, spec: { S: '{"kind":"Deployment"}' } });
const tenant = (name: string): Tenant => ({
  apiVersion: API_VERSION,
  kind: KIND,
  metadata: { name, uid: `uid-${name}`, labels: ownedLabels(identity) },
});

/** A table whose scans are scripted: each entry is one scan's pages, or an error after them. */
class ScriptedTable implements TableSource {
  readonly streaming = false;
  scans = 0;

  constructor(private readonly script: { pages: Item[][]; failAfter?: boolean }[]) {}

  start(): Promise<void> {
    return Promise.resolve();
  }

  async *scan(): AsyncGenerator<Item[]> {
    const step = this.script[Math.min(this.scans++, this.script.length - 1)]!;
    for (const page of step.pages) {
      await Promise.resolve();
      yield page;
    }
    if (step.failAfter === true) throw Object.assign(new Error('throttled'), { name: 'ThrottlingException' });
  }

  // eslint-disable-next-line require-yield -- a table without a stream has no changes
  async *changes(): AsyncGenerator<ChangeBatch> {
    await Promise.resolve();
  }

  read(): Promise<Item | undefined> {
    return Promise.resolve(undefined);
  }

  close(): void {}
}

function harness(source: ScriptedTable, existing: string[]) {
  const informer = new FakeInformer();
  for (const name of existing) informer.emit('add', tenant(name));
  const view = new TenantCache(informer.asInformer(), SYNC_TENANT_CACHE);
  const { queue, added: queued } = recordingQueue();
  const { logger, lines } = memoryLogger();
  const metrics = createMetrics('sync');
  const events = { record: () => Promise.resolve() } as unknown as EventRecorder;
  const ledger = new Ledger(view, identity);
  const trigger = new Trigger(ledger, queue);
  const wake = (name: string): void => trigger.tenant(name);
  const limits = { fraction: 0.5, minimum: 0 };
  const approver = new TakedownApprover({ ledger, view, wake, events, logger, metrics, limits, identity });
  const intake = new Intake({ ledger, trigger, approver, source, logger });
  const loop = new TableLoop({
    source,
    intake,
    approver,
    ledger,
    drained: () => Promise.resolve(),
    metrics,
    logger,
    resyncMs: 10,
    pollMs: 10,
    highWater: 100,
  });
  return { loop, ledger, queued, lines };
}

/** Runs the loop until `done()` holds, then stops it. */
async function runUntil(loop: TableLoop, done: () => boolean): Promise<void> {
  const controller = new AbortController();
  const running = loop.run(controller.signal);
  while (!done()) await new Promise((resolve) => setTimeout(resolve, 5));
  controller.abort();
  await running;
}

describe('TableLoop', () => {
  it('prunes nothing after a scan that failed midway, and prunes once a complete scan agrees', async () => {
    const source = new ScriptedTable([{ pages: [[row('a')]], failAfter: true }, { pages: [[row('a')], []] }]);
    const { loop, ledger, lines } = harness(source, ['a', 'b', 'c', 'd']);
    await runUntil(loop, () => lines.some((l) => l.msg === 'scan failed: nothing is pruned; retrying'));
    expect(['b', 'c', 'd'].map((name) => ledger.takedownApproval(name))).toEqual([
      undefined,
      undefined,
      undefined,
    ]);
    await runUntil(loop, () => lines.some((l) => l.msg === 'scan complete'));
    // Half of four Tenants may go in one pass; the third is held back.
    expect(['b', 'c', 'd'].map((name) => ledger.takedownApproval(name) !== undefined)).toEqual([
      true,
      true,
      false,
    ]);
    expect(lines.find((l) => l.msg === SYNC_LOG.heldBack)).toMatchObject({
      heldBack: 1,
      tenants: ['d'],
    });
  });

  it('never prunes a Tenant whose row the scan read, valid or not', async () => {
    const broken: Item = { name: { S: 'b' }, spec: { S: '{oops' } };
    const source = new ScriptedTable([{ pages: [[row('a'), broken]] }]);
    const { loop, ledger, lines } = harness(source, ['a', 'b']);
    await runUntil(loop, () => lines.some((l) => l.msg === 'scan complete'));
    expect(ledger.takedownApproval('a')).toBeUndefined();
    expect(ledger.takedownApproval('b')).toBeUndefined();
  });
});
