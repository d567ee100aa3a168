// Kubernetes Events on Tenants, so `kubectl describe tenant` tells the story. Repeats of the same
// event are folded into one object with a count, as kubelet and the controllers do. Events are
// best effort and written in the background: a reconcile never waits for one (the benchmark
// showed those round trips in every new Tenant's first reconcile), and one that cannot be written
// is retried a few times, as client-go's recorder does, then logged and dropped: never a reason
// to fail a reconcile.
import { randomBytes } from 'node:crypto';
import type { V1ObjectMeta } from '@kubernetes/client-node';
import { backoffDelay, sleep } from '../../util/backoff.js';
import type { Logger } from '../logger.js';
import { redactText } from '../redact.js';
import { CONTENT_TYPE, isNotFound, isTransient, type KubeApi } from './api.js';
import { apiPath } from './paths.js';

export type EventType = 'Normal' | 'Warning';

export interface InvolvedObject {
  apiVersion: string;
  kind: string;
  metadata: V1ObjectMeta;
}

interface PendingEvent {
  type: EventType;
  reason: string;
  message: string;
  now: string;
}

interface Recorded {
  name: string;
  count: number;
  firstTimestamp: string;
}

const MAX_REMEMBERED = 10_000;
/** Events written at once; more wait their turn. */
const CONCURRENCY = 4;
/** Beyond this many waiting, new Normal Events are dropped (and counted in the log): an outage must not grow memory. */
const MAX_BACKLOG = 5_000;
/**
 * Warnings may wait beyond that, up to this many more: at 10,000 Tenants a cold start queues more
 * `Created` Events than the backlog holds, and a refusal must not be lost behind them.
 */
const WARNING_RESERVE = 1_000;

/** Whether an Event of this type may join a backlog of this many. */
export function admits(type: EventType, backlog: number): boolean {
  return backlog < (type === 'Warning' ? MAX_BACKLOG + WARNING_RESERVE : MAX_BACKLOG);
}
/** Tries per Event, with backoff between them: together about half a minute, an API server restart. */
const MAX_ATTEMPTS = 8;
const RETRY_BASE_MS = 500;
const RETRY_MAX_MS = 10_000;
/** How long shutdown waits for Events still queued; retries stop as soon as it starts. */
const FLUSH_TIMEOUT_MS = 5_000;

/** The API server only accepts Events about cluster-scoped objects (such as Tenants) in `default`. */
const CLUSTER_EVENTS_NAMESPACE = 'default';

/**
 * What an Event needs of its object. A waiting Event holds only this, not the object it was given:
 * with the API server busy thousands wait, and each whole Tenant (a version the cache has already
 * replaced) was an operator's heap running out at 10,000 tenants.
 */
function reference(object: InvolvedObject): InvolvedObject {
  const { name, namespace, uid, resourceVersion } = object.metadata;
  return {
    apiVersion: object.apiVersion,
    kind: object.kind,
    metadata: { name, namespace, uid, resourceVersion },
  };
}

const namespaceOf = (object: InvolvedObject): string => object.metadata.namespace ?? CLUSTER_EVENTS_NAMESPACE;

export class EventRecorder {
  private readonly recent = new Map<string, Recorded>();
  /** The last delivery per event key: repeats of one event are written in order, so the count folds. */
  private readonly chains = new Map<string, Promise<void>>();
  /** Writes waiting for a turn, Warnings first: they say what a person has to act on. */
  private readonly waiting = { Warning: [] as (() => void)[], Normal: [] as (() => void)[] };
  private running = 0;
  private backlog = 0;
  private dropped = 0;
  private readonly closing = new AbortController();

  constructor(
    private readonly api: KubeApi,
    private readonly component: string,
    private readonly logger: Logger,
  ) {}

  /** Queues the Event and returns at once. */
  record(object: InvolvedObject, type: EventType, reason: string, message: string): void {
    if (!admits(type, this.backlog)) {
      if (this.dropped++ % 1000 === 0)
        this.logger.warn('too many Events waiting; dropping', { dropped: this.dropped, type, reason });
      return;
    }
    const safeMessage = redactText(message).slice(0, 1024);
    const key = `${object.metadata.uid}/${type}/${reason}/${safeMessage}`;
    const now = new Date().toISOString();
    const involved = reference(object);
    this.backlog++;
    const chain = (this.chains.get(key) ?? Promise.resolve())
      .then(() => this.deliver(key, involved, { type, reason, message: safeMessage, now }))
      .finally(() => {
        this.backlog--;
        if (this.chains.get(key) === chain) this.chains.delete(key);
      });
    this.chains.set(key, chain);
  }

  /**
   * At shutdown: resolves once every queued Event has been written or given up on (no retries
   * from now on), or after `timeoutMs`, whichever comes first.
   */
  async flush(timeoutMs = FLUSH_TIMEOUT_MS): Promise<void> {
    this.closing.abort(new Error('shutting down'));
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), timeoutMs);
    });
    try {
      while (this.chains.size > 0) {
        if ((await Promise.race([Promise.all(this.chains.values()), deadline])) === 'timeout') {
          this.logger.warn('shutting down with Events unwritten', { events: this.chains.size });
          return;
        }
      }
    } finally {
      clearTimeout(timer);
    }
  }

  private async inTurn(type: EventType, work: () => Promise<void>): Promise<void> {
    if (this.running >= CONCURRENCY) await new Promise<void>((resolve) => this.waiting[type].push(resolve));
    this.running++;
    try {
      await work();
    } finally {
      this.running--;
      (this.waiting.Warning.shift() ?? this.waiting.Normal.shift())?.();
    }
  }

  private async deliver(key: string, object: InvolvedObject, e: PendingEvent): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        // Only the writes take turns: an Event waiting out its backoff holds no slot.
        await this.inTurn(e.type, () => this.write(key, object, e));
        return;
      } catch (err) {
        if (!(await this.mayRetry(err, attempt))) {
          this.recent.delete(key);
          this.logger.warn('could not record an event', {
            tenant: object.metadata.name,
            reason: e.reason,
            attempts: attempt,
            error: err,
          });
          return;
        }
      }
    }
  }

  /** A repeat bumps the count of the Event already written; once that one has expired, a new one starts. */
  private async write(key: string, object: InvolvedObject, e: PendingEvent): Promise<void> {
    const previous = this.recent.get(key);
    if (previous === undefined) return this.create(key, object, e);
    try {
      await this.bump(namespaceOf(object), previous, e.now);
    } catch (err) {
      if (!isNotFound(err)) throw err;
      this.recent.delete(key);
      await this.create(key, object, e);
    }
  }

  /** Waits out the backoff before the next try; false when the failure is final or shutdown began. */
  private async mayRetry(err: unknown, attempt: number): Promise<boolean> {
    if (!isTransient(err) || attempt >= MAX_ATTEMPTS || this.closing.signal.aborted) return false;
    try {
      await sleep(backoffDelay(attempt - 1, RETRY_BASE_MS, RETRY_MAX_MS, 0.2), this.closing.signal);
      return true;
    } catch {
      return false;
    }
  }

  private async create(key: string, object: InvolvedObject, e: PendingEvent): Promise<void> {
    const name = `${object.metadata.name ?? 'object'}.${randomBytes(8).toString('hex')}`;
    const namespace = namespaceOf(object);
    // Plain JSON: client-node's CoreV1Event types timestamps as Date, the wire carries strings.
    const body = {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name, namespace },
      involvedObject: {
        apiVersion: object.apiVersion,
        kind: object.kind,
        namespace: object.metadata.namespace,
        name: object.metadata.name,
        uid: object.metadata.uid,
        resourceVersion: object.metadata.resourceVersion,
      },
      type: e.type,
      reason: e.reason,
      message: e.message,
      source: { component: this.component },
      reportingComponent: this.component,
      reportingInstance: process.env.HOSTNAME ?? this.component,
      firstTimestamp: e.now,
      lastTimestamp: e.now,
      count: 1,
    };
    await this.api.request({
      method: 'POST',
      path: apiPath({ apiVersion: 'v1', kind: 'Event', namespace }),
      body,
    });
    if (this.recent.size >= MAX_REMEMBERED) this.recent.delete(this.recent.keys().next().value!);
    this.recent.set(key, { name, count: 1, firstTimestamp: e.now });
  }

  private async bump(namespace: string, previous: Recorded, now: string): Promise<void> {
    const count = previous.count + 1;
    await this.api.request({
      method: 'PATCH',
      path: apiPath({ apiVersion: 'v1', kind: 'Event', namespace, name: previous.name }),
      contentType: CONTENT_TYPE.merge,
      body: { count, lastTimestamp: now },
    });
    previous.count = count;
  }
}
