// The sync component: on every replica, check the table and keep a cache of the Tenants this sync
// manages; on the leader, run the scan/stream loop and a keyed work queue of Tenant writes.
import type { Component, ComponentContext, Work } from '../runtime/component.js';
import { apiPath } from '../runtime/kube/paths.js';
import { Informer } from '../runtime/kube/informer.js';
import { API_VERSION, KIND, type Tenant } from '../api/tenant.js';
import { WorkQueue, type Outcome } from '../runtime/work-queue.js';
import { DynamoTableSource } from './dynamo/dynamo-source.js';
import { managedSelector, tableIdentity, type TableIdentity } from './identity.js';
import { Intake } from './intake.js';
import { Pruner } from './prune.js';
import { Reconciler } from './reconciler.js';
import { RowBook } from './row-book.js';
import type { SyncSettings } from './settings.js';
import { SyncLoop } from './sync.js';
import { TenantView } from './tenant-view.js';
import { TenantWriter } from './tenant-writer.js';

const QUEUE_RETRY = { baseDelayMs: 500, maxDelayMs: 60_000 } as const;

function resultOf(outcome: Outcome): 'success' | 'error' | 'refused' | 'requeue' {
  if (outcome.kind === 'retry') return 'error';
  if (outcome.kind === 'stop') return 'refused';
  return outcome.kind === 'requeueAfter' ? 'requeue' : 'success';
}

class SyncComponent implements Component {
  readonly name = 'sync';
  private readonly identity: TableIdentity;
  private source: DynamoTableSource | undefined;
  private informer: Informer<Tenant> | undefined;
  private view: TenantView | undefined;
  private readonly book = new RowBook();

  constructor(private readonly settings: SyncSettings) {
    this.identity = tableIdentity(settings.table);
  }

  async prepare(ctx: ComponentContext): Promise<void> {
    const { metrics, logger } = ctx;
    this.source = new DynamoTableSource({
      table: this.settings.table,
      endpoint: this.settings.endpoint,
      scanSegments: this.settings.scanSegments,
      observeRetries: (operation, retries) => metrics.dynamodbRetriesTotal.inc({ operation }, retries),
      logger,
    });
    await this.source.check();
    this.informer = new Informer<Tenant>(ctx.api, {
      path: apiPath({ apiVersion: API_VERSION, kind: KIND }),
      apiVersion: API_VERSION,
      kind: KIND,
      labelSelector: managedSelector(this.identity),
      logger,
    });
    this.view = new TenantView(this.informer);
    await this.informer.start();
  }

  lead(ctx: ComponentContext): Promise<Work> {
    const source = this.source!;
    const view = this.view!;
    const controller = new AbortController();
    const queue = this.makeQueue(ctx, (name) => reconciler.reconcile(name));
    const pruner = new Pruner({
      book: this.book,
      view,
      enqueue: (name) => queue.add(name),
      events: ctx.events,
      logger: ctx.logger,
      metrics: ctx.metrics,
      limits: { fraction: this.settings.maxDeleteFraction, minimum: this.settings.maxDeleteMinimum },
      table: this.settings.table,
    });
    const intake = new Intake({
      book: this.book,
      view,
      enqueue: (name) => queue.add(name),
      forgetBackoff: (name) => queue.forget(name),
      pruner,
      identity: this.identity,
      logger: ctx.logger,
    });
    const reconciler = new Reconciler({
      book: this.book,
      view,
      writer: new TenantWriter(ctx.api, this.identity, ctx.metrics),
      api: ctx.api,
      source,
      intake,
      events: ctx.events,
      logger: ctx.logger,
      identity: this.identity,
      signal: controller.signal,
    });
    // A Tenant deleted or edited behind sync's back is put back as its row says. Sync's own
    // writes come through here too, and find nothing to do.
    const recheck = (tenant: Tenant): void => {
      const name = tenant.metadata.name;
      if (name !== undefined && intake.needsWork(name)) queue.add(name);
    };
    this.informer!.on('update', recheck);
    this.informer!.on('delete', recheck);
    const loop = new SyncLoop({
      source,
      intake,
      pruner,
      book: this.book,
      drained: () => queue.drained(),
      metrics: ctx.metrics,
      logger: ctx.logger,
      resyncMs: this.settings.resyncSeconds * 1000,
      pollMs: this.settings.pollSeconds * 1000,
      highWater: Math.max(256, 16 * this.settings.concurrency),
    });
    queue.start();
    const running = loop.run(controller.signal);
    return Promise.resolve({
      stop: async () => {
        controller.abort();
        await running;
        await queue.shutdown();
      },
    });
  }

  private makeQueue(ctx: ComponentContext, handler: (name: string) => Promise<Outcome>): WorkQueue {
    const { metrics, logger } = ctx;
    const queue: WorkQueue = new WorkQueue(
      handler,
      { concurrency: this.settings.concurrency, ...QUEUE_RETRY },
      {
        onOutcome: (_name, outcome, ms) => {
          metrics.reconcileTotal.inc({ result: resultOf(outcome) });
          metrics.reconcileDuration.observe(ms / 1000);
          metrics.queueDepth.set(queue.length);
          metrics.queueInFlight.set(queue.inFlight);
        },
        onHandlerError: (name, error) => logger.error('tenant handler failed', { tenant: name, error }),
      },
    );
    return queue;
  }

  async close(): Promise<void> {
    await this.informer?.stop();
    this.source?.close();
  }
}

export function createSync(settings: SyncSettings): Component {
  return new SyncComponent(settings);
}
