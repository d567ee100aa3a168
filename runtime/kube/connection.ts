// Credentials and one reused connection pool per API server. client-node's
// applySecurityAuthentication builds a new undici Agent for every request, so every request would
// open a new TLS connection; at thousands of requests that dominates. Here the Agent is made once
// and rebuilt only when the TLS material changes (a rotated client certificate), while the
// Authorization header is still asked of client-node each time, so token refresh keeps working.
import { createHash } from 'node:crypto';
import type { RequestOptions } from 'node:https';
import type { KubeConfig } from '@kubernetes/client-node';
import { HttpMethod, RequestContext } from '@kubernetes/client-node/dist/gen/http/http.js';
import { Agent, type Dispatcher } from 'undici';

export interface Prepared {
  headers: Record<string, string>;
  dispatcher: Dispatcher | undefined;
}

function text(value: unknown): string {
  if (value === undefined) return '-';
  if (Array.isArray(value)) return value.map(text).join('|');
  if (Buffer.isBuffer(value)) return value.toString('base64');
  return typeof value === 'string' ? value : JSON.stringify(value);
}

function fingerprint(opts: RequestOptions): string {
  const parts = [opts.ca, opts.cert, opts.key, opts.rejectUnauthorized, opts.servername];
  return createHash('sha256').update(parts.map(text).join('\n')).digest('hex');
}

export class ApiConnection {
  private pool: { fingerprint: string; agent: Agent } | undefined;

  constructor(private readonly kubeConfig: KubeConfig) {}

  async prepare(url: string, method: keyof typeof HttpMethod): Promise<Prepared> {
    if (this.kubeConfig.getCurrentCluster()?.proxyUrl !== undefined) return this.viaClientNode(url, method);
    const opts: RequestOptions = {};
    await this.kubeConfig.applyToHTTPSOptions(opts);
    const headers = Object.fromEntries(Object.entries(opts.headers ?? {}).map(([k, v]) => [k, String(v)]));
    return { headers, dispatcher: this.agentFor(opts) };
  }

  private agentFor(opts: RequestOptions): Agent {
    const print = fingerprint(opts);
    if (this.pool?.fingerprint !== print) {
      const old = this.pool?.agent;
      const connect = {
        ca: opts.ca,
        cert: opts.cert,
        key: opts.key,
        rejectUnauthorized: opts.rejectUnauthorized,
        servername: opts.servername,
      };
      this.pool = { fingerprint: print, agent: new Agent({ connect, keepAliveTimeout: 30_000 }) };
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
  }
}
