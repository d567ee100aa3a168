// A thin JSON client for the Kubernetes API. The generated clients of @kubernetes/client-node
// re-serialize bodies through their TypeScript models, which drops any field a model does not
// know; a tenant's manifest must reach the API server exactly as written. Authentication,
// TLS and token refresh still come from client-node's KubeConfig. Requests go through undici's
// dispatcher API rather than its fetch: fetch wraps every request and response in WHATWG objects
// and streams, which under the image's interpreter-only V8 cost the operator and sync about twice
// the CPU per request (docs/performance-notes/cpu-and-event-loop.md, "Requests without fetch").
import type { KubeConfig } from '@kubernetes/client-node';
import { getGlobalDispatcher, type Dispatcher } from 'undici';
import { ApiConnection } from './connection.js';

export const CONTENT_TYPE = {
  json: 'application/json',
  apply: 'application/apply-patch+yaml',
  merge: 'application/merge-patch+json',
  jsonPatch: 'application/json-patch+json',
  /**
   * Metadata only (PartialObjectMetadata), for a cache that reads nothing else of an object: the
   * API server leaves the rest, a Secret's values among it, out of the response.
   */
  metadataList: 'application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json',
  metadata: 'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1,application/json',
} as const;

/**
 * Query of an apply whose body landlord's own code builds (a Tenant's spec or status). By default
 * (fieldValidation=Warn) the API server parses an apply body a second time, strictly, only to warn
 * of unknown or duplicate fields: such a body has none, and landlord reads no warnings. That second
 * parse of the YAML was about 4.5 % of the API server's CPU in a profile of Tenant writes.
 */
export const BUILT_BODY = { fieldValidation: 'Ignore' } as const;

type Verb = 'get' | 'list' | 'create' | 'update' | 'patch' | 'apply' | 'delete' | 'watch';

export interface ApiRequest {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  query?: Record<string, string | number | boolean | undefined>;
  body?: unknown;
  contentType?: string;
  /** The Accept header; JSON when absent. */
  accept?: string;
  /** How the request is counted in metrics; defaults from the method. */
  verb?: Verb;
  /** Told the length of the response's text before it is parsed (list.ts sizes its pages by it). */
  onText?: (length: number) => void;
}

/** A Kubernetes API error with its HTTP status and the Status object's reason. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly reason: string,
    message: string,
    readonly path: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }

  /** The name client-node's ListWatch reads to tell a refused watch's 410 Gone (relist) apart. */
  get statusCode(): number {
    return this.status;
  }
}

export const isNotFound = (err: unknown): boolean => err instanceof ApiError && err.status === 404;
export const isConflict = (err: unknown): boolean => err instanceof ApiError && err.status === 409;

/** A request is worth retrying when the server or the network failed, not when it refused. */
export function isTransient(err: unknown): boolean {
  if (!(err instanceof ApiError)) return true;
  return err.status === 409 || err.status === 429 || err.status >= 500;
}

/** Told of every request once it is answered (code 0: no answer), with the seconds it took. */
export type RequestObserver = (verb: Verb, resource: string, code: number, seconds: number) => void;

const DEFAULT_VERB: Record<ApiRequest['method'], Verb> = {
  GET: 'get',
  POST: 'create',
  PUT: 'update',
  PATCH: 'patch',
  DELETE: 'delete',
};

export class KubeApi {
  private readonly connection: ApiConnection;

  constructor(
    readonly kubeConfig: KubeConfig,
    private readonly observe: RequestObserver = () => undefined,
    private readonly timeoutMs = 30_000,
  ) {
    this.connection = new ApiConnection(kubeConfig);
  }

  get server(): string {
    const cluster = this.kubeConfig.getCurrentCluster();
    if (cluster === null) throw new Error('the kubeconfig has no current cluster');
    return cluster.server;
  }

  async request<T>(req: ApiRequest): Promise<T> {
    const path = withQuery(req.path, req.query);
    const headers: Record<string, string> = {};
    if (req.body !== undefined) headers['Content-Type'] = req.contentType ?? CONTENT_TYPE.json;
    if (req.accept !== undefined) headers.Accept = req.accept;
    const verb = req.verb ?? DEFAULT_VERB[req.method];
    const resource = resourceOf(req.path);
    const started = performance.now();
    const took = (): number => (performance.now() - started) / 1000;
    let status: number;
    let text: string;
    try {
      const res = await this.send({ ...req, path }, headers, AbortSignal.timeout(this.timeoutMs));
      status = res.statusCode;
      text = await res.body.text();
    } catch (err) {
      this.observe(verb, resource, 0, took());
      throw err;
    }
    this.observe(verb, resource, status, took());
    if (status === 401) this.connection.forget();
    if (status < 200 || status >= 300) throw toApiError(status, text, req.path);
    req.onText?.(text.length);
    return (text === '' ? undefined : JSON.parse(text)) as T;
  }

  /**
   * A watch: one long GET whose body is a JSON watch event per line, each handed to `onEvent` as
   * it arrives. `done` is called once, with null when the server ends the watch and with the error
   * otherwise: an ApiError for a refused watch, a TimeoutError when nothing (not even a bookmark)
   * arrived for `idleMs`. Aborting the returned controller ends it. Watches are not counted in
   * the request metrics: they are connections, not requests, and a quiet one reconnects on a timer.
   */
  async watch(req: WatchRequest): Promise<AbortController> {
    const controller = new AbortController();
    const stream = new WatchStream(req.onEvent, (err) => {
      clearTimeout(timer);
      controller.abort();
      req.done(err);
    });
    const timer = setTimeout(() => stream.finish(timeoutError()), req.idleMs);
    timer.unref();
    try {
      const path = withQuery(req.path, { ...req.query, watch: true });
      const headers: Record<string, string> = req.accept === undefined ? {} : { Accept: req.accept };
      const res = await this.send({ method: 'GET', path }, headers, controller.signal);
      if (res.statusCode !== 200) throw toApiError(res.statusCode, await res.body.text(), req.path);
      stream.read(res.body, () => timer.refresh());
    } catch (err) {
      stream.finish(err);
    }
    return controller;
  }

  /** Sends `req` (its path already with the query) on the pooled connection. */
  private async send(
    req: Pick<ApiRequest, 'method' | 'path' | 'body'>,
    headers: Record<string, string>,
    signal: AbortSignal,
  ): Promise<Dispatcher.ResponseData> {
    const { origin, prefix } = serverParts(this.server);
    const prepared = await this.connection.prepare(origin + prefix + req.path, req.method);
    const dispatcher = prepared.dispatcher ?? getGlobalDispatcher();
    return dispatcher.request({
      origin,
      path: prefix + req.path,
      method: req.method,
      headers: { ...prepared.headers, Accept: CONTENT_TYPE.json, ...headers },
      body: req.body === undefined ? undefined : JSON.stringify(req.body),
      signal,
    });
  }

  /** Closes pooled connections; in-flight requests finish first. */
  close(): Promise<void> {
    return this.connection.close();
  }
}

/** One event of a watch stream, as the API server sends it. */
export interface WatchEvent {
  type: string;
  object: unknown;
}

export interface WatchRequest {
  /** The collection path, e.g. /apis/apps/v1/deployments. */
  path: string;
  query?: ApiRequest['query'];
  onEvent: (event: WatchEvent) => void;
  done: (err: unknown) => void;
  /** How long the watch may stay silent before it is ended with a TimeoutError. */
  idleMs: number;
  /** The Accept header (CONTENT_TYPE.metadata: metadata only); JSON when absent. */
  accept?: string;
}

/** Splits a watch body into lines and parses each; reports the end once. */
class WatchStream {
  private rest = '';
  private finished = false;

  constructor(
    private readonly onEvent: (event: WatchEvent) => void,
    private readonly onEnd: (err: unknown) => void,
  ) {}

  read(body: Dispatcher.ResponseData['body'], onData: () => void): void {
    body.setEncoding('utf8');
    body.on('data', (chunk: string) => {
      onData();
      this.take(chunk);
    });
    body.on('end', () => this.finish(null));
    body.on('close', () => this.finish(null));
    body.on('error', (err) => this.finish(err));
  }

  finish(err: unknown): void {
    if (this.finished) return;
    this.finished = true;
    this.onEnd(err);
  }

  private take(chunk: string): void {
    // Most chunks of a large object hold no line end: append, and split only when one arrives.
    if (!chunk.includes('\n')) {
      this.rest += chunk;
      return;
    }
    const lines = (this.rest + chunk).split('\n');
    this.rest = lines.pop()!;
    for (const line of lines) {
      if (line.length === 0 || this.finished) continue;
      let event: WatchEvent;
      try {
        event = JSON.parse(line) as WatchEvent;
      } catch (err) {
        // A line that is not JSON means the stream is broken: end it, and the watch is made again.
        this.finish(err);
        return;
      }
      this.onEvent(event);
    }
  }
}

function timeoutError(): Error {
  return new DOMException('no watch event arrived in time', 'TimeoutError');
}

/** The path with its query string; undefined values are left out. */
export function withQuery(path: string, query: ApiRequest['query']): string {
  if (query === undefined) return path;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined) params.set(key, String(value));
  }
  const search = params.toString();
  if (search === '') return path;
  return `${path}${path.includes('?') ? '&' : '?'}${search}`;
}

let lastServer: { server: string; origin: string; prefix: string } | undefined;

/**
 * The server URL's origin and path prefix (a proxy such as Rancher's serves the API under one);
 * the dispatcher takes them apart. The last one is remembered: a process talks to one server.
 */
function serverParts(server: string): { origin: string; prefix: string } {
  if (lastServer?.server !== server) {
    const url = new URL(server);
    lastServer = { server, origin: url.origin, prefix: url.pathname.replace(/\/+$/, '') };
  }
  return lastServer;
}

function toApiError(status: number, text: string, path: string): ApiError {
  let reason = '';
  let message = text.slice(0, 500);
  try {
    const body = JSON.parse(text) as { reason?: string; message?: string };
    reason = body.reason ?? '';
    message = body.message ?? message;
  } catch {
    // Not a Status object (a proxy in between, say): keep the raw text.
  }
  return new ApiError(status, reason, message, path);
}

/** The resource segment of an API path, for metrics: /apis/apps/v1/namespaces/x/deployments/y → deployments. */
function resourceOf(path: string): string {
  const parts = path.split('?')[0]!.split('/').filter(Boolean);
  const start = parts[0] === 'api' ? 2 : 3;
  const rest = parts.slice(start);
  const offset = rest[0] === 'namespaces' && rest.length > 2 ? 2 : 0;
  const resource = rest[offset] ?? 'unknown';
  const sub = rest[offset + 2];
  return sub === undefined ? resource : `${resource}/${sub}`;
}
