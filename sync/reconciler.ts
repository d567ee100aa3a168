// One tenant at a time, run by the work queue: ask decide() what to do, do it, and ask again with
// what the write changed, until nothing is left. It talks to the ledger (what sync knows) and to
// Kubernetes, never to DynamoDB: a row it needs and does not hold, it asks intake to read again,
// which records it in the ledger as any read; it never hands work back upstream. A write that fails is retried by
// the queue with backoff, per tenant; a Tenant the API server refuses is reported on the Tenant
// instead of being retried, until the row changes. A Tenant sync did not make from its own table is
// only ever read and reported on (log, metric, Event), never written to.
import { ApiError, isConflict, isNotFound } from '../runtime/kube/api.js';
import type { EventRecorder } from '../runtime/kube/events.js';
import type { Logger } from '../runtime/logger.js';
import type { Metrics } from '../runtime/metrics.js';
import { API_VERSION, KIND, type Tenant } from '../api/tenant.js';
import { apiPath } from '../runtime/kube/paths.js';
import type { KubeApi } from '../runtime/kube/api.js';
import type { TenantStatusWriter } from '../runtime/kube/tenant-status-writer.js';
import type { Outcome } from '../runtime/work-queue.js';
import type { Conflict, SyncAction } from './decide.js';
import type { RevisionRecorder } from './history/recorder.js';
import type { RevisionDraft } from '../api/revision.js';
import { owns } from './identity.js';
import { describeError } from './dynamo/errors.js';
import type { Intake } from './intake.js';
import type { Ledger } from './ledger.js';
import { SYNC_EVENT, SYNC_LOG, SYNC_MESSAGE } from './reasons.js';
import type { OwnedStatus } from './status.js';
import type { TenantWriter } from './tenant-writer.js';

export interface ReconcilerDeps {
  ledger: Ledger;
  writer: TenantWriter;
  /** The Synced condition and status.sync; tells the ledger's Tenant cache what it wrote. */
  statusWriter: TenantStatusWriter<OwnedStatus>;
  api: KubeApi;
  /** Keeps each spec applied as a revision of its Tenant. */
  history: Pick<RevisionRecorder, 'record'>;
  /** Reads a row again and records it, when the ledger does not hold what a write needs. */
  intake: Pick<Intake, 'reread'>;
  events: EventRecorder;
  logger: Logger;
  metrics: Metrics;
  /** Aborts the reads of in-flight reconciles at shutdown. */
  signal: AbortSignal;
}

type ApplyStatus = Extract<SyncAction, { kind: 'applyStatus' }>;

/**
 * The longest path is an owed revision, a re-read, a rejected apply, a bare create and the status;
 * a bound, not a goal.
 */
const MAX_STEPS = 7;

const DONE: Outcome = { kind: 'done' };

/** How long a spec whose apply timed out twice waits, unless its row changes first. */
const PARK_AFTER_TIMEOUTS_MS = 15 * 60_000;

/** The request outlived the client's timeout, or the API server gave up on it (504). */
const isTimeout = (err: unknown): boolean =>
  (err instanceof Error && err.name === 'TimeoutError') || (err instanceof ApiError && err.status === 504);

/** The API server refused the object itself: retrying the same content cannot succeed. */
const isRejection = (err: unknown): err is ApiError =>
  err instanceof ApiError && (err.status === 400 || err.status === 422);

export class Reconciler {
  constructor(private readonly deps: ReconcilerDeps) {}

  async reconcile(name: string): Promise<Outcome> {
    try {
      await this.converge(name);
      // A revision that could not be written is tried again with the tenant's backoff, at the start
      // of its next reconcile (decide.ts); it never holds up the Tenant's own writes.
      return this.deps.ledger.revisionDebts.owed(name) === undefined ? DONE : { kind: 'retry' };
    } catch (error) {
      if (!this.deps.signal.aborted) {
        this.deps.logger.warn(SYNC_LOG.writeFailed, { tenant: name, error: describeError(error) });
      }
      return { kind: 'retry', error };
    }
  }

  /** Decide, act, and decide again with what the write changed, until nothing is left to do. */
  private async converge(name: string): Promise<void> {
    let reread = false;
    for (let step = 0; step < MAX_STEPS; step++) {
      const action = this.deps.ledger.next(name, { reconcileStart: step === 0 });
      if (action.kind === 'applySpec' && !this.holdsSpec(name, action.hash)) {
        // Not kept (written before, then the Tenant was deleted or edited): read the row again,
        // once per reconcile; a second miss waits for the next trigger.
        if (reread) return;
        reread = true;
        await this.deps.intake.reread(name, this.deps.signal);
      } else if (!(await this.act(name, action))) return;
    }
  }

  /** Makes the action's write; true when decide() is to be asked again about what it changed. */
  private async act(name: string, action: SyncAction): Promise<boolean> {
    switch (action.kind) {
      case 'writeRevision':
        await this.writeOwedRevision(name);
        return true;
      case 'forgetRevision':
        this.deps.ledger.revisionDebts.paid(name);
        return true;
      case 'applySpec':
        await this.applySpec(name, action.hash);
        return true;
      case 'createBare':
        await this.createBare(name);
        return true;
      case 'applyStatus':
        // The last write: asking again could only find the status just written.
        await this.writeStatus(name, action);
        return false;
      case 'delete':
        return this.deleteTenant(name, action.pass, SYNC_LOG.deletedByRow);
      case 'reportForeign':
        this.reportForeign(name, action.conflict);
        return false;
      case 'confirmGone':
        return this.confirmGone(name, action.pass);
      case 'awaitApproval':
      case 'nothing':
        return false;
    }
  }

  private holdsSpec(name: string, hash: string): boolean {
    return this.deps.ledger.specToWrite(name, hash) !== undefined;
  }

  private async applySpec(name: string, hash: string): Promise<void> {
    const { view } = this.deps.ledger;
    const draft = this.deps.ledger.draftToWrite(name, hash)!;
    const { spec } = draft;
    const before = view.get(name);
    let tenant: Tenant;
    try {
      // decide() asks for an apply only to a Tenant of this table's, or to none it knows of.
      tenant =
        before === undefined
          ? await this.deps.writer.create(name, spec, hash)
          : await this.deps.writer.apply(name, spec, hash, before);
    } catch (err) {
      if (isTimeout(err)) this.timedOut(name, hash);
      if (!isRejection(err)) return this.notApplied(name, before, err);
      this.deps.ledger.specRejected(name, hash, SYNC_MESSAGE.applyRejected(err.message));
      this.deps.logger.error(SYNC_LOG.rejected, { tenant: name, rowHash: hash, error: err.message });
      return;
    }
    view.wrote(tenant);
    const approval = this.deps.ledger.takedownApproval(name);
    this.deps.ledger.specApplied(name, hash, tenant.metadata.generation);
    if (approval !== undefined) {
      // Only a takedown by state (archived, purged) waits for an approval before its apply.
      this.deps.logger.info(SYNC_LOG.takenDown, {
        tenant: name,
        rowHash: hash,
        pass: approval,
        state: spec.state,
      });
      return;
    }
    // No Normal Event: the operator announces what the new spec changed (Created/Updated naming the
    // children), and the row hash and time of this write are in status.sync; one write per tenant less.
    this.deps.logger.info(before === undefined ? SYNC_LOG.created : SYNC_LOG.updated, {
      tenant: name,
      rowHash: hash,
    });
    await this.recordRevision(tenant, draft, before === undefined);
  }

  /**
   * Keeps the spec just applied as the Tenant's newest revision. One that cannot be written is owed
   * (the Tenant already holds the spec, so no later decide() would ask for it again, and the history
   * would skip it), logged, and tried again; history never stops a tenant from syncing.
   */
  private async recordRevision(tenant: Tenant, draft: RevisionDraft, created = false): Promise<void> {
    const name = tenant.metadata.name!;
    try {
      const recorded = await this.deps.history.record(tenant, draft, created);
      if (recorded.kind === 'off') return this.deps.ledger.revisionDebts.paid(name);
      // The status names the newest revision, for the next record() to start from.
      const named = tenant.status?.sync?.revision === recorded.newest.revision;
      this.deps.ledger.revisionDebts.paid(
        name,
        named ? undefined : { uid: tenant.metadata.uid!, ...recorded.newest },
      );
      if (recorded.kind === 'written') {
        this.deps.logger.debug(SYNC_LOG.revisionRecorded, {
          tenant: name,
          revision: recorded.newest.revision,
        });
      }
    } catch (err) {
      this.deps.ledger.revisionDebts.owe(name, tenant.metadata.uid!, draft);
      if (!this.deps.signal.aborted) {
        this.deps.logger.warn(SYNC_LOG.revisionFailed, { tenant: name, error: describeError(err) });
      }
    }
  }

  /** The revision an earlier reconcile owed; decide() found its Tenant still there. */
  private async writeOwedRevision(name: string): Promise<void> {
    const { view, revisionDebts } = this.deps.ledger;
    await this.recordRevision(view.get(name)!, revisionDebts.owed(name)!.draft);
  }

  /**
   * The API server did not answer in time, perhaps after validating and storing the write. The
   * queue's backoff covers one timeout; the same spec timing out twice is parked, so a row the API
   * server chokes on is not resent unchanged in a loop.
   */
  private timedOut(name: string, hash: string): void {
    const until = this.deps.ledger.specTimedOut(name, hash, PARK_AFTER_TIMEOUTS_MS);
    if (until === undefined) return;
    this.deps.logger.warn(SYNC_LOG.writeParked, {
      tenant: name,
      rowHash: hash,
      retryInMs: PARK_AFTER_TIMEOUTS_MS,
    });
  }

  /** An apply that made nothing: a Tenant of that name turned up (read it, decide again), or a failure. */
  private async notApplied(name: string, before: Tenant | undefined, err: unknown): Promise<void> {
    if (before !== undefined || !isConflict(err)) throw err;
    await this.fetch(name);
  }

  private async createBare(name: string): Promise<void> {
    try {
      this.deps.ledger.view.wrote(await this.deps.writer.createBare(name));
    } catch (err) {
      if (!isConflict(err)) throw err;
      await this.fetch(name);
    }
  }

  /**
   * A Tenant the cache did not hold yet was there after all: read it, so that decide() sees whose it
   * is (most often someone else's: then it is reported, not written to).
   */
  private async fetch(name: string): Promise<Tenant | undefined> {
    try {
      const tenant = await this.deps.api.request<Tenant>({
        method: 'GET',
        path: apiPath({ apiVersion: API_VERSION, kind: KIND, name }),
      });
      this.deps.ledger.view.wrote(tenant);
      return tenant;
    } catch (err) {
      if (!isNotFound(err)) throw err;
      return undefined;
    }
  }

  /** The row names a Tenant this sync did not make from its table: say so once, touch nothing. */
  private reportForeign(name: string, conflict: Conflict): void {
    const { view, identity } = this.deps.ledger;
    const tenant = view.get(name);
    this.deps.ledger.conflictReported(name, conflict.key);
    this.deps.metrics.syncNotOwnedTotal.inc({ cause: conflict.cause });
    this.deps.logger.warn(SYNC_LOG.notOwned, {
      tenant: name,
      cause: conflict.cause,
      ...(conflict.otherTable === undefined ? {} : { otherTable: conflict.otherTable }),
    });
    const message = SYNC_MESSAGE.notOwned(identity.table, conflict.cause, conflict.otherTable);
    if (tenant !== undefined) this.deps.events.record(tenant, 'Warning', SYNC_EVENT.notOwned, message);
  }

  /** Writes the Synced condition and status.sync; reports a refusal once per status change. */
  private async writeStatus(name: string, { status, verdict }: ApplyStatus): Promise<void> {
    const { view } = this.deps.ledger;
    // decide() found the Tenant (a status is never its first write) saying something else.
    const updated = await this.deps.statusWriter.write(view.get(name)!, status);
    if (updated === undefined) return;
    this.deps.ledger.revisionDebts.named(name, status.sync.revision);
    this.deps.metrics.syncWritesTotal.inc({ kind: 'status' });
    // A held-back takedown is announced by the takedown approver (log, Event, metric), once per hold.
    if (verdict.kind === 'synced' || verdict.kind === 'heldBack') return;
    // A status write happens only when the problem changed: one log line and one Event per problem.
    const attribute = this.deps.ledger.invalidAttribute(name);
    this.deps.logger.warn(SYNC_LOG.refused, { tenant: name, attribute, problem: verdict.message });
    const reason = verdict.kind === 'invalid' ? SYNC_EVENT.invalidRecord : SYNC_EVENT.applyRejected;
    this.deps.events.record(updated, 'Warning', reason, verdict.message);
  }

  /** The takedown budget approved deleting the Tenant of a gone row: delete it unless the row is back. */
  private async confirmGone(name: string, pass: number): Promise<boolean> {
    const found = await this.deps.intake.reread(name, this.deps.signal);
    // Back (or never gone): a row that exists is synced, never taken down.
    if (found !== 'gone') return found === 'recorded';
    return this.deleteTenant(name, pass, SYNC_LOG.deletedGone);
  }

  /**
   * Deletes the Tenant if, read afresh, it is still this table's; the delete's preconditions make it
   * that very object (one changed meanwhile fails with 409 and is retried, read again). Returns true
   * when it turned out not to be this table's: decide() then reports it.
   */
  private async deleteTenant(name: string, pass: number, message: string): Promise<boolean> {
    const { view, identity } = this.deps.ledger;
    const cached = view.get(name);
    const tenant = cached === undefined ? undefined : await this.fetch(name);
    this.deps.ledger.spendApproval(name);
    if (tenant !== undefined && !owns(tenant, identity)) return true;
    if (tenant !== undefined) {
      try {
        await this.deps.writer.delete(tenant);
      } catch (err) {
        if (isNotFound(err)) return this.deleted(name, tenant);
        this.deps.ledger.approveTakedown(name, pass);
        throw err;
      }
      this.deps.logger.info(message, { tenant: name, pass });
    }
    return cached === undefined ? false : this.deleted(name, tenant ?? cached);
  }

  private deleted(name: string, tenant: Tenant): false {
    this.deps.ledger.view.deleted(name, tenant.metadata.uid!);
    return false;
  }
}
