// One tenant at a time, run by the work queue: ask decide() what to do, do it, and ask again with
// what the write changed, until nothing is left. A row it needs and does not hold it reads again
// itself and records through the ledger, as intake does; it never hands work back upstream. A write
// that fails is retried by the queue with backoff, per tenant; a Tenant the API server refuses is
// reported on the Tenant instead of being retried, until the row changes.
import { ApiError, isConflict, isNotFound } from '../runtime/kube/api.js';
import type { EventRecorder } from '../runtime/kube/events.js';
import type { Logger } from '../runtime/logger.js';
import { API_VERSION, KIND, type Tenant } from '../api/tenant.js';
import { apiPath } from '../runtime/kube/paths.js';
import type { KubeApi } from '../runtime/kube/api.js';
import type { Outcome } from '../runtime/work-queue.js';
import type { SyncAction } from './decide.js';
import { describeError } from './dynamo/errors.js';
import type { Ledger } from './ledger.js';
import { EVENT_REASON, LOG, MESSAGE } from './reasons.js';
import { parseRow } from './row/index.js';
import type { TableSource } from './dynamo/table-source.js';
import type { TenantWriter } from './tenant-writer.js';

export interface ReconcilerDeps {
  ledger: Ledger;
  writer: TenantWriter;
  api: KubeApi;
  source: Pick<TableSource, 'read'>;
  events: EventRecorder;
  logger: Logger;
  /** Aborts the reads of in-flight reconciles at shutdown. */
  signal: AbortSignal;
}

type ApplyStatus = Extract<SyncAction, { kind: 'applyStatus' }>;

/** The longest path is a re-read, a rejected apply, a bare create and the status; a bound, not a goal. */
const MAX_STEPS = 6;

const DONE: Outcome = { kind: 'done' };

/** The API server refused the object itself: retrying the same content cannot succeed. */
const isRejection = (err: unknown): err is ApiError =>
  err instanceof ApiError && (err.status === 400 || err.status === 422);

export class Reconciler {
  constructor(private readonly deps: ReconcilerDeps) {}

  async reconcile(name: string): Promise<Outcome> {
    try {
      await this.converge(name);
      return DONE;
    } catch (error) {
      if (!this.deps.signal.aborted) {
        this.deps.logger.warn(LOG.writeFailed, { tenant: name, error: describeError(error) });
      }
      return { kind: 'retry', error };
    }
  }

  /** Decide, act, and decide again with what the write changed, until nothing is left to do. */
  private async converge(name: string): Promise<void> {
    let reread = false;
    for (let step = 0; step < MAX_STEPS; step++) {
      const action = this.deps.ledger.next(name);
      if (action.kind === 'applySpec' && !this.holdsSpec(name, action.hash)) {
        // Not kept (written before, then the Tenant was deleted or edited): read the row again,
        // once per reconcile; a second miss waits for the next trigger.
        if (reread) return;
        reread = true;
        await this.reread(name);
      } else if (!(await this.act(name, action))) return;
    }
  }

  /** Makes the action's write; true when decide() is to be asked again about what it changed. */
  private async act(name: string, action: SyncAction): Promise<boolean> {
    switch (action.kind) {
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
        await this.deleteTenant(name, LOG.deletedByRow, {});
        return false;
      case 'confirmGone':
        return this.confirmGone(name, action.pass);
      case 'awaitApproval':
      case 'nothing':
        return false;
    }
  }

  private holdsSpec(name: string, hash: string): boolean {
    return this.deps.ledger.book.spec(name, hash) !== undefined;
  }

  private async applySpec(name: string, hash: string): Promise<void> {
    const { book, view, identity } = this.deps.ledger;
    const spec = book.spec(name, hash)!;
    const before = view.get(name);
    let tenant: Tenant;
    try {
      tenant = await this.deps.writer.apply(name, spec, hash);
    } catch (err) {
      if (!isRejection(err)) throw err;
      book.reject(name, hash, MESSAGE.applyRejected(err.message));
      this.deps.logger.error(LOG.rejected, { tenant: name, rowHash: hash, error: err.message });
      return;
    }
    view.remember(tenant);
    book.applied(name, hash, tenant.metadata.generation);
    const created = before === undefined;
    this.deps.logger.info(created ? LOG.created : LOG.updated, { tenant: name, rowHash: hash });
    const message = created ? MESSAGE.created(identity.table, hash) : MESSAGE.updated(identity.table, hash);
    this.deps.events.record(tenant, 'Normal', created ? EVENT_REASON.created : EVENT_REASON.updated, message);
  }

  private async createBare(name: string): Promise<void> {
    let tenant: Tenant;
    try {
      tenant = await this.deps.writer.createBare(name);
    } catch (err) {
      if (!isConflict(err)) throw err;
      // It exists without sync's labels (the cache only holds labelled Tenants): report on it as it is.
      tenant = await this.deps.api.request<Tenant>({
        method: 'GET',
        path: apiPath({ apiVersion: API_VERSION, kind: KIND, name }),
      });
    }
    this.deps.ledger.view.remember(tenant);
  }

  /** Writes the Synced condition and status.sync; reports a refusal once per status change. */
  private async writeStatus(name: string, { status, verdict }: ApplyStatus): Promise<void> {
    const { book, view } = this.deps.ledger;
    const updated = await this.deps.writer.applyStatus(name, status);
    view.remember(updated);
    if (verdict.kind === 'synced') return;
    // A status write happens only when the problem changed: one log line and one Event per problem.
    const row = book.get(name);
    const attribute = row?.kind === 'invalid' ? row.attribute : undefined;
    this.deps.logger.warn(LOG.refused, { tenant: name, attribute, problem: verdict.message });
    const reason = verdict.kind === 'invalid' ? EVENT_REASON.invalidRecord : EVENT_REASON.applyRejected;
    this.deps.events.record(updated, 'Warning', reason, verdict.message);
  }

  /** The guard approved deleting the Tenant of a gone row: delete it unless the row is back. */
  private async confirmGone(name: string, pass: number): Promise<boolean> {
    const found = await this.reread(name);
    // Back (or never gone): a row that exists is synced, never pruned.
    if (found !== 'gone') return found === 'recorded';
    await this.deleteTenant(name, LOG.deletedGone, { pass });
    return false;
  }

  private async deleteTenant(name: string, message: string, meta: Record<string, unknown>): Promise<void> {
    const { book, view } = this.deps.ledger;
    const uid = view.get(name)?.metadata.uid;
    if (uid !== undefined) {
      try {
        await this.deps.writer.delete(name, uid);
      } catch (err) {
        if (!isNotFound(err)) throw err;
      }
      view.forget(name, uid);
      this.deps.logger.info(message, { tenant: name, ...meta });
    }
    book.unapprove(name);
  }

  /**
   * Reads the row again (strongly consistent) and records it as intake would. A row gone since is
   * forgotten: the stream's REMOVE or the next scan prunes it, through the guard.
   */
  private async reread(name: string): Promise<'recorded' | 'gone' | 'unusable'> {
    const item = await this.deps.source.read(name, this.deps.signal);
    if (item === undefined) {
      this.deps.ledger.book.forget(name);
      return 'gone';
    }
    const row = parseRow(item);
    if (row.name === undefined) return 'unusable';
    this.deps.ledger.record({ ...row, name: row.name });
    return 'recorded';
  }
}
