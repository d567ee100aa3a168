// The sync component: on every replica, check the table and keep a cache of the Tenants this sync
// manages; on the leader, run the table loop and a keyed work queue of Tenant writes.
//
// The flow, one tenant at a time:
//   scan / stream (table-loop.ts) → intake records each row in the ledger (intake.ts, ledger.ts)
//   → decide() finds the next write, if any (decide.ts) → the trigger queues the tenant (trigger.ts)
//   → the reconciler acts, deciding again after each write (reconciler.ts) → TenantWriter (SSA).
// Takedown path: a complete scan, a stream REMOVE or a row now saying `deleted: true` → the
//   TakedownApprover approves within the one takedown budget (takedown-approver.ts,
//   takedown-budget.ts) → trigger → reconciler confirms (a gone row is read again, through intake;
//   the Tenant is read again and must still be this table's), then deletes.
// Ownership: only Tenants with this table's marks (identity.ts) are written or deleted; a row naming
//   another is reported (decide.ts).
// A Tenant changed in the cluster goes to the trigger too: the row is the source of truth.
// Readiness told back (LANDLORD_SYNC_ROW_STATUS): every row read, Tenant change and finished
//   reconcile asks the RowStatusWriter (row-status/) whether the row's `landlord` attribute still says
//   what the Tenant does; only a difference costs a read and one conditional UpdateItem.
import { CRDS } from '../api/crds.js';
import type { Component, ComponentContext, Work } from '../runtime/component.js';
import { watchTenants, type TenantCache } from '../runtime/kube/tenant-cache.js';
import { TenantStatusWriter } from '../runtime/kube/tenant-status-writer.js';
import { queueOptions } from '../runtime/queue-settings.js';
import { reconcileQueue } from '../runtime/reconcile-queue.js';
import type { Outcome, WorkQueue } from '../runtime/work-queue.js';
import { FIELD_MANAGER, type Tenant } from '../api/tenant.js';
import { DynamoTableSource } from './dynamo/dynamo-source.js';
import { tableIdentity, type TableIdentity } from './identity.js';
import { RevisionRecorder } from './history/recorder.js';
import { Intake } from './intake.js';
import { Ledger } from './ledger.js';
import { TakedownApprover } from './takedown-approver.js';
import { Reconciler } from './reconciler.js';
import { checkChanges, placementOf, type SyncSettings } from './settings.js';
import { statusCurrent } from './status.js';
import { TableLoop, type TableLoopDeps } from './table-loop.js';
import { READINESS_TENANT_CACHE, SYNC_TENANT_CACHE } from './tenants.js';
import { RowStatusWriter } from './row-status/writer.js';
import { TenantWriter } from './tenant-writer.js';
import { Trigger } from './trigger.js';

/** Row status writes in flight at once. */
const ROW_STATUS_CONCURRENCY = 4;

class SyncComponent implements Component {
  readonly name = 'sync';
  readonly crds = [CRDS.tenants];
  private readonly identity: TableIdentity;
  private source: DynamoTableSource | undefined;
  private tenants: TenantCache | undefined;
  /** What sync knows of every row; kept from one leadership to the next. */
  private ledger: Ledger | undefined;

  constructor(private readonly settings: SyncSettings) {
    checkChanges(settings);
    this.identity = tableIdentity(settings.table, placementOf(settings));
  }

  async prepare(ctx: ComponentContext): Promise<void> {
    const { metrics, logger } = ctx;
    this.source = new DynamoTableSource({
      table: this.settings.table,
      endpoint: this.settings.endpoint,
      scanSegments: this.settings.scanSegments,
      ...this.indexMode(),
      observeRetries: (operation, retries) => metrics.dynamodbRetriesTotal.inc({ operation }, retries),
      logger,
    });
    await this.source.check();
    // Every Tenant, not only this table's: a row naming one that sync did not make must be seen as
    // such (and reported, not taken over), and the name freed when that Tenant goes.
    const cache = this.settings.rowStatus ? READINESS_TENANT_CACHE : SYNC_TENANT_CACHE;
    this.tenants = watchTenants(ctx.api, { logger, ...cache });
    await this.tenants.start();
  }

  /** Index mode reads this cluster's rows from the cluster index; stream mode needs nothing more. */
  private indexMode(): { index?: { index: string; cluster: string } } {
    const { changes, cluster, clusterIndex } = this.settings;
    // checkChanges() made sure index mode has a cluster.
    return changes === 'index' && cluster !== undefined ? { index: { index: clusterIndex, cluster } } : {};
  }

  lead(ctx: ComponentContext): Promise<Work> {
    const controller = new AbortController();
    const tenants = this.tenants!;
    const ledger = (this.ledger ??= new Ledger(tenants, this.identity));
    const rowStatus = this.rowStatusWriter(ctx, ledger, controller.signal);
    // The queue runs the reconciler made below, once started; what it did may change the row's status.
    const reconcile = async (name: string): Promise<Outcome> => {
      const outcome = await reconciler.reconcile(name);
      rowStatus?.check(name);
      return outcome;
    };
    const queue = reconcileQueue(reconcile, queueOptions(this.settings), ctx);
    const trigger = new Trigger(ledger, queue);
    const approver = this.approver(ctx, ledger, trigger);
    const intake = new Intake({
      ledger,
      trigger,
      approver,
      source: this.source!,
      logger: ctx.logger,
      ...(rowStatus === undefined ? {} : { rowStatus }),
    });
    const reconciler = new Reconciler({
      ledger,
      writer: new TenantWriter(ctx.api, this.identity, ctx.metrics),
      statusWriter: new TenantStatusWriter(ctx.api, tenants, {
        fieldManager: FIELD_MANAGER.sync,
        current: statusCurrent,
      }),
      api: ctx.api,
      history: new RevisionRecorder({
        api: ctx.api,
        metrics: ctx.metrics,
        namespace: ctx.settings.namespace,
        limit: this.settings.historyLimit,
      }),
      intake,
      events: ctx.events,
      logger: ctx.logger,
      metrics: ctx.metrics,
      signal: controller.signal,
    });
    // A Tenant deleted or edited behind sync's back is put back as its row says. Sync's own
    // writes come through here too, and find nothing to do.
    const recheck = (tenant: Tenant): void => {
      if (tenant.metadata.name === undefined) return;
      trigger.tenant(tenant.metadata.name);
      rowStatus?.check(tenant.metadata.name);
    };
    tenants.on('update', recheck);
    tenants.on('delete', recheck);
    const loop = this.tableLoop(ctx, { ledger, intake, approver }, queue);
    queue.start();
    rowStatus?.start();
    const running = loop.run(controller.signal);
    return Promise.resolve({
      stop: async () => {
        controller.abort();
        await running;
        await queue.shutdown();
        await rowStatus?.shutdown();
      },
    });
  }

  /** The writer of rows' readiness, when rows are told it; the leader's only, like every write. */
  private rowStatusWriter(
    ctx: ComponentContext,
    ledger: Ledger,
    signal: AbortSignal,
  ): RowStatusWriter | undefined {
    if (!this.settings.rowStatus) return undefined;
    const source = this.source!;
    return new RowStatusWriter({
      ledger,
      table: {
        name: this.settings.table,
        read: (name, abort) => source.read(name, abort),
        update: (input, abort) => source.update(input, abort),
      },
      metrics: ctx.metrics,
      logger: ctx.logger,
      // Few at once: these writes wait on nothing but DynamoDB, and must not crowd out the Tenants'.
      queue: { ...queueOptions(this.settings), concurrency: ROW_STATUS_CONCURRENCY },
      signal,
    });
  }

  private approver(ctx: ComponentContext, ledger: Ledger, trigger: Trigger): TakedownApprover {
    const { events, logger, metrics } = ctx;
    return new TakedownApprover({
      ledger,
      view: this.tenants!,
      wake: (name) => trigger.tenant(name),
      events,
      logger,
      metrics,
      limits: { fraction: this.settings.maxDeleteFraction, minimum: this.settings.maxDeleteMinimum },
      identity: this.identity,
      // Without a stream (index mode, or a table that has none) a complete read comes every poll:
      // the budget still lasts a resync interval. Asked at each scan: a stream can appear or go.
      budgetIntervalMs: () => (this.source?.streaming === true ? 0 : this.settings.resyncSeconds * 1000),
    });
  }

  private tableLoop(
    ctx: ComponentContext,
    parts: Pick<TableLoopDeps, 'ledger' | 'intake' | 'approver'>,
    queue: WorkQueue,
  ): TableLoop {
    return new TableLoop({
      ...parts,
      source: this.source!,
      drained: () => queue.drained(),
      metrics: ctx.metrics,
      logger: ctx.logger,
      resyncMs: this.settings.resyncSeconds * 1000,
      pollMs: this.settings.pollSeconds * 1000,
      highWater: Math.max(256, 16 * this.settings.concurrency),
    });
  }

  async close(): Promise<void> {
    await this.tenants?.stop();
    this.source?.close();
  }
}

export function createSync(settings: SyncSettings): Component {
  return new SyncComponent(settings);
}
