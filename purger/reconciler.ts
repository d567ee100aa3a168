// One reconcile of one Tenant's purge, level-triggered: read it from the cache, decide (decide.ts),
// then act: report a schedule and look again when the delay is over, run the purge, or report it
// cancelled. Status is written by the status writer only, and only when it changed; the outcome
// tells the queue whether to retry.
import type { ConditionInput } from '../api/conditions.js';
import { type DatabasePurgeStatus, type PurgeStatus, type Tenant } from '../api/tenant.js';
import type { EventType, EventRecorder } from '../runtime/kube/events.js';
import type { Logger } from '../runtime/logger.js';
import type { Metrics } from '../runtime/metrics.js';
import type { TenantStatusWriter } from '../runtime/kube/tenant-status-writer.js';
import type { Outcome } from '../runtime/work-queue.js';
import { fromTables, type TableMismatch } from '../api/table-identity.js';
import { admitPurge, type PurgeStarts } from './budget.js';
import { decidePurge, type PurgeDecision } from './decide.js';
import { formatDuration } from './duration.js';
import { ProgressReporter } from './progress.js';
import { PURGER_EVENT } from './reasons.js';
import { runPurge, type RunEnd, type RunOptions } from './run.js';
import { STOP, stopReason, type RunningPurges } from './running.js';
import type { PurgePolicy } from './settings.js';
import {
  cancelledCondition,
  databaseLabel,
  endedPurge,
  failedCondition,
  heldBackCondition,
  noTablesCondition,
  ownPurge,
  progressCondition,
  purgerStatus,
  refusedCondition,
  scheduledPurge,
  type PurgerStatus,
  startedPurge,
  totalDeleted,
} from './status.js';

export interface ReconcilerDeps {
  tenant: (name: string) => Tenant | undefined;
  /** Every Tenant the cache holds: the purges they record count against the hourly budget. */
  tenants: () => readonly Tenant[];
  /** The purges started here, for the hourly budget. */
  starts: PurgeStarts;
  writer: TenantStatusWriter<PurgerStatus>;
  events: EventRecorder;
  logger: Logger;
  metrics: Metrics;
  policy: PurgePolicy;
  engine: RunOptions['engine'];
  running: RunningPurges;
  /** Tenants whose purge failed for good, by the generation that failed: not retried until it changes. */
  stalled: Map<string, number | undefined>;
  /** The tenant's databases as its class names them now, and how one is dropped (databases/). */
  databases: {
    of: (tenant: Tenant) => DatabasePurgeStatus[];
    drop: (database: DatabasePurgeStatus) => Promise<void>;
  };
}

type Times = { scheduledAt: string; startsAt: string };
type Scheduling = Extract<PurgeDecision, { kind: 'schedule' | 'wait' }>;
type Start = Extract<PurgeDecision, { kind: 'start' }>;

export class Reconciler {
  private readonly tableNames: string[];

  constructor(private readonly deps: ReconcilerDeps) {
    this.tableNames = deps.policy.tables.map((t) => t.table);
  }

  async reconcile(name: string): Promise<Outcome> {
    const tenant = this.deps.tenant(name);
    if (tenant === undefined) return { kind: 'done' };
    const now = new Date();
    const decision = decidePurge(tenant, now, {
      delayMs: this.deps.policy.delayMs,
      tableCount: this.tableNames.length + this.deps.databases.of(tenant).length,
      tenantTables: this.deps.policy.tenantTables,
      stalledGeneration: this.deps.stalled.get(name),
    });
    try {
      return await this.act(tenant, decision, now);
    } catch (error) {
      // The API server is unreachable or busy: an expected fault, retried with backoff.
      this.deps.logger.warn('could not write the purge status; will retry', {
        tenant: name,
        error: String(error),
      });
      return { kind: 'retry', error };
    }
  }

  private async act(tenant: Tenant, decision: PurgeDecision, now: Date): Promise<Outcome> {
    switch (decision.kind) {
      case 'nothing':
        return { kind: 'done' };
      case 'refuse':
        await this.refuse(tenant, decision.mismatch);
        return { kind: 'done' };
      case 'noTables':
        await this.report(tenant, undefined, noTablesCondition());
        return { kind: 'done' };
      case 'cancel':
        await this.cancel(tenant, ownPurge(tenant));
        return { kind: 'done' };
      case 'schedule':
      case 'wait':
        return this.schedule(tenant, decision, now);
      case 'start':
        return decision.fresh ? this.startWithinBudget(tenant, decision, now) : this.purge(tenant, decision);
    }
  }

  /** Not a Tenant sync made from a tenant table of the purger's: nothing is deleted, and it says why. */
  private async refuse(tenant: Tenant, mismatch: TableMismatch): Promise<void> {
    const condition = refusedCondition(mismatch, this.deps.policy.tenantTables);
    if (!(await this.report(tenant, undefined, condition))) return;
    this.deps.metrics.purgesTotal.inc({ result: 'refused' });
    this.announce(tenant, 'Warning', PURGER_EVENT.refused, condition.message);
  }

  /**
   * A new purge starts only while the hour's budget has room; the start is counted before the first
   * await, so two reconciles at once cannot both take the last slot. Over it: wait, and say so.
   */
  private async startWithinBudget(tenant: Tenant, decision: Start, now: Date): Promise<Outcome> {
    const { starts, policy, tenants } = this.deps;
    // The budget is this purger's: only Tenants of its own tenant tables count.
    const own = tenants().filter((t) => 'table' in fromTables(t, policy.tenantTables));
    const admission = admitPurge(starts.recent(own, now.getTime()), now.getTime(), policy.budgetPerHour);
    if (admission.admitted) {
      starts.record(tenant.metadata.uid ?? tenant.metadata.name!, now.getTime());
      return this.purge(tenant, decision);
    }
    const purge = { ...tenant.status!.purge!, startsAt: decision.startsAt };
    const condition = heldBackCondition(policy.budgetPerHour, new Date(admission.retryAt));
    if (await this.report(tenant, purge, condition)) {
      this.deps.metrics.purgesTotal.inc({ result: 'heldBack' });
      this.announce(tenant, 'Warning', PURGER_EVENT.heldBack, condition.message);
    }
    return { kind: 'requeueAfter', delayMs: Math.max(1_000, admission.retryAt - now.getTime()) };
  }

  /** Reports when deleting starts, and looks again then. Nothing is deleted before startsAt. */
  private async schedule(tenant: Tenant, decision: Scheduling, now: Date): Promise<Outcome> {
    const times = { scheduledAt: decision.scheduledAt, startsAt: decision.startsAt };
    // Waiting: the recorded purge, with startsAt as the delay configured now makes it.
    const purge =
      decision.kind === 'wait'
        ? { ...tenant.status!.purge!, startsAt: times.startsAt }
        : scheduledPurge(tenant, times, this.tableNames, this.deps.databases.of(tenant));
    const wrote = await this.report(tenant, purge, progressCondition(purge));
    if (wrote && decision.kind === 'schedule') {
      const delay = formatDuration(this.deps.policy.delayMs);
      this.announce(
        tenant,
        'Normal',
        PURGER_EVENT.scheduled,
        `data purge scheduled for ${times.startsAt} (delay ${delay})`,
      );
    }
    return { kind: 'requeueAfter', delayMs: Math.max(0, Date.parse(times.startsAt) - now.getTime()) };
  }

  /** Runs the purge to an end, or until the state changes, the Tenant goes or this replica stops. */
  private async purge(tenant: Tenant, times: Times): Promise<Outcome> {
    const name = tenant.metadata.name!;
    // Registered before the first await: from the decision on, a state change aborts this purge.
    const signal = this.deps.running.begin(name);
    const start = startedPurge(
      tenant,
      times,
      { tables: this.tableNames, databases: this.deps.databases.of(tenant) },
      new Date(),
    );
    const progress = new ProgressReporter(name, this.deps.writer, this.deps.logger);
    let end: RunEnd;
    try {
      this.announce(
        tenant,
        'Normal',
        PURGER_EVENT.started,
        startedMessage(totalDeleted(start), emptied(start)),
      );
      this.deps.metrics.purgesTotal.inc({ result: 'started' });
      await this.report(tenant, start, progressCondition(start));
      end = await runPurge(start, {
        tenant: name,
        tables: this.deps.policy.tables,
        engine: this.deps.engine,
        signal,
        dropDatabase: this.deps.databases.drop,
        onProgress: (purge, step) => {
          this.count(step);
          progress.update(purgerStatus(tenant, purge, progressCondition(purge), new Date()));
        },
      });
    } finally {
      this.deps.running.end(name);
      await progress.settle();
    }
    return this.finish(tenant, end, signal);
  }

  private async finish(tenant: Tenant, end: RunEnd, signal: AbortSignal): Promise<Outcome> {
    const now = new Date();
    switch (end.kind) {
      case 'completed': {
        const purge = endedPurge(end.purge, 'Completed', now);
        await this.report(tenant, purge, progressCondition(purge));
        this.deps.stalled.delete(tenant.metadata.name!);
        this.deps.metrics.purgesTotal.inc({ result: 'completed' });
        const message = `deleted ${totalDeleted(purge)} items from ${emptied(purge).join(', ')}`;
        this.announce(tenant, 'Normal', PURGER_EVENT.completed, message);
        return { kind: 'done' };
      }
      case 'failed':
        return this.failed(tenant, end);
      case 'aborted':
        return this.aborted(tenant, end.purge, signal);
    }
  }

  private async failed(tenant: Tenant, end: Extract<RunEnd, { kind: 'failed' }>): Promise<Outcome> {
    const purge = endedPurge(end.purge, 'Failed', new Date());
    const condition = failedCondition(end.table, end.error, !end.permanent);
    await this.report(tenant, purge, condition);
    this.deps.metrics.purgesTotal.inc({ result: 'failed' });
    this.announce(tenant, 'Warning', PURGER_EVENT.failed, condition.message);
    if (!end.permanent) return { kind: 'retry', error: end.error };
    this.deps.stalled.set(tenant.metadata.name!, tenant.metadata.generation);
    return { kind: 'stop' };
  }

  /** Stopped from outside: cancelled by the state, the Tenant going away, or a shutdown. */
  private async aborted(tenant: Tenant, purge: PurgeStatus, signal: AbortSignal): Promise<Outcome> {
    const reason = stopReason(signal);
    if (reason === STOP.deleted) return { kind: 'done' };
    if (reason === STOP.cancelled) {
      await this.cancel(this.deps.tenant(tenant.metadata.name!) ?? tenant, purge);
      return { kind: 'done' };
    }
    // Shutdown: Running stays in status with the counts so far; the next leader resumes from there.
    await this.deps.writer.apply(
      tenant.metadata.name!,
      purgerStatus(tenant, purge, progressCondition(purge), new Date()),
    );
    return { kind: 'done' };
  }

  /** The state left purged before the purge completed: what was deleted stays recorded. */
  private async cancel(tenant: Tenant, purge: PurgeStatus | undefined): Promise<void> {
    const now = new Date();
    const deleted = totalDeleted(purge);
    const ended = purge === undefined ? undefined : endedPurge(purge, 'Cancelled', now);
    const condition = cancelledCondition(tenant.spec?.state ?? 'active', deleted);
    await this.report(tenant, ended, condition);
    this.deps.metrics.purgesTotal.inc({ result: 'cancelled' });
    this.announce(tenant, 'Warning', PURGER_EVENT.cancelled, condition.message);
  }

  /** Writes status when it changed; true when it wrote. */
  private async report(
    tenant: Tenant,
    purge: PurgeStatus | undefined,
    condition: ConditionInput,
  ): Promise<boolean> {
    const written = await this.deps.writer.write(tenant, purgerStatus(tenant, purge, condition, new Date()));
    return written !== undefined;
  }

  private announce(tenant: Tenant, type: EventType, reason: string, message: string): void {
    this.deps.logger.log(type === 'Normal' ? 'info' : 'warn', message, {
      tenant: tenant.metadata.name,
      reason,
    });
    this.deps.events.record(tenant, type, reason, message);
  }

  private count(step: { table: string; deleted: number; throttled: number }): void {
    const { metrics } = this.deps;
    if (step.deleted > 0) metrics.purgeItemsDeletedTotal.inc({ table: step.table }, step.deleted);
    if (step.throttled > 0) metrics.purgeThrottledTotal.inc({ table: step.table }, step.throttled);
  }
}

/** The tables and databases a purge empties, as its Events name them. */
const emptied = (purge: PurgeStatus): string[] => [
  ...purge.tables.map((t) => t.table),
  ...(purge.databases ?? []).map(databaseLabel),
];

function startedMessage(before: number, tables: readonly string[]): string {
  const what = `deleting the tenant's data in ${tables.join(', ')}`;
  return before === 0 ? what : `${what}, resumed: ${before} items were deleted before`;
}
