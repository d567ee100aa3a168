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

/** The Event's `involvedObject`: all a waiting Event keeps of its object. */
interface Reference {
  apiVersion: string;
  kind: string;
  namespace: string | undefined;
  name: string | undefined;
  uid: string | undefined;
  resourceVersion: string | undefined;
}

/**
 * One write waiting or under way, with the occurrences folded into it. A plain record in a queue,
 * not a chain of promises: in a cold start of 20,000 Tenants thousands of `Created` Events wait
 * for the API server, and as promise chains each held ~2.4 KB of the operator's heap.
 */
interface Pending {
  readonly key: string;
  readonly involved: Reference;
  readonly type: EventType;
  readonly reason: string;
  readonly message: string;
  /** When the first occurrence folded into this write happened, and the newest. */
  readonly first: string;
  last: string;
  /** What this write adds to the Event's count. */
  occurrences: number;
  attempt: number;
}

/** An Event written, which a repeat bumps: its name and count are all the bump needs. */
interface Recorded {
  name: string;
  count: number;
}

/**
 * Written Events remembered so that a repeat bumps its count, least recently repeated forgotten
 * first (as client-go's correlator does, with the same 4,096). A repeat comes while its cause
 * lasts: a refusal re-reconciled, not a Tenant created an hour ago. Each entry keeps its key (the
 * message included), so at 10,000 the map was ~4.5 MiB of the operator's heap after a cold start
 * of 20,000 Tenants, for Events that never repeat.
 */
const MAX_REMEMBERED = 4_096;
/** Events written at once; more wait their turn. */
const CONCURRENCY = 4;
/**
 * Beyond this many Events waiting, new Normal ones are dropped (and counted in the log): an outage
 * must not grow memory without bound. Sized for a cold start of 20,000 Tenants, which queues a
 * `Created` Event for most of them while the API server is the bottleneck; a repeat of a waiting
 * Event is folded into it and takes no room.
 */
const MAX_BACKLOG = 20_000;
/** Warnings may wait beyond that, up to this many more: a refusal must not be lost behind the `Created` Events. */
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
function reference(object: InvolvedObject): Reference {
  const { name, namespace, uid, resourceVersion } = object.metadata;
  return { apiVersion: object.apiVersion, kind: object.kind, namespace, name, uid, resourceVersion };
}

const namespaceOf = (involved: Reference): string => involved.namespace ?? CLUSTER_EVENTS_NAMESPACE;

export class EventRecorder {
  private readonly recent = new Map<string, Recorded>();
  /** Writes waiting for a turn, Warnings first: they say what a person has to act on. */
  private readonly waiting = { Warning: [] as Pending[], Normal: [] as Pending[] };
  /** The waiting writes by key: a repeat folds into one (adds to its count) instead of queueing again. */
  private readonly waitingByKey = new Map<string, Pending>();
  /**
   * Keys whose write is running or waiting out a retry, each with the repeat recorded meanwhile:
   * repeats of one Event are written one after the other, so the count folds into one object.
   */
  private readonly busy = new Map<string, Pending | undefined>();
  private running = 0;
  /** Writes not yet done or given up: waiting, running, retrying, or waiting for their key. */
  private backlog = 0;
  private dropped = 0;
  private idle: (() => void)[] = [];
  private readonly closing = new AbortController();

  constructor(
    private readonly api: KubeApi,
    private readonly component: string,
    private readonly logger: Logger,
  ) {}

  /** Queues the Event and returns at once. */
  record(object: InvolvedObject, type: EventType, reason: string, message: string): void {
    const safeMessage = redactText(message).slice(0, 1024);
    const key = `${object.metadata.uid}/${type}/${reason}/${safeMessage}`;
    const now = new Date().toISOString();
    const waiting = this.waitingByKey.get(key) ?? this.busy.get(key);
    if (waiting !== undefined) {
      waiting.occurrences++;
      waiting.last = now;
      return;
    }
    if (!admits(type, this.backlog)) {
      if (this.dropped++ % 1000 === 0)
        this.logger.warn('too many Events waiting; dropping', { dropped: this.dropped, type, reason });
      return;
    }
    const involved = reference(object);
    const pending = {
      key,
      involved,
      type,
      reason,
      message: safeMessage,
      first: now,
      last: now,
      occurrences: 1,
      attempt: 1,
    };
    this.backlog++;
    if (this.busy.has(key)) this.busy.set(key, pending);
    else this.enqueue(pending);
    this.pump();
  }

  /**
   * At shutdown: resolves once every queued Event has been written or given up on (no retries
   * from now on), or after `timeoutMs`, whichever comes first.
   */
  async flush(timeoutMs = FLUSH_TIMEOUT_MS): Promise<void> {
    this.closing.abort(new Error('shutting down'));
    if (this.backlog === 0) return;
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), timeoutMs);
    });
    const done = new Promise<'done'>((resolve) => this.idle.push(() => resolve('done')));
    try {
      if ((await Promise.race([done, deadline])) === 'timeout')
        this.logger.warn('shutting down with Events unwritten', { events: this.backlog });
    } finally {
      clearTimeout(timer);
    }
  }

  private enqueue(pending: Pending): void {
    this.waitingByKey.set(pending.key, pending);
    this.waiting[pending.type].push(pending);
  }

  /** Starts waiting writes while a turn is free. */
  private pump(): void {
    while (this.running < CONCURRENCY) {
      const next = this.waiting.Warning.shift() ?? this.waiting.Normal.shift();
      if (next === undefined) return;
      this.waitingByKey.delete(next.key);
      if (!this.busy.has(next.key)) this.busy.set(next.key, undefined);
      this.running++;
      void this.run(next);
    }
  }

  private async run(pending: Pending): Promise<void> {
    const failure = await this.write(pending).then(
      () => undefined,
      (err: unknown) => ({ err }),
    );
    this.running--;
    // Only the writes take turns: an Event waiting out its backoff holds no slot.
    this.pump();
    if (failure === undefined) this.finish(pending);
    else await this.failed(pending, failure.err);
    this.pump();
  }

  private async failed(pending: Pending, err: unknown): Promise<void> {
    if (await this.mayRetry(err, pending.attempt)) {
      pending.attempt++;
      this.enqueue(pending);
      return;
    }
    this.recent.delete(pending.key);
    this.logger.warn('could not record an event', {
      tenant: pending.involved.name,
      reason: pending.reason,
      attempts: pending.attempt,
      error: err,
    });
    this.finish(pending);
  }

  /** The write is done or given up on: the repeat that waited for it takes its turn. */
  private finish(pending: Pending): void {
    this.backlog--;
    const repeat = this.busy.get(pending.key);
    this.busy.delete(pending.key);
    if (repeat !== undefined) this.enqueue(repeat);
    if (this.backlog === 0) this.idle.splice(0).forEach((resolve) => resolve());
  }

  /** A repeat bumps the count of the Event already written; once that one has expired, a new one starts. */
  private async write(pending: Pending): Promise<void> {
    const previous = this.recent.get(pending.key);
    if (previous === undefined) return this.create(pending);
    try {
      await this.bump(pending, previous);
    } catch (err) {
      if (!isNotFound(err)) throw err;
      this.recent.delete(pending.key);
      await this.create(pending);
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

  private async create(pending: Pending): Promise<void> {
    const { involved } = pending;
    const name = `${involved.name ?? 'object'}.${randomBytes(8).toString('hex')}`;
    const namespace = namespaceOf(involved);
    // Plain JSON: client-node's CoreV1Event types timestamps as Date, the wire carries strings.
    const body = {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name, namespace },
      involvedObject: involved,
      type: pending.type,
      reason: pending.reason,
      message: pending.message,
      source: { component: this.component },
      reportingComponent: this.component,
      reportingInstance: process.env.HOSTNAME ?? this.component,
      firstTimestamp: pending.first,
      lastTimestamp: pending.last,
      count: pending.occurrences,
    };
    await this.api.request({
      method: 'POST',
      path: apiPath({ apiVersion: 'v1', kind: 'Event', namespace }),
      body,
    });
    this.remember(pending.key, { name, count: pending.occurrences });
  }

  /** At the map's end: its order is the order of the last writes, its front the first to forget. */
  private remember(key: string, recorded: Recorded): void {
    this.recent.delete(key);
    if (this.recent.size >= MAX_REMEMBERED) this.recent.delete(this.recent.keys().next().value!);
    this.recent.set(key, recorded);
  }

  private async bump(pending: Pending, previous: Recorded): Promise<void> {
    const count = previous.count + pending.occurrences;
    await this.api.request({
      method: 'PATCH',
      path: apiPath({
        apiVersion: 'v1',
        kind: 'Event',
        namespace: namespaceOf(pending.involved),
        name: previous.name,
      }),
      contentType: CONTENT_TYPE.merge,
      body: { count, lastTimestamp: pending.last },
    });
    previous.count = count;
    this.remember(pending.key, previous);
  }
}
