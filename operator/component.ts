// The operator's wiring: on every replica, watch Tenants, TenantClasses and the children into
// caches; on the Lease holder, run a keyed work queue of reconciles. Watch events only name the Tenant to look at;
// a periodic resync repairs whatever a lost event missed.
import { ResourceEventType, type ResourceEvent } from '@dot-i/k8s-operator';
import { findCondition } from '../api/conditions.js';
import { CRDS } from '../api/crds.js';
import { CLASS_API_VERSION, CLASS_KIND, type TenantClass } from '../api/tenantclass.js';
import { API_VERSION, CONDITION, KIND, LABEL, type Tenant } from '../api/tenant.js';
import type { Component, ComponentContext, Work } from '../runtime/component.js';
import type { Metrics } from '../runtime/metrics.js';
import { queueOptions } from '../runtime/queue-settings.js';
import { reconcileQueue } from '../runtime/reconcile-queue.js';
import type { WorkQueue } from '../runtime/work-queue.js';
import { CHILD_API_VERSION, statusIsRead, TENANCY_KINDS, type ChildKind } from './child-ref.js';
import { Converger } from './converge.js';
import { RolloutTimes } from './status-hold.js';
import { tallyTenants } from './tenant-tally.js';
import { ObservedState } from './observed.js';
import { REFUSAL_REASON } from './policy/index.js';
import { Reconciler } from './reconciler.js';
import { namespacePattern, policyConfig, watchScopes, type OperatorSettings } from './settings.js';
import { StatusWriter } from './status-writer.js';
import { InformerOperator, type WatchEvent, type WatchSpec } from './watcher.js';
import {
  classChange,
  classMark,
  spreadDelays,
  tenantsOfClass,
  type ClassMark,
} from './tenancy/class-changes.js';

/** Namespaces to watch children in: the allowed list when only a list is configured, else all. */
class OperatorComponent implements Component {
  readonly name = 'operator';
  readonly crds = [CRDS.tenants, CRDS.tenantClasses];
  private watcher: InformerOperator | undefined;
  private observed: ObservedState | undefined;
  private queue: WorkQueue | undefined;
  private readonly generations = new Map<string, number | undefined>();
  /**
   * Tenants whose status says LabelConflict: the only ones a freed label can unblock. Kept from the
   * Tenant events, so a change looks at these few instead of every Tenant of its namespace (at
   * 20,000 Tenants in one namespace, every new Tenant scanned them all).
   */
  private readonly labelConflicted = new Set<string>();
  /** What each TenantClass looked like to Tenants when last seen: one entry per class. */
  private readonly classMarks = new Map<string, ClassMark>();

  private readonly rolloutTimes = new RolloutTimes();

  constructor(private readonly settings: OperatorSettings) {}

  async prepare(ctx: ComponentContext): Promise<void> {
    const scopes = watchScopes(this.settings);
    const child = (kind: ChildKind, namespace: string | undefined): WatchSpec => ({
      apiVersion: CHILD_API_VERSION[kind],
      kind,
      namespace,
      labelSelector: LABEL.tenant,
      onEvent: (e) => this.onChildEvent(ctx.metrics, kind, e),
      dropStatus: !statusIsRead(kind),
    });
    const specs: WatchSpec[] = [
      {
        apiVersion: API_VERSION,
        kind: KIND,
        onEvent: (e) => this.onTenantEvent(ctx.metrics, e),
        markStatusOnly: true,
        onRecovered: () => this.afterOutage(ctx),
      },
      { apiVersion: CLASS_API_VERSION, kind: CLASS_KIND, onEvent: (e) => this.onClassEvent(ctx, e) },
      ...scopes.map((ns) => child('Deployment', ns)),
      ...scopes.map((ns) => child('ConfigMap', ns)),
      // A PerTenant namespace is made when its Tenant comes: these are watched cluster-wide.
      ...TENANCY_KINDS.map((kind) => child(kind, undefined)),
    ];
    this.watcher = new InformerOperator(ctx.api, specs, ctx.logger);
    this.observed = new ObservedState(this.watcher, scopes, policyConfig(this.settings).tenantClass);
    await this.watcher.start();
  }

  lead(ctx: ComponentContext): Promise<Work> {
    const reconciler = this.reconciler(ctx);
    const queue = reconcileQueue((name) => reconciler.reconcile(name), queueOptions(this.settings), ctx);
    this.queue = queue;
    queue.start();
    const resyncAll = (): void => void this.resync(ctx, queue);
    resyncAll();
    const resync = setInterval(resyncAll, this.settings.resyncSeconds * 1000);
    ctx.metrics.refreshOnScrape(() => this.updateGauges(ctx));
    return Promise.resolve({
      stop: async () => {
        clearInterval(resync);
        ctx.metrics.refreshOnScrape(undefined);
        await queue.shutdown();
      },
    });
  }

  private reconciler(ctx: ComponentContext): Reconciler {
    const observed = this.observed!;
    return new Reconciler({
      observed,
      converger: new Converger(ctx.api, observed),
      statusWriter: new StatusWriter(ctx.api),
      events: ctx.events,
      policy: policyConfig(this.settings),
      logger: ctx.logger,
      rolloutTimes: this.rolloutTimes,
    });
  }

  /** Looks at every Tenant again; the log line says when the pass is over, for operators and benchmarks. */
  private async resync(ctx: ComponentContext, queue: WorkQueue): Promise<void> {
    const started = Date.now();
    const tenants = this.observed!.tenants();
    // The resync lane: an edit that comes during a pass (tens of seconds at 10,000) goes first.
    for (const t of tenants) queue.add(t.metadata.name!, 'resync');
    await queue.drained();
    ctx.logger.info('resync complete', { tenants: tenants.length, durationMs: Date.now() - started });
  }

  /**
   * The API server is back after an outage. Tenants whose writes failed meanwhile sit in growing
   * backoff (up to the retry maximum) and would ignore the events that now arrive; give every Tenant
   * a fresh start so the cluster converges as soon as the API answers again.
   */
  private afterOutage(ctx: ComponentContext): void {
    const queue = this.queue;
    if (queue === undefined) return;
    const tenants = this.observed?.tenants() ?? [];
    ctx.logger.info('watch reconnected after a failure; reconciling every Tenant', {
      tenants: tenants.length,
    });
    for (const tenant of tenants) {
      queue.forget(tenant.metadata.name!);
      queue.add(tenant.metadata.name!, 'resync');
    }
  }

  /**
   * A status write (the operator's own, sync's Synced, the purger's) changes nothing a reconcile
   * decides from: the caches take it, and the Tenant is not looked at again for it. That was two
   * of the seven reconciles of a new tenant.
   */
  private onTenantEvent(metrics: Metrics, event: WatchEvent): void {
    const tenant = event.object as Tenant;
    const name = tenant.metadata.name!;
    const generation = tenant.metadata.generation;
    const previous = this.generations.get(name);
    // A new spec must not wait out the backoff earned by the previous one.
    if (previous !== generation) this.queue?.forget(name);
    const deleted = event.type === ResourceEventType.Deleted;
    const moved = this.trackTenant(tenant, deleted);
    metrics.watchEventsTotal.inc({ kind: KIND, outcome: event.statusOnly ? 'skipped' : 'queued' });
    if (!event.statusOnly) this.queue?.add(name);
    const respecified = previous !== undefined && previous !== generation;
    // A Tenant that starts holding labels (new, or back from archived) frees none.
    const left = moved.from !== undefined && moved.from !== moved.to;
    if (deleted || respecified || left) this.wakeLabelConflicts(name, moved.from);
  }

  /** Keeps the caches current with the event; returns the namespace the Tenant held labels in, before and after. */
  private trackTenant(tenant: Tenant, deleted: boolean): { from?: string; to?: string } {
    const name = tenant.metadata.name!;
    const from = this.observed?.neighbours.namespace(name);
    const applied = findCondition(tenant.status?.conditions, CONDITION.applied);
    if (!deleted && applied?.reason === REFUSAL_REASON.labelConflict) this.labelConflicted.add(name);
    else this.labelConflicted.delete(name);
    if (deleted) {
      this.generations.delete(name);
      this.observed?.tenantGone(name);
    } else {
      this.generations.set(name, tenant.metadata.generation);
      this.observed?.tenantChanged(tenant);
    }
    return { from, to: this.observed?.neighbours.namespace(name) };
  }

  /**
   * A Tenant's spec changed, it left the namespace (its class gave it one of its own) or it went:
   * those its labels held back in its namespace (before and after) may now be free. Only the ones
   * refused with LabelConflict are looked at again, and only then (not on status writes or
   * creations); the periodic resync catches anything else.
   */
  private wakeLabelConflicts(name: string, before: string | undefined): void {
    const observed = this.observed;
    if (observed === undefined || this.queue === undefined) return;
    const namespaces = new Set([before, observed.neighbours.namespace(name)]);
    for (const other of this.labelConflicted) {
      const namespace = observed.neighbours.namespace(other);
      if (other !== name && namespace !== undefined && namespaces.has(namespace)) this.queue.add(other);
    }
  }

  /**
   * A TenantClass appeared, changed or went: the Tenants it concerns are reconciled again, spread
   * out at the configured rate. Each starts afresh (a new input must not wait out an old backoff).
   */
  private onClassEvent(ctx: ComponentContext, event: ResourceEvent): void {
    const tc = event.object as TenantClass;
    const name = tc.metadata.name ?? '';
    const deleted = event.type === ResourceEventType.Deleted;
    const after = deleted ? undefined : classMark(tc);
    const change = classChange(name, this.classMarks.get(name), after);
    if (after === undefined) this.classMarks.delete(name);
    else this.classMarks.set(name, after);
    const queue = this.queue;
    if (change === undefined || queue === undefined) return;
    const tenants = tenantsOfClass(this.observed?.tenants() ?? [], change);
    ctx.logger.info('TenantClass changed; reconciling its tenants', {
      tenantClass: name,
      deleted,
      defaultsChanged: change.defaultsChanged,
      tenants: tenants.length,
    });
    spreadDelays(tenants.length, this.settings.classRolloutPerSecond).forEach((delay, i) => {
      queue.forget(tenants[i]!);
      queue.addAfter(tenants[i]!, delay);
    });
  }

  private onChildEvent(metrics: Metrics, kind: ChildKind, event: WatchEvent): void {
    const deleted = event.type === ResourceEventType.Deleted;
    const tenants = this.observed?.childChanged(kind, event.object, deleted) ?? [];
    metrics.watchEventsTotal.inc({ kind, outcome: tenants.length > 0 ? 'queued' : 'skipped' });
    for (const tenant of tenants) this.queue?.add(tenant);
  }

  private updateGauges(ctx: ComponentContext): void {
    const { metrics } = ctx;
    metrics.queueDepth.set(this.queue?.length ?? 0);
    metrics.queueInFlight.set(this.queue?.inFlight ?? 0);
    metrics.statusHoldSeconds.set(this.rolloutTimes.holdMs(Date.now()) / 1000);
    const tally = tallyTenants(this.observed?.tenants() ?? []);
    metrics.tenants.reset();
    for (const [condition, byStatus] of tally.conditions) {
      for (const [status, count] of byStatus) metrics.tenants.set({ condition, status }, count);
    }
    // Every state is set, to 0 when none is in it: the series stay, so no stale count lingers.
    for (const [state, count] of Object.entries(tally.states)) metrics.tenantStates.set({ state }, count);
    metrics.tenantsPaused.set(tally.paused);
  }

  close(): Promise<void> {
    this.watcher?.stop();
    return Promise.resolve();
  }
}

export function createOperator(settings: OperatorSettings): Component {
  namespacePattern(settings); // a bad pattern must stop start-up, not the first reconcile
  return new OperatorComponent(settings);
}
