// A thin JSON client for the Kubernetes API. The generated clients of @kubernetes/client-node
// re-serialize bodies through their TypeScript models, which drops any field a model does not
// know; a tenant's manifest must reach the API server exactly as written. Authentication,
// TLS and token refresh still come from client-node's KubeConfig.
import type { KubeConfig } from '@kubernetes/client-node';
import { fetch } from 'undici';
import { ApiConnection } from './connection.js';

export const CONTENT_TYPE = {
  json: 'application/json',
  apply: 'application/apply-patch+yaml',
  merge: 'application/merge-patch+json',
  jsonPatch: 'application/json-patch+json',
} as const;

export type Verb = 'get' | 'list' | 'create' | 'update' | 'patch' | 'apply' | 'delete' | 'watch';

export interface ApiRequest {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  query?: Record<string, string | number | boolean | undefined>;
  body?: unknown;
  contentType?: string;
  /** How the request is counted in metrics; defaults from the method. */
  verb?: Verb;
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
}

export const isNotFound = (err: unknown): boolean => err instanceof ApiError && err.status === 404;
export const isConflict = (err: unknown): boolean => err instanceof ApiError && err.status === 409;
export const isGone = (err: unknown): boolean => err instanceof ApiError && err.status === 410;

/** A request is worth retrying when the server or the network failed, not when it refused. */
export function isTransient(err: unknown): boolean {
  if (!(err instanceof ApiError)) return true;
  return err.status === 409 || err.status === 429 || err.status >= 500;
}

export type RequestObserver = (verb: Verb, resource: string, code: number) => void;

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
    const url = new URL(this.server + req.path);
    for (const [key, value] of Object.entries(req.query ?? {})) {
      if (value !== undefined) url.searchParams.set(key, String(value));
    }
    const { headers: auth, dispatcher } = await this.connection.prepare(url.toString(), req.method);
    const headers: Record<string, string> = { ...auth, Accept: CONTENT_TYPE.json };
    if (req.body !== undefined) headers['Content-Type'] = req.contentType ?? CONTENT_TYPE.json;
    const verb = req.verb ?? DEFAULT_VERB[req.method];
    const resource = resourceOf(req.path);
    let res;
    try {
      res = await fetch(url, {
        method: req.method,
        headers,
        body: req.body === undefined ? undefined : JSON.stringify(req.body),
        dispatcher,
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (err) {
      this.observe(verb, resource, 0);
      throw err;
    }
    this.observe(verb, resource, res.status);
    const text = await res.text();
    if (!res.ok) throw toApiError(res.status, text, req.path);
    return (text === '' ? undefined : JSON.parse(text)) as T;
  }

  /** Closes pooled connections; in-flight requests finish first. */
  close(): Promise<void> {
    return this.connection.close();
  }
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
export function resourceOf(path: string): string {
  const parts = path.split('?')[0]!.split('/').filter(Boolean);
  const start = parts[0] === 'api' ? 2 : 3;
  const rest = parts.slice(start);
  const offset = rest[0] === 'namespaces' && rest.length > 2 ? 2 : 0;
  const resource = rest[offset] ?? 'unknown';
  const sub = rest[offset + 2];
  return sub === undefined ? resource : `${resource}/${sub}`;
}
