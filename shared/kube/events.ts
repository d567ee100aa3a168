// Kubernetes Events on Tenants, so `kubectl describe tenant` tells the story. Repeats of the same
// event are folded into one object with a count, as kubelet and the controllers do, and an
// Event that cannot be written is logged and dropped: Events are best effort, never a reason to
// fail a reconcile.
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

/** The API server only accepts Events about cluster-scoped objects (such as Tenants) in `default`. */
const CLUSTER_EVENTS_NAMESPACE = 'default';

const namespaceOf = (object: InvolvedObject): string => object.metadata.namespace ?? CLUSTER_EVENTS_NAMESPACE;

export class EventRecorder {
  private readonly recent = new Map<string, Recorded>();

  constructor(
    private readonly api: KubeApi,
    private readonly component: string,
    private readonly logger: Logger,
  ) {}

  async record(object: InvolvedObject, type: EventType, reason: string, message: string): Promise<void> {
    const safeMessage = redactText(message).slice(0, 1024);
    const key = `${object.metadata.uid}/${type}/${reason}/${safeMessage}`;
    const now = new Date().toISOString();
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
