// The small HTTP surface each component serves for the kubelet and Prometheus. Liveness says only
// that the event loop turns (restarting would not fix anything else); readiness is the component's
// own judgement; metrics is the registry's text.
import { createServer } from 'node:http';
import { StartupError } from './startup-error.js';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Registry } from 'prom-client';
import type { Logger } from './logger.js';

export interface Readiness {
  ready: boolean;
  /** Why not ready (or a short "ok"); served as the body of /readyz. */
  reason: string;
}

export interface HttpServerOptions {
  /** 0 picks a free port; the one chosen is returned. */
  port: number;
  /** Default: every interface, as a pod needs for the kubelet and Prometheus to reach it. */
  host?: string;
  registry: Registry;
  readiness: () => Readiness;
  logger: Logger;
}

export interface RunningHttpServer {
  port: number;
  close(): Promise<void>;
}

type Route = (options: HttpServerOptions) => Promise<Reply> | Reply;

interface Reply {
  status: number;
  body: string;
  contentType?: string;
}

const TEXT = 'text/plain; charset=utf-8';

const ROUTES: Record<string, Route> = {
  '/healthz': () => ({ status: 200, body: 'ok\n' }),
  '/readyz': ({ readiness }) => {
    const { ready, reason } = readiness();
    return { status: ready ? 200 : 503, body: `${reason}\n` };
  },
  '/metrics': async ({ registry }) => ({
    status: 200,
    body: await registry.metrics(),
    contentType: registry.contentType,
  }),
};

export function startHttpServer(options: HttpServerOptions): Promise<RunningHttpServer> {
  const server = createServer((request, response) => {
    void serve(options, request, response);
  });
  return new Promise((resolve, reject) => {
    server.once('error', (error) => reject(listenError(error, options.port)));
    server.listen(options.port, options.host, () => {
      server.removeAllListeners('error');
      server.on('error', (error) => options.logger.error('http server error', { error }));
      const port = boundPort(server);
      options.logger.debug('http server listening', { port, host: options.host ?? '*' });
      resolve({ port, close: closer(server) });
    });
  });
}

/** A port that cannot be had is the setting's problem: say which setting, and what to do. */
function listenError(error: Error & { code?: string }, port: number): Error {
  const setting = `LANDLORD_HTTP_PORT ${port}`;
  const fix = 'set LANDLORD_HTTP_PORT to a free port (0 picks one)';
  if (error.code === 'EADDRINUSE')
    return new StartupError(`${setting}: the port is in use by another process; ${fix}`, { cause: error });
  if (error.code === 'EACCES')
    return new StartupError(`${setting}: not allowed to listen on this port; ${fix}`, { cause: error });
  return error;
}

async function serve(
  options: HttpServerOptions,
  request: IncomingMessage,
  response: ServerResponse,
): Promise<void> {
  const path = new URL(request.url ?? '/', 'http://localhost').pathname;
  const route = ROUTES[path];
  let reply: Reply;
  if (route === undefined) {
    reply = { status: 404, body: 'not found\n' };
  } else if (request.method !== 'GET' && request.method !== 'HEAD') {
    reply = { status: 405, body: 'method not allowed\n' };
    response.setHeader('allow', 'GET, HEAD');
  } else {
    reply = await answer(route, options, path);
  }
  response.writeHead(reply.status, {
    'content-type': reply.contentType ?? TEXT,
    'cache-control': 'no-store',
  });
  response.end(request.method === 'HEAD' ? undefined : reply.body);
}

/** A failing check answers 500 (or 503 for readiness) and is logged, instead of dropping the request. */
async function answer(route: Route, options: HttpServerOptions, path: string): Promise<Reply> {
  try {
    return await route(options);
  } catch (error) {
    options.logger.error('http handler failed', { path, error });
    return path === '/readyz'
      ? { status: 503, body: 'readiness check failed\n' }
      : { status: 500, body: 'internal error\n' };
  }
}

function boundPort(server: Server): number {
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('http server has no TCP address');
  return address.port;
}

function closer(server: Server): () => Promise<void> {
  let closing: Promise<void> | undefined;
  return () => {
    closing ??= new Promise<void>((resolve, reject) => {
      server.close((error) => (error === undefined ? resolve() : reject(error)));
      // Keep-alive connections from a scraper would otherwise hold close() open until they time out.
      server.closeIdleConnections();
    });
    return closing;
  };
}
