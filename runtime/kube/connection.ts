// Credentials and one reused connection pool per API server. client-node's
// applySecurityAuthentication builds a new undici Agent for every request, so every request would
// open a new TLS connection; at thousands of requests that dominates. Here the Agent is made once
// and rebuilt only when the TLS material changes (a rotated client certificate), while the
// Authorization header is still asked of client-node, so token refresh keeps working. What
// client-node answers is reused for a second: asking it costs ~45 µs a request (it decodes or, in a
// pod, reads the CA from disk every time), a share of the operator's CPU once thousands of requests
// a minute go through; a token is refreshed minutes before it expires, and a 401 asks again at once.
import type { RequestOptions } from 'node:https';
import type { KubeConfig } from '@kubernetes/client-node';
import { HttpMethod, RequestContext } from '@kubernetes/client-node/dist/gen/http/http.js';
import { Agent, type Dispatcher } from 'undici';

export interface Prepared {
  headers: Record<string, string>;
  dispatcher: Dispatcher | undefined;
}

type TlsMaterial = Pick<RequestOptions, 'ca' | 'cert' | 'key' | 'rejectUnauthorized' | 'servername'>;

const tlsOf = (opts: RequestOptions): TlsMaterial => ({
  ca: opts.ca,
  cert: opts.cert,
  key: opts.key,
  rejectUnauthorized: opts.rejectUnauthorized,
  servername: opts.servername,
});

/**
 * Whether two requests carry the same TLS material. client-node makes new Buffers for every
 * request, so identity does not do; comparing bytes costs nothing, where hashing them per request
 * was a share of the operator's garbage at 20,000 Tenants.
 */
function sameValue(a: unknown, b: unknown): boolean {
  if (Buffer.isBuffer(a) && Buffer.isBuffer(b)) return a.equals(b);
  if (Array.isArray(a) && Array.isArray(b))
    return a.length === b.length && a.every((v, i) => sameValue(v, b[i]));
  if (typeof a === 'object' && a !== null) return JSON.stringify(a) === JSON.stringify(b);
  return a === b;
}

function sameTls(a: TlsMaterial, b: TlsMaterial): boolean {
  return (
    sameValue(a.ca, b.ca) &&
    sameValue(a.cert, b.cert) &&
    sameValue(a.key, b.key) &&
    a.rejectUnauthorized === b.rejectUnauthorized &&
    a.servername === b.servername
  );
}

export class ApiConnection {
  private pool: { tls: TlsMaterial; agent: Agent } | undefined;
  private recent: { at: number; prepared: Prepared } | undefined;

  /** `reuseMs`: how long what client-node answered is used before it is asked again. */
  constructor(
    private readonly kubeConfig: KubeConfig,
    private readonly reuseMs = 1_000,
  ) {}

  async prepare(url: string, method: keyof typeof HttpMethod): Promise<Prepared> {
    if (this.kubeConfig.getCurrentCluster()?.proxyUrl !== undefined) return this.viaClientNode(url, method);
    const now = Date.now();
    if (this.recent !== undefined && now - this.recent.at < this.reuseMs) return this.recent.prepared;
    const prepared = await this.fromKubeConfig();
    this.recent = { at: now, prepared };
    return prepared;
  }

  /** Drops what was reused, so the next request asks client-node (after a 401, say). */
  forget(): void {
    this.recent = undefined;
  }

  private async fromKubeConfig(): Promise<Prepared> {
    const opts: RequestOptions = {};
    await this.kubeConfig.applyToHTTPSOptions(opts);
    const headers = Object.fromEntries(Object.entries(opts.headers ?? {}).map(([k, v]) => [k, String(v)]));
    return { headers, dispatcher: this.agentFor(opts) };
  }

  private agentFor(opts: RequestOptions): Agent {
    const tls = tlsOf(opts);
    if (this.pool === undefined || !sameTls(this.pool.tls, tls)) {
      const old = this.pool?.agent;
      this.pool = { tls, agent: new Agent({ connect: tls, keepAliveTimeout: 30_000 }) };
      void old?.close();
    }
    return this.pool.agent;
  }

  /** Proxies (proxy-url in the kubeconfig) keep client-node's own per-request dispatcher. */
  private async viaClientNode(url: string, method: keyof typeof HttpMethod): Promise<Prepared> {
    const ctx = new RequestContext(url, HttpMethod[method]);
    await this.kubeConfig.applySecurityAuthentication(ctx);
    return { headers: ctx.getHeaders(), dispatcher: ctx.getDispatcher() };
  }

  async close(): Promise<void> {
    await this.pool?.agent.close();
    this.pool = undefined;
    this.recent = undefined;
  }
}
