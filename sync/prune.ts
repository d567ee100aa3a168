// Deleting Tenants whose rows are gone, through the mass-deletion guard. Approved deletions go to
// the trigger, and the reconciler confirms the row's absence by a strongly consistent read before
// the delete: a scan or a stream record says where to look, never that a row is gone. What the
// guard holds back is logged with the names, counted, and recorded on each Tenant as a Warning Event.
import type { EventRecorder } from '../runtime/kube/events.js';
import type { Logger } from '../runtime/logger.js';
import type { Metrics } from '../runtime/metrics.js';
import {
  afterCompleteScan,
  DeletionBudget,
  dueForEvent,
  type DeletionPlan,
  type GuardLimits,
} from './prune-guard.js';
import { EVENT_REASON, LOG, MESSAGE } from './reasons.js';
import type { RowBook } from './row-book.js';
import type { TenantView } from './tenant-view.js';

/** A held-back Tenant gets its Event again only after this long, however many passes hold it back. */
const HELD_BACK_EVENT_INTERVAL_MS = 15 * 60_000;
/** Names a held-back log line lists; the count says how many more there are. */
const NAMES_LOGGED = 50;

export interface PrunerDeps {
  book: RowBook;
  view: TenantView;
  /** The trigger: the one way onto the work queue. */
  wake: (name: string) => void;
  events: EventRecorder;
  logger: Logger;
  metrics: Metrics;
  limits: GuardLimits;
  table: string;
}

export class Pruner {
  private readonly budget: DeletionBudget;
  private pass = 0;
  private readonly lastEventAt = new Map<string, number>();

  constructor(private readonly deps: PrunerDeps) {
    this.budget = new DeletionBudget(deps.limits);
  }

  /** After a complete scan: a new interval, and the Tenants whose rows the scan did not find. */
  afterScan(seen: ReadonlySet<string>): void {
    this.pass += 1;
    const plan = afterCompleteScan(
      this.budget,
      this.deps.view.list(),
      (name) => seen.has(name) || this.deps.book.has(name),
    );
    const goneNow = new Set(plan.gone);
    for (const name of this.lastEventAt.keys()) {
      if (!goneNow.has(name)) this.lastEventAt.delete(name);
    }
    this.settle(plan);
  }

  /** The stream reported these rows deleted: the same guard, from the same interval's budget. */
  rowsRemoved(names: readonly string[]): void {
    for (const name of names) this.deps.book.forget(name);
    this.prune(names.filter((name) => this.deps.view.get(name) !== undefined));
  }

  private prune(names: readonly string[]): void {
    this.settle(this.budget.plan(names));
  }

  private settle({ approved, heldBack }: DeletionPlan): void {
    for (const name of approved) {
      this.deps.book.approve(name, this.pass);
      this.deps.wake(name);
    }
    if (heldBack.length > 0) this.holdBack(heldBack);
  }

  private holdBack(names: readonly string[]): void {
    const { logger, metrics, table, limits } = this.deps;
    metrics.syncDeletionsHeldBackTotal.inc(names.length);
    logger.warn(LOG.heldBack, {
      table,
      pass: this.pass,
      heldBack: names.length,
      tenants: names.slice(0, NAMES_LOGGED),
      ...(names.length > NAMES_LOGGED ? { notListed: names.length - NAMES_LOGGED } : {}),
    });
    const message = MESSAGE.heldBack(table, limits.fraction, limits.minimum);
    const now = Date.now();
    for (const name of dueForEvent(names, this.lastEventAt, now, HELD_BACK_EVENT_INTERVAL_MS)) {
      const tenant = this.deps.view.get(name);
      if (tenant === undefined) continue;
      this.lastEventAt.set(name, now);
      this.deps.events.record(tenant, 'Warning', EVENT_REASON.deletionsHeldBack, message);
    }
  }
}
