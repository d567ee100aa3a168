// Deleting Tenants whose rows are gone or say `deleted: true`, through the mass-deletion guard: one
// budget for both causes. Approved deletions go to the trigger; for a gone row the reconciler
// confirms the row's absence by a strongly consistent read before the delete: a scan or a stream
// record says where to look, never that a row is gone. What the guard holds back is logged with the
// names, counted by cause, and recorded on each Tenant as a Warning Event (an Event, not the Synced
// condition: holding back writes nothing to the Tenant, so a held-back pass costs no Tenant write
// and wakes no watcher; the Event is repeated at most every 15 minutes).
import type { EventRecorder } from '../runtime/kube/events.js';
import type { Logger } from '../runtime/logger.js';
import type { Metrics } from '../runtime/metrics.js';
import {
  afterCompleteScan,
  DeletionBudget,
  dueForEvent,
  type DeletionCause,
  type DeletionPlan,
  type GuardLimits,
} from './prune-guard.js';
import { owns, type TableIdentity } from './identity.js';
import { SYNC_EVENT, SYNC_LOG, SYNC_MESSAGE } from './reasons.js';
import type { Ledger } from './ledger.js';
import type { TenantCache } from '../runtime/kube/tenant-cache.js';

/** A held-back Tenant gets its Event again only after this long, however many passes hold it back. */
const HELD_BACK_EVENT_INTERVAL_MS = 15 * 60_000;
/** Names a held-back log line lists; the count says how many more there are. */
const NAMES_LOGGED = 50;

export interface PrunerDeps {
  /** Where the rows as read are, and where an approval is recorded. */
  ledger: Ledger;
  view: TenantCache;
  /** The trigger: the one way onto the work queue. */
  wake: (name: string) => void;
  events: EventRecorder;
  logger: Logger;
  metrics: Metrics;
  limits: GuardLimits;
  identity: TableIdentity;
  /**
   * The shortest time between two budget intervals. 0: every complete scan starts one. Index mode
   * polls every few seconds, each poll a complete read of the cluster's rows; sized per poll, the
   * budget would let a cluster's Tenants go within a minute of its rows vanishing from its view.
   */
  budgetIntervalMs?: number;
  now?: () => number;
}

export class Pruner {
  private readonly budget: DeletionBudget;
  private pass = 0;
  private intervalStartedAt = -Infinity;
  private readonly lastEventAt = new Map<string, number>();

  constructor(private readonly deps: PrunerDeps) {
    this.budget = new DeletionBudget(deps.limits);
  }

  /**
   * After a complete scan: a new interval, and the Tenants of this table whose rows the scan did not
   * find or found saying `deleted: true`.
   */
  afterScan(seen: ReadonlySet<string>): void {
    const { ledger, view, identity } = this.deps;
    this.pass += 1;
    const present = (name: string): boolean => seen.has(name) || ledger.hasRow(name);
    const plan = afterCompleteScan(
      this.budget,
      view.list().filter((tenant) => owns(tenant, identity)),
      (name) => !present(name) || ledger.rowSaysDeleted(name),
      this.newInterval(),
    );
    const doomedNow = new Set(plan.doomed);
    for (const name of this.lastEventAt.keys()) {
      if (!doomedNow.has(name)) this.lastEventAt.delete(name);
    }
    this.settle(plan);
  }

  private newInterval(): boolean {
    const now = (this.deps.now ?? Date.now)();
    if (now - this.intervalStartedAt < (this.deps.budgetIntervalMs ?? 0)) return false;
    this.intervalStartedAt = now;
    return true;
  }

  /** The stream reported these rows removed: the same guard, from the same interval's budget. */
  rowsRemoved(names: readonly string[]): void {
    for (const name of names) this.deps.ledger.rowGone(name);
    this.prune(names.filter((name) => this.deletable(name)));
  }

  /** The stream reported these rows now saying `deleted: true`: the same budget again. */
  rowsMarkedDeleted(names: readonly string[]): void {
    const { ledger } = this.deps;
    this.prune(names.filter((name) => ledger.deletionApproval(name) === undefined && this.deletable(name)));
  }

  /** A live Tenant of this table's, which a deletion would remove. */
  private deletable(name: string): boolean {
    const tenant = this.deps.view.get(name);
    return (
      tenant !== undefined &&
      tenant.metadata.deletionTimestamp === undefined &&
      owns(tenant, this.deps.identity)
    );
  }

  private causeOf(name: string): DeletionCause {
    return this.deps.ledger.rowSaysDeleted(name) ? 'rowDeleted' : 'rowGone';
  }

  private prune(names: readonly string[]): void {
    this.settle(this.budget.plan(names));
  }

  private settle({ approved, heldBack }: DeletionPlan): void {
    for (const name of approved) {
      this.deps.ledger.approveDeletion(name, this.pass);
      this.deps.wake(name);
    }
    if (heldBack.length > 0) this.holdBack(heldBack);
  }

  private holdBack(names: readonly string[]): void {
    const { logger, metrics, identity, limits } = this.deps;
    const rowDeleted = names.filter((name) => this.causeOf(name) === 'rowDeleted').length;
    metrics.syncDeletionsHeldBackTotal.inc({ cause: 'rowDeleted' }, rowDeleted);
    metrics.syncDeletionsHeldBackTotal.inc({ cause: 'rowGone' }, names.length - rowDeleted);
    logger.warn(SYNC_LOG.heldBack, {
      table: identity.table,
      pass: this.pass,
      heldBack: names.length,
      rowDeleted,
      rowGone: names.length - rowDeleted,
      tenants: names.slice(0, NAMES_LOGGED),
      ...(names.length > NAMES_LOGGED ? { notListed: names.length - NAMES_LOGGED } : {}),
    });
    const now = Date.now();
    for (const name of dueForEvent(names, this.lastEventAt, now, HELD_BACK_EVENT_INTERVAL_MS)) {
      const tenant = this.deps.view.get(name);
      if (tenant === undefined) continue;
      this.lastEventAt.set(name, now);
      const message = SYNC_MESSAGE.heldBack(
        identity.table,
        this.causeOf(name),
        limits.fraction,
        limits.minimum,
      );
      this.deps.events.record(tenant, 'Warning', SYNC_EVENT.deletionsHeldBack, message);
    }
  }
}
