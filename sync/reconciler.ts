// One tenant at a time, run by the work queue: compares what the row book says with the Tenant as
// cached, and makes the few writes that close the gap. A write that fails is retried by the queue
// with backoff, per tenant; a Tenant the API server refuses is reported on the Tenant instead of
// being retried, until the row changes.
import { ApiError, isConflict, isNotFound } from '../runtime/kube/api.js';
import type { EventRecorder } from '../runtime/kube/events.js';
import type { Logger } from '../runtime/logger.js';
import { API_VERSION, KIND, type Tenant } from '../api/tenant.js';
import { apiPath } from '../runtime/kube/paths.js';
import type { KubeApi } from '../runtime/kube/api.js';
import type { Outcome } from '../runtime/work-queue.js';
import { specCurrent } from './decide.js';
import { describeError } from './dynamo/errors.js';
import type { TableIdentity } from './identity.js';
import type { Intake } from './intake.js';
import { EVENT_REASON, LOG, MESSAGE } from './reasons.js';
import type { RowBook } from './row-book.js';
import { desiredStatus, statusCurrent, type Verdict } from './status.js';
import type { TableSource } from './dynamo/table-source.js';
import type { TenantView } from './tenant-view.js';
import type { TenantWriter } from './tenant-writer.js';

export interface ReconcilerDeps {
  book: RowBook;
  view: TenantView;
  writer: TenantWriter;
  api: KubeApi;
  source: Pick<TableSource, 'read'>;
  intake: Pick<Intake, 'accept'>;
  events: EventRecorder;
  logger: Logger;
  identity: TableIdentity;
  /** Aborts the reads of in-flight reconciles at shutdown. */
  signal: AbortSignal;
}

const DONE: Outcome = { kind: 'done' };

/** The API server refused the object itself: retrying the same content cannot succeed. */
const isRejection = (err: unknown): err is ApiError =>
  err instanceof ApiError && (err.status === 400 || err.status === 422);

export class Reconciler {
  constructor(private readonly deps: ReconcilerDeps) {}

  async reconcile(name: string): Promise<Outcome> {
    const row = this.deps.book.get(name);
    try {
      if (row === undefined) return await this.reconcileGone(name);
      if (row.kind === 'deleted') return await this.deleteTenant(name, LOG.deletedByRow, {});
      return await this.reconcileRow(name);
    } catch (error) {
      if (!this.deps.signal.aborted) {
        this.deps.logger.warn(LOG.writeFailed, { tenant: name, error: describeError(error) });
      }
      return { kind: 'retry', error };
    }
  }

  private async reconcileRow(name: string): Promise<Outcome> {
    const { book, view, identity } = this.deps;
    let tenant = view.get(name);
    const verdict = book.verdict(name);
    if (verdict?.kind === 'synced' && specCurrent(tenant, verdict.hash, identity)) {
      book.written(name, verdict.hash);
    } else if (verdict?.kind === 'synced') {
      const spec = book.spec(name, verdict.hash);
      // Not kept (written before, then the Tenant was deleted or edited): read the row again.
      if (spec === undefined) return this.reread(name);
      tenant = (await this.applySpec(name, verdict.hash, spec, tenant)) ?? tenant;
    }
    // Applying may have turned the verdict into a rejection.
    const final = book.verdict(name);
    if (final === undefined) return DONE;
    tenant ??= await this.createBare(name);
    await this.writeStatus(name, final, tenant);
    return DONE;
  }

  /** Returns the applied Tenant, or undefined when the API server rejected it. */
  private async applySpec(
    name: string,
    hash: string,
    spec: NonNullable<ReturnType<RowBook['spec']>>,
    before: Tenant | undefined,
  ): Promise<Tenant | undefined> {
    const { book, view, writer, identity, logger } = this.deps;
    let tenant: Tenant;
    try {
      tenant = await writer.apply(name, spec, hash);
    } catch (err) {
      if (!isRejection(err)) throw err;
      book.reject(name, hash, MESSAGE.applyRejected(err.message));
      logger.error(LOG.rejected, { tenant: name, rowHash: hash, error: err.message });
      return undefined;
    }
    view.remember(tenant);
    book.written(name, hash);
    const created = before === undefined;
    logger.info(created ? LOG.created : LOG.updated, { tenant: name, rowHash: hash });
    const message = created ? MESSAGE.created(identity.table, hash) : MESSAGE.updated(identity.table, hash);
    this.deps.events.record(tenant, 'Normal', created ? EVENT_REASON.created : EVENT_REASON.updated, message);
    return tenant;
  }

  private async createBare(name: string): Promise<Tenant> {
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
    this.deps.view.remember(tenant);
    return tenant;
  }

  /** Writes the Synced condition and status.sync when they differ; reports refusals once each. */
  private async writeStatus(name: string, verdict: Verdict, tenant: Tenant): Promise<void> {
    const desired = desiredStatus(verdict, tenant, this.deps.identity.table, new Date());
    if (statusCurrent(tenant, desired)) return;
    const updated = await this.deps.writer.applyStatus(name, desired);
    this.deps.view.remember(updated);
    if (verdict.kind === 'synced') return;
    // A status write happens only when the problem changed: one log line and one Event per problem.
    const row = this.deps.book.get(name);
    const attribute = row?.kind === 'invalid' ? row.attribute : undefined;
    this.deps.logger.warn(LOG.refused, { tenant: name, attribute, problem: verdict.message });
    const reason = verdict.kind === 'invalid' ? EVENT_REASON.invalidRecord : EVENT_REASON.applyRejected;
    this.deps.events.record(updated, 'Warning', reason, verdict.message);
  }

  /** The row is not in the book: delete its Tenant if the guard approved and the row is really gone. */
  private async reconcileGone(name: string): Promise<Outcome> {
    const pass = this.deps.book.approval(name);
    if (pass === undefined) return DONE;
    const item = await this.deps.source.read(name, this.deps.signal);
    if (item !== undefined) {
      // Back (or never gone): a row that exists is synced, never pruned.
      this.deps.intake.accept(item);
      return DONE;
    }
    return this.deleteTenant(name, LOG.deletedGone, { pass });
  }

  private async deleteTenant(name: string, message: string, meta: Record<string, unknown>): Promise<Outcome> {
    const { book, view, writer, logger } = this.deps;
    const tenant = view.get(name);
    const uid = tenant?.metadata.uid;
    if (uid !== undefined) {
      try {
        await writer.delete(name, uid);
      } catch (err) {
        if (!isNotFound(err)) throw err;
      }
      view.forget(name, uid);
      logger.info(message, { tenant: name, ...meta });
    }
    book.unapprove(name);
    return DONE;
  }

  private async reread(name: string): Promise<Outcome> {
    const item = await this.deps.source.read(name, this.deps.signal);
    // Gone since: the stream's REMOVE or the next scan prunes it, through the guard.
    if (item === undefined) this.deps.book.forget(name);
    else this.deps.intake.accept(item);
    return DONE;
  }
}
