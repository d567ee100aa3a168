// A list+watch cache of one kind, built on client-node's ListWatch (which lists with a
// resourceVersion, resumes watches from it and relists on 410 Gone). Added around it: paginated
// lists through KubeApi, watch bookmarks, managedFields (and, where unread, status) stripped to
// save memory, and restarts with backoff after an error instead of stopping for good.
import type { KubernetesListObject, KubernetesObject } from '@kubernetes/client-node';
// The files that define them, not the package's index (which loads the whole generated client).
import { ListWatch } from '@kubernetes/client-node/dist/cache.js';
import { Watch } from '@kubernetes/client-node/dist/watch.js';
import { backoffDelay } from '../../util/backoff.js';
import type { Logger } from '../logger.js';
import { CONTENT_TYPE, type KubeApi } from './api.js';
import { internStrings } from '../../util/intern.js';
import { cachedSubtrees } from '../../util/shared-subtrees.js';
import { listAll, withoutManagedFields, type KeepOfManagedFields } from './list.js';
import { useObjectMap } from './object-map.js';
import { sameVersion } from './resource-version.js';

/** How long the server keeps a watch open before the client reconnects from its last resourceVersion. */
const WATCH_SECONDS = 300;

type WatchCallback = Parameters<Watch['watch']>[2];
type WatchDone = Parameters<Watch['watch']>[3];

/**
 * A watch for client-node's ListWatch, made through KubeApi (its pooled connection, no fetch): with
 * bookmarks on, a server-side timeout, and lighter objects. It extends client-node's Watch only to
 * have its type; none of that class's own code runs.
 */
class LeanWatch extends Watch {
  constructor(
    private readonly api: KubeApi,
    /** Sees each object before the cache does, and returns what the cache keeps of it. */
    private readonly prepare: (phase: string, obj: unknown) => unknown,
    /** The Accept header: metadata only, for a cache that reads nothing else. */
    private readonly accept?: string,
  ) {
    super(api.kubeConfig);
  }

  override watch(
    path: string,
    queryParams: Record<string, string | number | boolean | undefined>,
    callback: WatchCallback,
    done: WatchDone,
  ): Promise<AbortController> {
    const params = { ...queryParams, allowWatchBookmarks: true, timeoutSeconds: WATCH_SECONDS };
    return this.api.watch({
      path,
      query: params,
      onEvent: (event) => callback(event.type, this.prepare(event.type, event.object), event),
      done,
      // The inactivity timeout must outlast the server-side timeout, or quiet watches churn.
      idleMs: (WATCH_SECONDS + 30) * 1000,
      ...(this.accept === undefined ? {} : { accept: this.accept }),
    });
  }
}

export interface InformerOptions {
  /** The collection path, e.g. /apis/apps/v1/deployments. */
  path: string;
  /** Stamped on listed items, which the API server sends without them. */
  apiVersion: string;
  kind: string;
  labelSelector?: string;
  logger: Logger;
  pageSize?: number;
  /** Objects in the first page of a list (list.ts): fewer where anyone may make them large. */
  firstPageSize?: number;
  /** Called when the watch reconnects after failing: the API server is reachable again. */
  onRecovered?: () => void;
  /**
   * Drop each object's status before caching it: for kinds whose status nobody here reads (a
   * ResourceQuota's usage, a Namespace's phase), a share of the cache's memory for nothing.
   */
  dropStatus?: boolean;
  /**
   * Drop each object's spec before caching it: for a component that decides from metadata and
   * status alone (sync, from the row-hash annotation and its own condition), a Tenant's spec is
   * most of its size and never read.
   */
  dropSpec?: boolean;
  /**
   * List and watch metadata only (PartialObjectMetadata): the API server sends nothing else, so a
   * Secret's values never reach the process. Objects are stamped with apiVersion and kind as listed
   * ones are.
   */
  metadataOnly?: boolean;
  /**
   * Drop a Secret's values (data, stringData) before caching it: a component that tells copies
   * apart by a hash annotation keeps no secret value in its heap.
   */
  dropValues?: boolean;
  /**
   * The part of each object's spec to cache, for a component that reads one field of it (sync: the
   * state it last applied, which tells whether a row's new state takes the tenant down).
   */
  keepOfSpec?: (spec: unknown) => unknown;
  /**
   * The part of each object's status to cache, for a component that reads only its own part (sync:
   * its Synced condition and status.sync, not the operator's conditions).
   */
  keepOfStatus?: (status: unknown) => unknown;
  /**
   * Keep the names of the managers that wrote each object by update, not by apply, without the
   * fields they own (list.ts, withoutManagedFields). Writes to a subresource are not among them, so
   * a status write changes nothing this keeps.
   */
  keepUpdaters?: boolean;
  /** What to keep of each object's managedFields besides the updaters' names (list.ts, withoutManagedFields). */
  keepOfManagedFields?: KeepOfManagedFields;
  /**
   * Tell handlers whether an update changed only the status (Change.statusOnly), for a handler
   * that skips those. Off by default: the comparison serialises both copies, on every update.
   */
  markStatusOnly?: boolean;
  /**
   * The copy of an event's object the process already holds at that very version, lightened as this
   * cache lightens (what the component's own write returned): taken as it is, rather than lightening
   * the same version twice. The echoes of the operator's own creates are most of a burst's events.
   * Never for a metadata-only cache, whose copies hold less than a write returns.
   */
  known?: (obj: KubernetesObject) => KubernetesObject | undefined;
  /**
   * What to keep of an object the component did not make: undefined for one it made (kept as the
   * options above say), else a stub of the few fields its decisions read. Anyone who may create an
   * object with the labels a cache selects on then costs it a stub, whatever the object holds
   * (docs/adr/0012-foreign-objects-in-caches.md). Applied as each listed page and each watch event
   * arrives, so the whole object is never stored.
   */
  stubOf?: (obj: KubernetesObject) => KubernetesObject | undefined;
}

/** What a cache leaves out of each object, beyond managedFields. */
export type Unread = Pick<
  InformerOptions,
  | 'dropStatus'
  | 'dropSpec'
  | 'dropValues'
  | 'keepOfSpec'
  | 'keepOfStatus'
  | 'keepUpdaters'
  | 'keepOfManagedFields'
>;

const SECRET_VALUES = new Set(['data', 'stringData']);

/** Equal but for metadata.resourceVersion (both as the API server serialised them, in one key order). */
export function sameBesidesVersion(a: KubernetesObject, b: KubernetesObject): boolean {
  return unversioned(a) === unversioned(b);
}

/** Equal but for metadata.resourceVersion and status: only a status write came between them. */
export function sameBesidesStatus(a: KubernetesObject, b: KubernetesObject): boolean {
  return unversioned(a, 'status') === unversioned(b, 'status');
}

/**
 * Whether a cache keeps only part of each object's content. Of a cache that keeps all of it, every
 * update but one of managedFields alone changes something kept, so comparing the copies would
 * mostly cost a serialisation.
 */
function leavesPartOut(unread: Unread & Pick<InformerOptions, 'metadataOnly' | 'stubOf'>): boolean {
  const { dropStatus, dropSpec, dropValues, keepOfSpec, keepOfStatus, metadataOnly, stubOf } = unread;
  return (
    stubOf !== undefined ||
    dropStatus === true ||
    dropSpec === true ||
    dropValues === true ||
    metadataOnly === true ||
    keepOfSpec !== undefined ||
    keepOfStatus !== undefined
  );
}

function unversioned(o: KubernetesObject, leaveOut?: 'status'): string {
  const metadata = { ...o.metadata, resourceVersion: undefined };
  return JSON.stringify(
    leaveOut === undefined ? { ...o, metadata } : { ...o, metadata, [leaveOut]: undefined },
  );
}

/**
 * What a cache keeps of an object: never managedFields, no status or spec (or only the part read) when it is not read, one
 * copy of each string (util/intern.ts) and of parts equal to other cached objects' (frozen, like the
 * rest of it: util/shared-subtrees.ts). A copy rather than the object itself: deleting a
 * property that is not an object's last turns it into a hash table, which cost a cached metadata
 * 550 bytes (1.6 KB per tenant in the operator, for its Tenant, Deployment and ConfigMap).
 * `previous` is the cached version the object replaces, whose strings it can share.
 */
export function lighten<T>(obj: T, unread: Unread = {}, previous?: T): T {
  if (typeof obj !== 'object' || obj === null || Array.isArray(obj)) return obj;
  const source = obj as Record<string, unknown>;
  const lean: Record<string, unknown> = {};
  for (const key in source) {
    if (unreadKey(key, unread)) continue;
    lean[key] = kept(key, source[key], unread);
  }
  internStrings(lean, previous);
  return cachedSubtrees.share(lean, typeof source.kind === 'string' ? source.kind : '') as T;
}

function unreadKey(key: string, unread: Unread): boolean {
  if (key === 'status') return unread.dropStatus === true;
  if (key === 'spec') return unread.dropSpec === true;
  return unread.dropValues === true && SECRET_VALUES.has(key);
}

function kept(key: string, value: unknown, unread: Unread): unknown {
  if (key === 'metadata') return withoutManagedFields(value, unread.keepUpdaters, unread.keepOfManagedFields);
  if (key === 'status' && unread.keepOfStatus !== undefined) return unread.keepOfStatus(value);
  if (key === 'spec' && unread.keepOfSpec !== undefined) return unread.keepOfSpec(value);
  return value;
}

type Shaping = Unread & Pick<InformerOptions, 'stubOf'>;

/** A stub keeps what `stubOf` chose, managers' names included; lightening it only shares its strings. */
const STUB_UNREAD: Unread = { keepUpdaters: true };

/** What a cache keeps of an object: its stub when it is not the component's own (stubOf), else its lightened copy. */
function shaped<T extends KubernetesObject>(obj: T, options: Shaping, previous?: T): T {
  const stub = options.stubOf?.(obj);
  return stub === undefined ? lighten(obj, options, previous) : lighten(stub as T, STUB_UNREAD, previous);
}

/** What a cache keeps of an event's object: the copy `known` holds at its version, else its shaped copy. */
export function heldOrLightened<T extends KubernetesObject>(
  obj: T,
  options: Shaping & Pick<InformerOptions, 'known' | 'metadataOnly'>,
  previous?: T,
): T {
  const held = options.metadataOnly === true ? undefined : options.known?.(obj);
  if (held !== undefined && sameVersion(held, obj)) return held as T;
  return shaped(obj, options, previous);
}

/**
 * Events whose object is not one of the watched kind's: an ERROR's is a Status, whose `code`
 * client-node's ListWatch reads (410 Gone: the resourceVersion expired, so it lists again), and a
 * BOOKMARK's holds only a resourceVersion. Shaped as a watched object, a Status lost its code to
 * `stubOf` (a stub keeps identity fields alone): after an API server restart the cache then watched
 * again and again from the expired version, and kept every object as it last saw it.
 */
const NOT_AN_OBJECT = new Set(['ERROR', 'BOOKMARK']);

/**
 * What a cache hands ListWatch for a watch event: the object's kept copy (heldOrLightened), or the
 * event's object as it came when it is not one of the kind's.
 */
export function eventObject<T extends KubernetesObject>(
  phase: string,
  obj: T,
  options: Shaping & Pick<InformerOptions, 'apiVersion' | 'kind' | 'known' | 'metadataOnly'>,
  previous?: T,
): T {
  if (NOT_AN_OBJECT.has(phase)) return obj;
  if (options.metadataOnly === true) {
    // Sent as meta.k8s.io/v1 PartialObjectMetadata: the cache holds it as the kind it watches.
    Object.assign(obj, { apiVersion: options.apiVersion, kind: options.kind });
  }
  return heldOrLightened(obj, options, previous);
}

/** What a watch event changed: `statusOnly` when the update changed only the status (with markStatusOnly). */
export interface Change {
  statusOnly: boolean;
}

export type ObjectHandler<T> = (obj: T, change: Change) => void;

export class Informer<T extends KubernetesObject> {
  private readonly listWatch: ListWatch<T>;
  private listed = false;
  private stopped = false;
  private failures = 0;
  private restartTimer: NodeJS.Timeout | undefined;
  /** Updates that changed nothing the cache keeps: the cache takes them, handlers do not hear of them. */
  private readonly unchanged = new WeakSet<object>();
  /** Updates that changed only the status: handlers hear of them, and are told so. */
  private readonly statusOnly = new WeakSet<object>();

  constructor(
    private readonly api: KubeApi,
    private readonly options: InformerOptions,
  ) {
    const accept = options.metadataOnly === true ? CONTENT_TYPE.metadata : undefined;
    const watch = new LeanWatch(api, (phase, obj) => this.prepare(phase, obj), accept);
    this.listWatch = new ListWatch<T>(
      options.path,
      watch,
      () => this.listAll(),
      false,
      options.labelSelector,
    );
    // A namespace's lone object without a Map of its own (object-map.ts).
    useObjectMap<T>(this.listWatch);
    this.listWatch.on('error', (err: unknown) => this.onError(err));
    this.listWatch.on('connect', () => {
      if (this.failures > 0) options.onRecovered?.();
      this.failures = 0;
    });
  }

  /** True once the first complete list has been loaded into the cache. */
  get synced(): boolean {
    return this.listed;
  }

  on(verb: 'add' | 'update' | 'delete', handler: ObjectHandler<T>): void {
    this.listWatch.on(verb, (obj) => {
      if (!this.unchanged.has(obj)) handler(obj, { statusOnly: this.statusOnly.has(obj) });
    });
  }

  /**
   * Lightens the object. An update whose lightened copy differs from the cached one only in
   * resourceVersion changed nothing the cache keeps (a quota's usage recounted as pods come, a
   * Deployment's Progressing message, an operator condition sync does not read): a reconcile for
   * it would find nothing new, so its handlers are skipped. Otherwise an update that changed only
   * the status is marked as such when asked.
   */
  private prepare(phase: string, obj: unknown): unknown {
    if (typeof obj !== 'object' || obj === null) return obj;
    const cached = phase === 'MODIFIED' ? this.cached(obj as T) : undefined;
    const next = eventObject(phase, obj as T, this.options, cached);
    if (cached === undefined) return next;
    if (leavesPartOut(this.options) && sameBesidesVersion(cached, next)) this.unchanged.add(next);
    else if (this.options.markStatusOnly === true && sameBesidesStatus(cached, next))
      this.statusOnly.add(next);
    return next;
  }

  private cached(obj: T): T | undefined {
    return this.listWatch.get(obj.metadata?.name ?? '', obj.metadata?.namespace);
  }

  get(name: string, namespace?: string): T | undefined {
    return this.listWatch.get(name, namespace);
  }

  list(namespace?: string): readonly T[] {
    return this.listWatch.list(namespace);
  }

  /** Starts listing and watching; resolves once the cache holds a complete list. */
  async start(): Promise<void> {
    this.stopped = false;
    await this.listWatch.start();
    while (!this.listed && !this.stopped) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.restartTimer);
    await this.listWatch.stop();
  }

  private onError(err: unknown): void {
    if (this.stopped) return;
    const delay = backoffDelay(this.failures++, 500, 30_000, 0.2);
    this.options.logger.warn('watch failed; restarting', {
      path: this.options.path,
      delayMs: delay,
      error: err,
    });
    this.restartTimer = setTimeout(() => {
      if (!this.stopped) void this.listWatch.start();
    }, delay);
  }

  private async listAll(): Promise<KubernetesListObject<T>> {
    const list = await listAll<T>(this.api, this.options, (item) =>
      shaped(item, this.options, this.cached(item)),
    );
    this.listed = true;
    return list;
  }
}
