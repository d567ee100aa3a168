// The operator component: watches Tenants and their children, and runs a keyed work queue of
// reconciles on the Lease holder. Watch events only name the Tenant to look at; a periodic resync
// repairs whatever a lost event missed.
import { ResourceEventType, type ResourceEvent } from '@dot-i/k8s-operator';
import type { Component, ComponentContext, Work } from '../runtime/component.js';
import { findCondition } from '../api/conditions.js';
import { CONDITION, GROUP, LABEL, PLURAL, VERSION, type Tenant } from '../api/tenant.js';
import { WorkQueue, type Outcome } from '../runtime/work-queue.js';
import { Converger } from './converge.js';
import { childKey, ObservedState, type ChildKind } from './observed.js';
import { Reconciler } from './reconciler.js';
import { namespaceList, namespacePattern, type OperatorSettings } from './settings.js';
import { StatusWriter } from './status-writer.js';
import { InformerOperator, type WatchSpec } from './watcher.js';

export { OPERATOR_SETTINGS, type OperatorSettings } from './settings.js';

/** Namespaces to watch children in: the allowed list when only a list is configured, else all. */
function childScopes(settings: OperatorSettings): (string | undefined)[] {
  const list = namespaceList(settings);
  return list.length > 0 && settings.allowedNamespacePattern === '' ? list : [undefined];
}

class OperatorComponent implements Component {
  readonly name = 'operator';
  private watcher: InformerOperator | undefined;
  private observed: ObservedState | undefined;
  private queue: WorkQueue | undefined;
  private converger: Converger | undefined;
  private readonly generations = new Map<string, number | undefined>();

  constructor(private readonly settings: OperatorSettings) {}

  async prepare(ctx: ComponentContext): Promise<void> {
    const scopes = childScopes(this.settings);
    const child = (
      kind: ChildKind,
      group: string,
      plural: string,
      namespace: string | undefined,
    ): WatchSpec => ({
      group,
      version: 'v1',
      plural,
      kind,
      namespace,
      labelSelector: LABEL.tenant,
      onEvent: (e) => this.onChildEvent(kind, e),
    });
    const specs: WatchSpec[] = [
      {
        group: GROUP,
        version: VERSION,
        plural: PLURAL,
        kind: 'Tenant',
        onEvent: (e) => this.onTenantEvent(e),
        onRecovered: () => this.afterOutage(ctx),
      },
      ...scopes.map((ns) => child('Deployment', 'apps', 'deployments', ns)),
      ...scopes.map((ns) => child('ConfigMap', '', 'configmaps', ns)),
    ];
    this.watcher = new InformerOperator(ctx.api, specs, ctx.logger);
    this.observed = new ObservedState(this.watcher, scopes);
    await this.watcher.start();
  }

  lead(ctx: ComponentContext): Promise<Work> {
    const observed = this.observed!;
    this.converger = new Converger(ctx.api, observed);
    const reconciler = new Reconciler({
      observed,
      converger: this.converger,
      statusWriter: new StatusWriter(ctx.api),
      events: ctx.events,
      policy: {
        allowedNamespaces: namespaceList(this.settings),
        allowedNamespacePattern: namespacePattern(this.settings),
        operatorNamespace: ctx.settings.namespace,
        podSecurity: this.settings.podSecurity,
      },
      logger: ctx.logger,
    });
    const queue = this.makeQueue(ctx, reconciler);
    this.queue = queue;
    queue.start();
    const resyncAll = (): void => void this.resync(ctx, queue);
    resyncAll();
    const resync = setInterval(resyncAll, this.settings.resyncSeconds * 1000);
    const gauges = setInterval(() => this.updateGauges(ctx), 5_000);
    return Promise.resolve({
      stop: async () => {
        clearInterval(resync);
        clearInterval(gauges);
        await queue.shutdown();
      },
    });
  }

  /** Looks at every Tenant again; the log line says when the pass is over, for operators and benchmarks. */
  private async resync(ctx: ComponentContext, queue: WorkQueue): Promise<void> {
    const started = Date.now();
    const tenants = this.observed!.tenants();
    for (const t of tenants) queue.add(t.metadata.name!);
    await queue.drained();
    ctx.logger.info('resync complete', { tenants: tenants.length, durationMs: Date.now() - started });
  }

  private makeQueue(ctx: ComponentContext, reconciler: Reconciler): WorkQueue {
    const { metrics, logger } = ctx;
    return new WorkQueue(
      (name) => reconciler.reconcile(name),
      {
        concurrency: this.settings.concurrency,
        baseDelayMs: this.settings.retryBaseMs,
        maxDelayMs: this.settings.retryMaxSeconds * 1000,
      },
      {
        onOutcome: (name: string, outcome: Outcome, ms: number) => {
          metrics.reconcileTotal.inc({ result: resultOf(outcome) });
          metrics.reconcileDuration.observe(ms / 1000);
          if (outcome.kind === 'retry')
            logger.debug('reconcile will be retried', { tenant: name, error: outcome.error });
        },
        onHandlerError: (name: string, error: unknown) =>
          logger.error('reconcile failed', { tenant: name, error }),
      },
    );
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
      queue.add(tenant.metadata.name!);
    }
  }

  private onTenantEvent(event: ResourceEvent): void {
    const tenant = event.object as Tenant;
    const name = tenant.metadata.name!;
    const generation = tenant.metadata.generation;
    // A new spec must not wait out the backoff earned by the previous one.
    if (this.generations.get(name) !== generation) this.queue?.forget(name);
    this.generations.set(name, generation);
    if (event.type === ResourceEventType.Deleted) this.generations.delete(name);
    this.queue?.add(name);
  }

  private onChildEvent(kind: ChildKind, event: ResourceEvent): void {
    const deleted = event.type === ResourceEventType.Deleted;
    const tenant = this.observed?.indexChild(kind, event.object, deleted);
    if (tenant !== undefined) this.queue?.add(tenant);
    if (!deleted) return;
    const { namespace = '', name = '' } = event.object.metadata ?? {};
    for (const waiter of this.converger?.takeWaiters(childKey({ kind, namespace, name })) ?? [])
      this.queue?.add(waiter);
  }

  private updateGauges(ctx: ComponentContext): void {
    const { metrics } = ctx;
    metrics.queueDepth.set(this.queue?.length ?? 0);
    metrics.queueInFlight.set(this.queue?.inFlight ?? 0);
    metrics.tenants.reset();
    for (const [key, count] of countConditions(this.observed?.tenants() ?? [])) {
      const [condition, status] = key.split('/') as [string, string];
      metrics.tenants.set({ condition, status }, count);
    }
  }

  close(): Promise<void> {
    this.watcher?.stop();
    return Promise.resolve();
  }
}

/** "Ready/True" → number of Tenants, for the tenants-by-condition gauge. */
function countConditions(tenants: readonly Tenant[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const tenant of tenants) {
    for (const type of [CONDITION.ready, CONDITION.degraded]) {
      const key = `${type}/${findCondition(tenant.status?.conditions, type)?.status ?? 'Unknown'}`;
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
  }
  return counts;
}

function resultOf(outcome: Outcome): 'success' | 'error' | 'refused' | 'requeue' {
  if (outcome.kind === 'retry') return 'error';
  if (outcome.kind === 'stop') return 'refused';
  return outcome.kind === 'requeueAfter' ? 'requeue' : 'success';
}

export function createOperator(settings: OperatorSettings): Component {
  namespacePattern(settings); // a bad pattern must stop start-up, not the first reconcile
  return new OperatorComponent(settings);
}
