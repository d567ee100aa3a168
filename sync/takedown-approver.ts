// Approving takedowns within the takedown budget: Tenants whose rows are gone, say `deleted: true`
// or set a state that takes them down (archived, purged), one budget for every cause. Approved
// takedowns go to the trigger; for a gone row the reconciler confirms the row's absence by a
// strongly consistent read before the delete: a scan or a stream record says where to look, never
// that a row is gone. What the budget holds back is logged with the names, counted by cause, and
// recorded on each Tenant as a Warning Event (an Event, not the Synced condition: holding back
// writes nothing to the Tenant, so a held-back pass costs no Tenant write and wakes no watcher; the
// Event is repeated at most every 15 minutes).
import type { EventRecorder } from '../runtime/kube/events.js';
import type { Logger } from '../runtime/logger.js';
import type { Metrics } from '../runtime/metrics.js';
import {
  afterCompleteScan,
  TakedownBudget,
  dueForEvent,
  type TakedownPlan,
  type TakedownLimits,
  type TakedownCause,
} from './takedown-budget.js';
import { owns, type TableIdentity } from './identity.js';
import { SYNC_EVENT, SYNC_LOG, SYNC_MESSAGE } from './reasons.js';
import type { Ledger } from './ledger.js';
import type { TenantCache } from '../runtime/kube/tenant-cache.js';

/** A held-back Tenant gets its Event again only after this long, however many passes hold it back. */
const HELD_BACK_EVENT_INTERVAL_MS = 15 * 60_000;
/** Names a held-back log line lists; the count says how many more there are. */
const NAMES_LOGGED = 50;

export interface TakedownApproverDeps {
  /** Where the rows as read are, and where an approval is recorded. */
  ledger: Ledger;
  view: TenantCache;
  /** The trigger: the one way onto the work queue. */
  wake: (name: string) => void;
  events: EventRecorder;
  logger: Logger;
  metrics: Metrics;
  limits: TakedownLimits;
  identity: TableIdentity;
  /**
   * The shortest time between two budget intervals (passes), asked at each complete scan. 0: every
   * complete scan starts one, as with a stream, where scans come once a resync. Without a stream
   * (polling by scan, or index mode) a complete read comes every few seconds; sized per poll, the
   * budget would let every Tenant go within a minute of its rows vanishing or being archived.
   */
  budgetIntervalMs?: () => number;
  now?: () => number;
}

const heldBackEvent = (cause: TakedownCause): string =>
  cause === 'archived' || cause === 'purged' ? SYNC_EVENT.takedownHeldBack : SYNC_EVENT.deletionsHeldBack;

export class TakedownApprover {
  private readonly budget: TakedownBudget;
  private pass = 0;
  private intervalStartedAt = -Infinity;
  private readonly lastEventAt = new Map<string, number>();

  constructor(private readonly deps: TakedownApproverDeps) {
    this.budget = new TakedownBudget(deps.limits);
  }

  /**
   * After a complete scan: a new interval, and the Tenants of this table whose rows the scan did not
   * find or found saying `deleted: true`.
   */
  afterScan(seen: ReadonlySet<string>): void {
    const { ledger, view, identity } = this.deps;
    const present = (name: string): boolean => seen.has(name) || ledger.hasRow(name);
    const newInterval = this.newInterval();
    if (newInterval) this.pass += 1;
    const plan = afterCompleteScan(
      this.budget,
      view.list().filter((tenant) => owns(tenant, identity)),
      (name) =>
        !present(name) ||
        ledger.rowSaysDeleted(name) ||
        (ledger.takedown(name) !== undefined && ledger.takedownApproval(name) === undefined),
      newInterval,
    );
    const doomedNow = new Set(plan.doomed);
    for (const name of this.lastEventAt.keys()) {
      if (!doomedNow.has(name)) this.lastEventAt.delete(name);
    }
    this.settle(plan);
  }

  private newInterval(): boolean {
    const now = (this.deps.now ?? Date.now)();
    if (now - this.intervalStartedAt < (this.deps.budgetIntervalMs?.() ?? 0)) return false;
    this.intervalStartedAt = now;
    return true;
  }

  /** The stream reported these rows removed: the same interval's budget. */
  rowsRemoved(names: readonly string[]): void {
    for (const name of names) this.deps.ledger.rowGone(name);
    this.submit(names.filter((name) => this.deletable(name)));
  }

  /** The stream reported these rows now saying `deleted: true`: the same budget again. */
  rowsMarkedDeleted(names: readonly string[]): void {
    const { ledger } = this.deps;
    this.submit(names.filter((name) => ledger.takedownApproval(name) === undefined && this.deletable(name)));
  }

  /**
   * The stream (or a re-read) brought rows that set a state taking their Tenants down (archived,
   * purged): the same budget once more.
   */
  rowsTakingDown(names: readonly string[]): void {
    const { ledger } = this.deps;
    this.submit(
      names.filter(
        (name) =>
          ledger.takedownApproval(name) === undefined &&
          ledger.takedown(name) !== undefined &&
          this.deletable(name),
      ),
    );
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

  private causeOf(name: string): TakedownCause {
    const { ledger } = this.deps;
    if (ledger.rowSaysDeleted(name)) return 'rowDeleted';
    return (ledger.hasRow(name) ? ledger.takedown(name) : undefined) ?? 'rowGone';
  }

  private submit(names: readonly string[]): void {
    this.settle(this.budget.plan(names));
  }

  private settle({ approved, heldBack }: TakedownPlan): void {
    for (const name of approved) {
      this.deps.ledger.approveTakedown(name, this.pass);
      this.deps.wake(name);
    }
    if (heldBack.length > 0) this.holdBack(heldBack);
  }

  private holdBack(names: readonly string[]): void {
    const { logger, metrics, identity } = this.deps;
    const causes = new Map(names.map((name) => [name, this.causeOf(name)]));
    const counts: Record<TakedownCause, number> = { rowGone: 0, rowDeleted: 0, archived: 0, purged: 0 };
    for (const cause of causes.values()) counts[cause] += 1;
    for (const [cause, count] of Object.entries(counts))
      metrics.syncDeletionsHeldBackTotal.inc({ cause }, count);
    logger.warn(SYNC_LOG.heldBack, {
      table: identity.table,
      pass: this.pass,
      heldBack: names.length,
      ...counts,
      tenants: names.slice(0, NAMES_LOGGED),
      ...(names.length > NAMES_LOGGED ? { notListed: names.length - NAMES_LOGGED } : {}),
    });
    for (const [name, cause] of causes) this.holdTakedown(name, cause);
    const now = Date.now();
    for (const name of dueForEvent(names, this.lastEventAt, now, HELD_BACK_EVENT_INTERVAL_MS)) {
      const tenant = this.deps.view.get(name);
      if (tenant === undefined) continue;
      this.lastEventAt.set(name, now);
      const cause = causes.get(name)!;
      this.deps.events.record(tenant, 'Warning', heldBackEvent(cause), this.heldBackMessage(cause));
    }
  }

  /** A takedown by state held back: the Synced condition says why, so the Tenant is woken to write it. */
  private holdTakedown(name: string, cause: TakedownCause): void {
    if (cause !== 'archived' && cause !== 'purged') return;
    this.deps.ledger.holdBack(name, this.heldBackMessage(cause));
    this.deps.wake(name);
  }

  private heldBackMessage(cause: TakedownCause): string {
    const { identity, limits } = this.deps;
    return cause === 'archived' || cause === 'purged'
      ? SYNC_MESSAGE.takedownHeldBack(identity.table, cause, limits.fraction, limits.minimum)
      : SYNC_MESSAGE.heldBack(identity.table, cause, limits.fraction, limits.minimum);
  }
}
