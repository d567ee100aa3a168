// A TenantClass appeared, changed or went (or a Secret its `secrets` copy): the Tenants it concerns
// are reconciled again, spread out at the configured rate. Each starts afresh (a new input must not wait out an old backoff).
import type { Tenant } from '../../api/tenant.js';
import type { TenantClass } from '../../api/tenantclass.js';
import type { Logger } from '../../runtime/logger.js';
import type { WorkQueue } from '../../runtime/work-queue.js';
import {
  classChange,
  classMark,
  spreadDelays,
  tenantsOfClass,
  type ClassChange,
  type ClassMark,
} from '../tenancy/class-changes.js';

export class ClassRollout {
  /** What each TenantClass looked like to Tenants when last seen: one entry per class. */
  private readonly marks = new Map<string, ClassMark>();

  constructor(
    private readonly perSecond: number,
    private readonly logger: Logger,
  ) {}

  /** A TenantClass event; with a queue (the Lease holder's), its Tenants are queued spread out. */
  changed(
    tenantClass: TenantClass,
    deleted: boolean,
    tenants: () => readonly Tenant[],
    queue: WorkQueue | undefined,
  ): void {
    const change = this.remember(tenantClass, deleted);
    if (change === undefined || queue === undefined) return;
    const names = tenantsOfClass(tenants(), change);
    this.logger.info('TenantClass changed; reconciling its tenants', {
      tenantClass: change.name,
      deleted,
      defaultsChanged: change.defaultsChanged,
      tenants: names.length,
    });
    this.spread(names, queue);
  }

  /**
   * Queues the Tenants spread out at the class-rollout rate, each starting afresh: a class edit's,
   * or a source Secret's, which reaches as many. In the background lane: a new tenant's reconcile
   * does not wait behind them (issue 56).
   */
  spread(names: readonly string[], queue: WorkQueue): void {
    spreadDelays(names.length, this.perSecond).forEach((delay, i) => {
      queue.forget(names[i]!);
      queue.addAfter(names[i]!, delay, 'background');
    });
  }

  /** Records the class as now seen; returns what changed for its Tenants, if anything. */
  private remember(tenantClass: TenantClass, deleted: boolean): ClassChange | undefined {
    const name = tenantClass.metadata.name ?? '';
    const after = deleted ? undefined : classMark(tenantClass);
    const change = classChange(name, this.marks.get(name), after);
    if (after === undefined) this.marks.delete(name);
    else this.marks.set(name, after);
    return change;
  }
}
