// The purger's wiring: on every replica, watch Tenants into a cache; on the Lease holder, run a keyed
// work queue of purge reconciles across tenants (bounded concurrency, per-tenant backoff) and a
// periodic resync. Watch events only name the Tenant to look at, with one exception: a running
// purge of a Tenant that left state purged, or is going away, is aborted at once.
import { CRDS } from '../api/crds.js';
import { FIELD_MANAGER, PURGE_PHASES, type Tenant } from '../api/tenant.js';
import { CLASS_API_VERSION, CLASS_KIND, type TenantClass } from '../api/tenantclass.js';
import { Informer } from '../runtime/kube/informer.js';
import { apiPath } from '../runtime/kube/paths.js';
import { readAdminConnection } from '../runtime/sql/admin.js';
import { dropDatabase } from './databases/drop.js';
import { databasesToDrop } from './databases/targets.js';
import type { Component, ComponentContext, Work } from '../runtime/component.js';
import { watchTenants, type TenantCache } from '../runtime/kube/tenant-cache.js';
import { TenantStatusWriter } from '../runtime/kube/tenant-status-writer.js';
import { queueOptions } from '../runtime/queue-settings.js';
import { reconcileQueue } from '../runtime/reconcile-queue.js';
import type { WorkQueue } from '../runtime/work-queue.js';
import { createPurgeClient } from './data/client.js';
import { WriteRateLimiter } from './data/rate-limiter.js';
import { PurgeStarts } from './budget.js';
import { keepsPurging } from './decide.js';
import { Reconciler } from './reconciler.js';
import { RunningPurges, STOP } from './running.js';
import { purgePolicy, type PurgePolicy, type PurgerSettings } from './settings.js';
import { statusCurrent } from './status.js';

class PurgerComponent implements Component {
  readonly name = 'purger';
  // TenantClasses name a tenant's databases.
  readonly crds = [CRDS.tenants, CRDS.tenantClasses];
  private tenants: TenantCache | undefined;
  private classes: Informer<TenantClass> | undefined;
  private queue: WorkQueue | undefined;
  private readonly running = new RunningPurges();
  private readonly stalled = new Map<string, number | undefined>();

  constructor(
    private readonly settings: PurgerSettings,
    private readonly policy: PurgePolicy,
  ) {}

  async prepare(ctx: ComponentContext): Promise<void> {
    // The cache takes the copies the purger's status writes return: a reconcile that follows at once
    // (the event of its own progress write) must not read a completed purge as still Running.
    const tenants = watchTenants(ctx.api, { logger: ctx.logger });
    tenants.on('add', (t) => this.onTenant(t, false));
    tenants.on('update', (t) => this.onTenant(t, false));
    tenants.on('delete', (t) => this.onTenant(t, true));
    this.tenants = tenants;
    const classes = new Informer<TenantClass>(ctx.api, {
      path: apiPath({ apiVersion: CLASS_API_VERSION, kind: CLASS_KIND }),
      apiVersion: CLASS_API_VERSION,
      kind: CLASS_KIND,
      logger: ctx.logger,
      dropStatus: true,
    });
    this.classes = classes;
    await Promise.all([tenants.start(), classes.start()]);
    if (this.policy.tables.length === 0)
      ctx.logger.warn('no data tables configured (LANDLORD_PURGER_TABLES): purges will delete nothing');
  }

  lead(ctx: ComponentContext): Promise<Work> {
    const endpoint = this.settings.endpoint;
    const client = createPurgeClient(endpoint === undefined ? {} : { endpoint });
    const tenants = this.tenants!;
    const reconciler = new Reconciler({
      tenant: (name) => tenants.get(name),
      tenants: () => tenants.list(),
      starts: new PurgeStarts(),
      writer: new TenantStatusWriter(ctx.api, tenants, {
        fieldManager: FIELD_MANAGER.purger,
        current: statusCurrent,
      }),
      events: ctx.events,
      logger: ctx.logger,
      metrics: ctx.metrics,
      policy: this.policy,
      engine: { client, workers: this.settings.workers, limiter: new WriteRateLimiter(this.settings.rate) },
      running: this.running,
      stalled: this.stalled,
      databases: {
        of: (tenant) => databasesToDrop(tenant, (name) => this.classes!.get(name)),
        drop: async (database) =>
          dropDatabase(
            await readAdminConnection(ctx.api, this.settings.namespace, database.adminSecret),
            database,
          ),
      },
    });
    const queue = reconcileQueue((name) => reconciler.reconcile(name), queueOptions(this.settings), ctx);
    this.queue = queue;
    queue.start();
    const resyncAll = (): void => this.resync(queue);
    resyncAll();
    const resync = setInterval(resyncAll, this.settings.resyncSeconds * 1000);
    const gauges = setInterval(() => this.updateGauges(ctx), 5_000);
    return Promise.resolve({
      stop: async () => {
        clearInterval(resync);
        clearInterval(gauges);
        // A purge may run for hours: stop it where it is; status says Running, the next leader resumes.
        this.running.stopAll(STOP.shutdown);
        await queue.shutdown();
        client.destroy();
      },
    });
  }

  private resync(queue: WorkQueue): void {
    for (const t of this.tenants!.list()) queue.add(t.metadata.name!);
  }

  private onTenant(tenant: Tenant, deleted: boolean): void {
    const name = tenant.metadata.name!;
    if (deleted) {
      this.running.stop(name, STOP.deleted);
      this.stalled.delete(name);
    } else if (this.running.has(name) && !keepsPurging(tenant)) {
      this.running.stop(
        name,
        tenant.metadata.deletionTimestamp === undefined ? STOP.cancelled : STOP.deleted,
      );
    }
    this.queue?.add(name);
  }

  private updateGauges(ctx: ComponentContext): void {
    const tenants = this.tenants?.list() ?? [];
    for (const phase of PURGE_PHASES)
      ctx.metrics.purges.set({ phase }, tenants.filter((t) => t.status?.purge?.phase === phase).length);
  }

  async close(): Promise<void> {
    await Promise.all([this.tenants?.stop(), this.classes?.stop()]);
  }
}

/** Checks the delay and the table list first: a mistake in either stops start-up, not a purge. */
export function createPurger(settings: PurgerSettings): Component {
  return new PurgerComponent(settings, purgePolicy(settings));
}
