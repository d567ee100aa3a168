// Where the operator's watch events go. Every event keeps the caches' indexes current; on the Lease
// holder it also names the Tenants to look at to the work queue, and nothing more: the reconcile
// decides from the current state. A status-only Tenant update (the operator's own status write,
// sync's Synced, the purger's) changes nothing a reconcile decides from, and queues nothing: that
// was two of the seven reconciles of a new tenant. The exception is a Tenant with no spec yet, whose
// Ready names sync's refusal of its row.
import type { KubernetesObject } from '@kubernetes/client-node';
import { KIND, type Tenant } from '../../api/tenant.js';
import type { TenantClass } from '../../api/tenantclass.js';
import type { Change } from '../../runtime/kube/informer.js';
import type { Logger } from '../../runtime/logger.js';
import type { Metrics } from '../../runtime/metrics.js';
import type { WorkQueue } from '../../runtime/work-queue.js';
import type { ChildKind } from '../child-ref.js';
import type { Facet } from '../facets/contract.js';
import type { ObservedState } from '../observed.js';
import { REFUSAL_REASON } from '../policy/index.js';
import type { WatchHandlers } from '../watches.js';
import { ClassRollout } from './class-rollout.js';
import { Generations } from './generations.js';
import { RefusedTenants } from './refused-tenants.js';

export interface EventRouterDeps {
  observed: ObservedState;
  metrics: Metrics;
  logger: Logger;
  /** Tenants a TenantClass change reaches per second. */
  classRolloutPerSecond: number;
}

/** The namespace a Tenant held labels in before an event, and after it; the rivals over its hosts. */
interface Moved {
  from?: string;
  to?: string;
  /** Other Tenants whose decision this event may move, as the facets' indexes name them (a host's rivals). */
  rivals: string[];
}

/**
 * A Tenant without a spec reports why from sync's Synced condition (status.ts, rootCause), so a
 * change of its status is looked at. Such Tenants are the few whose rows sync refused from the start.
 */
const awaitsSpec = (tenant: Tenant): boolean =>
  tenant.spec?.deployment === undefined && tenant.spec?.deployments === undefined;

export class EventRouter implements WatchHandlers {
  private queue: WorkQueue | undefined;
  /** The warm pool controller's wake-up, on the Lease holder. */
  private wakePool: (() => void) | undefined;
  private readonly generations = new Generations();
  private readonly labelConflicts = new RefusedTenants(REFUSAL_REASON.labelConflict);
  private readonly classRollout: ClassRollout;

  constructor(private readonly deps: EventRouterDeps) {
    this.classRollout = new ClassRollout(deps.classRolloutPerSecond, deps.logger);
  }

  /** This replica leads: events name Tenants to its queue from now on. */
  lead(queue: WorkQueue, wakePool?: () => void): void {
    this.queue = queue;
    this.wakePool = wakePool;
  }

  tenant(tenant: Tenant, change: Change, deleted: boolean): void {
    const name = tenant.metadata.name!;
    const generation = this.generations.observe(name, tenant.metadata.generation, deleted);
    // A new spec must not wait out the backoff earned by the previous one.
    if (generation.fresh) this.queue?.forget(name);
    const moved = this.track(tenant, deleted);
    const look = !change.statusOnly || awaitsSpec(tenant);
    this.deps.metrics.watchEventsTotal.inc({ kind: KIND, outcome: look ? 'queued' : 'skipped' });
    if (look) this.queue?.add(name);
    // A Tenant that starts holding labels (new, or back from archived) frees none.
    const left = moved.from !== undefined && moved.from !== moved.to;
    const released = deleted || generation.respecified;
    if (released || left) this.wakeLabelConflicts(name, moved.from);
    // Its hosts changed (asked, dropped, archived, back from archived, gone): those that claim the
    // same hosts look at once, the holder that loses one as well as the claimant that wins it.
    this.wakeAll(moved.rivals);
  }

  tenantClass(tenantClass: TenantClass, deleted: boolean): void {
    const rivals = this.deps.observed.classesChanged();
    this.classRollout.changed(tenantClass, deleted, () => this.deps.observed.tenants(), this.queue);
    // A new template may reach other classes' custom hosts: their Tenants, at the rollout's rate.
    if (this.queue !== undefined && rivals.length > 0) this.classRollout.spread(rivals, this.queue);
    this.wakePool?.();
  }

  pool(): void {
    this.wakePool?.();
  }

  /**
   * An object a facet watches beyond its children changed (a source Secret, a route landlord did
   * not make): its facet's index says whom it concerns, and whether at the class-rollout rate (a
   * shared source may concern thousands; those whose copy already holds it write nothing).
   */
  watched(facet: Facet<unknown>, kind: string, object: KubernetesObject, deleted: boolean): void {
    const wakes = this.deps.observed.watchedChanged(facet, kind, object, deleted);
    if (wakes.pool === true) this.wakePool?.();
    const queue = this.queue;
    if (queue === undefined) return;
    const names = wakes.tenants();
    if (names.length === 0) return;
    if (wakes.paced !== true) return this.wakeAll(names);
    const { namespace = '', name = '' } = object.metadata ?? {};
    this.deps.logger.info('a watched object changed; reconciling the tenants it concerns', {
      facet: facet.name,
      object: `${kind} ${namespace}/${name}`,
      tenants: names.length,
    });
    this.classRollout.spread(names, queue);
  }

  child(kind: ChildKind, object: KubernetesObject, deleted: boolean): void {
    const tenants = this.deps.observed.childChanged(kind, object, deleted);
    this.deps.metrics.watchEventsTotal.inc({ kind, outcome: tenants.length > 0 ? 'queued' : 'skipped' });
    for (const tenant of tenants) this.queue?.add(tenant);
  }

  /**
   * The Tenant watch is back after failing: an outage, or a relist slower than the request timeout
   * on a loaded API server. Tenants whose writes failed meanwhile sit in growing backoff (up to the
   * retry maximum) and would ignore the events that now arrive: those start afresh, so the cluster
   * converges as soon as the API answers again. The others need nothing: what changed while the
   * watch was down reaches them as the relist's events. (Re-queueing every Tenant here made a
   * loaded cold start of 20,000 reconcile ~10,600 of them three times over.)
   */
  recovered(): void {
    const retried = this.queue?.retryFailing('event') ?? [];
    this.deps.logger.info('watch reconnected after a failure; retrying the Tenants that were failing', {
      tenants: retried.length,
    });
  }

  /** Keeps the caches' indexes current with a Tenant event. */
  private track(tenant: Tenant, deleted: boolean): Moved {
    const { observed } = this.deps;
    const name = tenant.metadata.name!;
    const from = observed.neighbours.namespace(name);
    this.labelConflicts.track(tenant, deleted);
    const rivals = deleted ? observed.tenantGone(name) : observed.tenantChanged(tenant);
    return { from, to: observed.neighbours.namespace(name), rivals };
  }

  private wakeAll(names: readonly string[]): void {
    for (const name of names) this.queue?.add(name);
  }

  /**
   * A Tenant's spec changed, it left the namespace (its class gave it one of its own) or it went:
   * those its labels held back in its namespace (before and after) may now be free. Only the ones
   * refused with LabelConflict are looked at again, and only then (not on status writes or
   * creations); the periodic resync catches anything else.
   */
  private wakeLabelConflicts(name: string, before: string | undefined): void {
    const queue = this.queue;
    if (queue === undefined) return;
    const { neighbours } = this.deps.observed;
    const namespaces = new Set([before, neighbours.namespace(name)]);
    const inThem = (tenant: string): boolean => {
      const namespace = neighbours.namespace(tenant);
      return namespace !== undefined && namespaces.has(namespace);
    };
    for (const other of this.labelConflicts.others(name, inThem)) queue.add(other);
  }
}
