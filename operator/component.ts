// The operator's wiring: on every replica, watch Tenants, TenantClasses and the children into
// caches (watches.ts), started through the operator library (library.ts); on the Lease holder, run a
// keyed work queue of reconciles. Watch events only name the Tenant to look at
// (routing/event-router.ts); a periodic resync repairs whatever a lost event missed.
import type { V1Deployment } from '@kubernetes/client-node';
import { CRDS } from '../api/crds.js';
import { FIELD_MANAGER } from '../api/tenant.js';
import type { Component, ComponentContext, Work } from '../runtime/component.js';
import { TenantStatusWriter } from '../runtime/kube/tenant-status-writer.js';
import { queueOptions } from '../runtime/queue-settings.js';
import { reconcileQueue } from '../runtime/reconcile-queue.js';
import type { WorkQueue } from '../runtime/work-queue.js';
import { Converger } from './converge.js';
import { servesHttpRoutes } from './exposure/gateway-api.js';
import { OperatorProcess } from './library.js';
import { externalSecretsServed } from './secrets/discovery.js';
import { ObservedState } from './observed.js';
import { Reconciler } from './reconciler.js';
import { TemplateUpgradeGate } from './rollout-budget.js';
import type { ChildRef } from './child-ref.js';
import { awaited, urgentSlots } from './routing/awaited.js';
import { EventRouter } from './routing/event-router.js';
import { namespacePattern, policyConfig, watchScopes, type OperatorSettings } from './settings.js';
import { unchanged } from './status-change.js';
import { RolloutTimes } from './status-hold.js';
import { fallbackClass } from './tenancy/resolve-class.js';
import { tallyTenants } from './tenant-tally.js';
import { OperatorWatches } from './watches.js';
import { PoolClaims } from './pool/claim.js';
import { PoolController } from './pool/controller.js';

class OperatorComponent implements Component {
  readonly name = 'operator';
  readonly crds = [CRDS.tenants, CRDS.tenantClasses];
  private process: OperatorProcess | undefined;
  private watches: OperatorWatches | undefined;
  private observed: ObservedState | undefined;
  private router: EventRouter | undefined;
  private queue: WorkQueue | undefined;
  private upgrades: TemplateUpgradeGate | undefined;
  private readonly rolloutTimes = new RolloutTimes();
  /** Whether the cluster serves HTTPRoutes, asked once at start-up. */
  private gatewayApi = false;

  constructor(private readonly settings: OperatorSettings) {}

  async prepare(ctx: ComponentContext): Promise<void> {
    const scopes = watchScopes(this.settings);
    this.gatewayApi = await servesHttpRoutes(ctx.api);
    ctx.logger.info('gateway API', { httpRoutes: this.gatewayApi });
    const apis = {
      gatewayApi: this.gatewayApi,
      externalSecrets: await externalSecretsServed(ctx.api, ctx.logger),
    };
    const policy = policyConfig(this.settings);
    const watches = new OperatorWatches(ctx.api, scopes, ctx.logger, { apis, policy });
    const observed = new ObservedState(watches, scopes, fallbackClass(policyConfig(this.settings)));
    const { metrics, logger } = ctx;
    const { classRolloutPerSecond } = this.settings;
    this.router = new EventRouter({ observed, metrics, logger, classRolloutPerSecond });
    watches.routeTo(this.router);
    watches.heldFrom(observed);
    this.watches = watches;
    this.observed = observed;
    this.process = new OperatorProcess(watches, logger);
    await this.process.start();
  }

  lead(ctx: ComponentContext): Promise<Work> {
    // The warm pools refill beside the queue, never in it: a claim never waits for a refill.
    const pool = new PoolController({
      api: ctx.api,
      caches: this.watches!.pool,
      classes: () => this.observed!.tenantClasses(),
      policy: policyConfig(this.settings),
      cluster: this.observed!.view(),
      logger: ctx.logger,
      metrics: ctx.metrics,
      refillPerSecond: this.settings.poolRefillPerSecond,
    });
    const upgrades = this.templateUpgrades();
    const reconciler = this.reconciler(ctx, pool, upgrades);
    const observed = this.observed!;
    const options = {
      ...queueOptions(this.settings),
      urgent: (name: string) => awaited(observed.tenant(name)),
      urgentSlots: urgentSlots(this.settings.concurrency),
    };
    const queue = reconcileQueue((name) => reconciler.reconcile(name), options, ctx);
    this.queue = queue;
    this.upgrades = upgrades;
    this.router!.lead(queue, () => pool.wake());
    queue.start();
    pool.start();
    const resyncAll = (): void => void this.resync(ctx, queue);
    resyncAll();
    const resync = setInterval(resyncAll, this.settings.resyncSeconds * 1000);
    ctx.metrics.refreshOnScrape(() => this.updateGauges(ctx));
    return Promise.resolve({
      stop: async () => {
        clearInterval(resync);
        ctx.metrics.refreshOnScrape(undefined);
        await pool.stop();
        await queue.shutdown();
      },
    });
  }

  /**
   * The leader's upgrade budget, its slots counted again from the cache (a leader before this one
   * may have left rollouts under way); a freed slot wakes a waiting Tenant through the queue.
   */
  private templateUpgrades(): TemplateUpgradeGate {
    const observed = this.observed!;
    const upgrades = new TemplateUpgradeGate({
      revision: this.settings.templateRevision,
      limit: this.settings.upgradeRollouts,
      tenantCount: () => observed.tenants().length,
      deployment: (ref) => observed.child<V1Deployment>(ref),
      // An upgrade of running tenants is background work; a tenant someone waits on moves up anyway.
      wake: (tenant) => this.queue?.add(tenant, 'background'),
    });
    upgrades.seedFrom(
      observed.tenants().flatMap((t) => {
        const name = t.metadata.name!;
        const refs = observed.childrenOf(name).filter((ref) => ref.kind === 'Deployment');
        return refs.map((ref): [string, ChildRef] => [name, ref]);
      }),
    );
    return upgrades;
  }

  private reconciler(
    ctx: ComponentContext,
    controller: PoolController,
    templateUpgrades: TemplateUpgradeGate,
  ): Reconciler {
    const observed = this.observed!;
    const { api, metrics, logger } = ctx;
    const caches = this.watches!.pool;
    // Called as this replica starts leading: a leader before it stopped acting before its lease ran
    // out, and the API server's clock is taken to be within a lease duration of ours.
    const aloneSince = Date.now() + ctx.settings.leaseDurationSeconds * 1000;
    const pool = new PoolClaims({ api, observed, caches, controller, metrics, logger, aloneSince });
    return new Reconciler({
      observed,
      converger: new Converger(ctx.api, observed, pool),
      statusWriter: new TenantStatusWriter(ctx.api, this.watches!.tenants, {
        fieldManager: FIELD_MANAGER.operator,
        current: unchanged,
      }),
      events: ctx.events,
      policy: { ...policyConfig(this.settings), gatewayApi: this.gatewayApi },
      logger: ctx.logger,
      rolloutTimes: this.rolloutTimes,
      pool,
      effects: { api, namespace: this.settings.namespace },
      templateUpgrades,
    });
  }

  /** Looks at every Tenant again; the log line says when the pass is over, for operators and benchmarks. */
  private async resync(ctx: ComponentContext, queue: WorkQueue): Promise<void> {
    const started = Date.now();
    const tenants = this.observed!.tenants();
    // The background lane: an edit that comes during a pass (tens of seconds at 10,000) goes first.
    for (const t of tenants) queue.add(t.metadata.name!, 'background');
    await queue.drained();
    ctx.logger.info('resync complete', { tenants: tenants.length, durationMs: Date.now() - started });
  }

  private updateGauges(ctx: ComponentContext): void {
    const { metrics } = ctx;
    metrics.queueDepth.set(this.queue?.length ?? 0);
    metrics.queueInFlight.set(this.queue?.inFlight ?? 0);
    metrics.statusHoldSeconds.set(this.rolloutTimes.holdMs(Date.now()) / 1000);
    this.updateUpgradeGauges(ctx);
    const tally = tallyTenants(this.observed?.tenants() ?? []);
    metrics.tenants.reset();
    for (const [condition, byStatus] of tally.conditions) {
      for (const [status, count] of byStatus) metrics.tenants.set({ condition, status }, count);
    }
    // Every state is set, to 0 when none is in it: the series stay, so no stale count lingers.
    for (const [state, count] of Object.entries(tally.states)) metrics.tenantStates.set({ state }, count);
    metrics.tenantsPaused.set(tally.paused);
  }

  /** The upgrade budget's slots held and Tenants waiting; 0 on a replica that does not lead. */
  private updateUpgradeGauges({ metrics }: ComponentContext): void {
    metrics.templateUpgradeDeployments.set({ state: 'rolling' }, this.upgrades?.rolling ?? 0);
    metrics.templateUpgradeDeployments.set({ state: 'pending' }, this.upgrades?.pending ?? 0);
  }

  close(): Promise<void> {
    this.process?.stop();
    return Promise.resolve();
  }
}

export function createOperator(settings: OperatorSettings): Component {
  namespacePattern(settings); // a bad pattern must stop start-up, not the first reconcile
  return new OperatorComponent(settings);
}
