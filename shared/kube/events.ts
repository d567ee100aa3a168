// Kubernetes Events on Tenants, so `kubectl describe tenant` tells the story. Repeats of the same
// event are folded into one object with a count, as kubelet and the controllers do. Events are
// best effort and written in the background: a reconcile never waits for one (the benchmark
// showed those round trips in every new Tenant's first reconcile), and one that cannot be written
// is logged and dropped, never a reason to fail a reconcile.
import { randomBytes } from 'node:crypto';
import type { V1ObjectMeta } from '@kubernetes/client-node';
import type { Logger } from '../logger.js';
import { redactText } from '../redact.js';
import { CONTENT_TYPE, type KubeApi } from './api.js';
import { apiPath } from './paths.js';

export type EventType = 'Normal' | 'Warning';

export interface InvolvedObject {
  apiVersion: string;
  kind: string;
  metadata: V1ObjectMeta;
}

interface Recorded {
  name: string;
  count: number;
  firstTimestamp: string;
}

const MAX_REMEMBERED = 10_000;
/** Events written at once; more wait their turn. */
const CONCURRENCY = 4;
/** Beyond this many waiting, new Events are dropped (and counted in the log): an outage must not grow memory. */
const MAX_BACKLOG = 5_000;

/** The API server only accepts Events about cluster-scoped objects (such as Tenants) in `default`. */
const CLUSTER_EVENTS_NAMESPACE = 'default';

const namespaceOf = (object: InvolvedObject): string => object.metadata.namespace ?? CLUSTER_EVENTS_NAMESPACE;

export class EventRecorder {
  private readonly recent = new Map<string, Recorded>();
  /** The last delivery per event key: repeats of one event are written in order, so the count folds. */
  private readonly chains = new Map<string, Promise<void>>();
  private readonly waiting: (() => void)[] = [];
  private running = 0;
  private backlog = 0;
  private dropped = 0;

  constructor(
    private readonly api: KubeApi,
    private readonly component: string,
    private readonly logger: Logger,
  ) {}

  /** Queues the Event and returns at once. */
  record(object: InvolvedObject, type: EventType, reason: string, message: string): void {
    if (this.backlog >= MAX_BACKLOG) {
      if (this.dropped++ % 1000 === 0)
        this.logger.warn('too many Events waiting; dropping', { dropped: this.dropped });
      return;
    }
    const safeMessage = redactText(message).slice(0, 1024);
    const key = `${object.metadata.uid}/${type}/${reason}/${safeMessage}`;
    const now = new Date().toISOString();
    this.backlog++;
    const chain = (this.chains.get(key) ?? Promise.resolve())
      .then(() => this.inTurn(() => this.deliver(key, object, { type, reason, message: safeMessage, now })))
      .finally(() => {
        this.backlog--;
        if (this.chains.get(key) === chain) this.chains.delete(key);
      });
    this.chains.set(key, chain);
  }

  /** Resolves once every queued Event has been written (or given up on); used at shutdown and in tests. */
  async flush(): Promise<void> {
    while (this.chains.size > 0) await Promise.all(this.chains.values());
  }

  private async inTurn(work: () => Promise<void>): Promise<void> {
    if (this.running >= CONCURRENCY) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.running++;
    try {
      await work();
    } finally {
      this.running--;
      this.waiting.shift()?.();
    }
  }

  private async deliver(
    key: string,
    object: InvolvedObject,
    e: { type: EventType; reason: string; message: string; now: string },
  ): Promise<void> {
    const { type, reason, message: safeMessage, now } = e;
    const previous = this.recent.get(key);
    try {
      if (previous === undefined) await this.create(key, object, { type, reason, message: safeMessage, now });
      else await this.bump(namespaceOf(object), previous, now);
    } catch (err) {
      this.recent.delete(key);
      this.logger.warn('could not record an event', { tenant: object.metadata.name, reason, error: err });
    }
  }

  private async create(
    key: string,
    object: InvolvedObject,
    e: { type: EventType; reason: string; message: string; now: string },
  ): Promise<void> {
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
    previous.count += 1;
    await this.api.request({
      method: 'PATCH',
      path: apiPath({ apiVersion: 'v1', kind: 'Event', namespace, name: previous.name }),
      contentType: CONTENT_TYPE.merge,
      body: { count: previous.count, lastTimestamp: now },
    });
  }
}
