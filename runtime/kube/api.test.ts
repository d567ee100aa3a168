// KubeApi's own HTTP handling, against a plain HTTP server on loopback that answers as the API
// server's wire format does (a Status body on errors, one JSON event per line on a watch). What
// the API server itself does with requests is the e2e tests' part.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { KubeConfig } from '@kubernetes/client-node/dist/config.js';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiError, KubeApi, withQuery, type WatchEvent } from './api.js';

type Handler = (req: IncomingMessage, res: ServerResponse, body: string) => void;

let server: Server | undefined;
let api: KubeApi | undefined;

async function serve(handler: Handler, prefix = ''): Promise<KubeApi> {
  server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => handler(req, res, body));
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const kc = new KubeConfig();
  kc.loadFromOptions({
    // Plain HTTP on loopback: client-node allows it only with TLS verification off.
    clusters: [{ name: 'c', server: `http://127.0.0.1:${port}${prefix}`, skipTLSVerify: true }],
    users: [{ name: 'u', token: 'secret-token' }],
    contexts: [{ name: 'x', cluster: 'c', user: 'u' }],
    currentContext: 'x',
  });
  api = new KubeApi(kc);
  return api;
}

async function stop(): Promise<void> {
  await api?.close();
  const running = server;
  server = api = undefined;
  if (running === undefined) return;
  running.closeAllConnections();
  await new Promise((resolve) => running.close(resolve));
}

afterEach(stop);

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

interface Watched {
  events: WatchEvent[];
  ended: Promise<unknown>;
  controller: Promise<AbortController>;
}

function watch(kube: KubeApi, idleMs = 5_000): Watched {
  const events: WatchEvent[] = [];
  let controller!: Promise<AbortController>;
  const ended = new Promise<unknown>((resolve) => {
    controller = kube.watch({
      path: '/api/v1/configmaps',
      query: { resourceVersion: '7' },
      onEvent: (event) => events.push(event),
      done: resolve,
      idleMs,
    });
  });
  return { events, ended, controller };
}

describe('KubeApi.request', () => {
  it('sends the path under the server URL, the query, the body and the token, and parses the answer', async () => {
    let seen: { url?: string; method?: string; auth?: string; type?: string; body?: string } = {};
    const kube = await serve((req, res, body) => {
      seen = {
        url: req.url,
        method: req.method,
        auth: req.headers.authorization,
        type: req.headers['content-type'],
        body,
      };
      res.setHeader('Content-Type', 'application/json');
      res.end(JSON.stringify({ kind: 'ConfigMap', metadata: { name: 'a' } }));
    }, '/proxy/k8s');
    const answer = await kube.request<{ kind: string }>({
      method: 'PATCH',
      path: '/api/v1/namespaces/n/configmaps/a',
      query: { fieldManager: 'landlord', force: true, dryRun: undefined },
      body: { data: { x: '1' } },
      contentType: 'application/apply-patch+yaml',
    });
    expect(answer.kind).toBe('ConfigMap');
    expect(seen).toEqual({
      url: '/proxy/k8s/api/v1/namespaces/n/configmaps/a?fieldManager=landlord&force=true',
      method: 'PATCH',
      auth: 'Bearer secret-token',
      type: 'application/apply-patch+yaml',
      body: '{"data":{"x":"1"}}',
    });
  });

  it('turns a refusal into an ApiError with its status and the Status reason', async () => {
    const kube = await serve((_req, res) => {
      res.statusCode = 409;
      res.end(
        JSON.stringify({ kind: 'Status', reason: 'Conflict', message: 'the object has been modified' }),
      );
    });
    const err = await kube
      .request({ method: 'GET', path: '/api/v1/namespaces/n/configmaps/a' })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ status: 409, statusCode: 409, reason: 'Conflict' });
    expect((err as Error).message).toBe('the object has been modified');
  });

  it('asks the kubeconfig for credentials again after a 401, not only once the reuse window ends', async () => {
    const seen: (string | undefined)[] = [];
    const kube = await serve((req, res) => {
      seen.push(req.headers.authorization);
      res.statusCode = req.headers.authorization === 'Bearer rotated-token' ? 200 : 401;
      res.end(res.statusCode === 200 ? '{}' : JSON.stringify({ kind: 'Status', reason: 'Unauthorized' }));
    });
    const get = (): Promise<unknown> =>
      kube.request({ method: 'GET', path: '/api/v1/namespaces' }).catch((e: unknown) => e);
    expect(await get()).toMatchObject({ status: 401 });
    kube.kubeConfig.users[0] = { name: 'u', token: 'rotated-token' };
    expect(await get()).toEqual({});
    expect(seen).toEqual(['Bearer secret-token', 'Bearer rotated-token']);
  });
});

describe('KubeApi.watch', () => {
  it('hands over each line as an event, also when a line arrives in pieces, and ends with null', async () => {
    let url = '';
    const kube = await serve((req, res) => {
      url = req.url ?? '';
      res.setHeader('Content-Type', 'application/json');
      const first = JSON.stringify({
        type: 'ADDED',
        object: { metadata: { name: 'a', resourceVersion: '8' } },
      });
      const second = JSON.stringify({ type: 'BOOKMARK', object: { metadata: { resourceVersion: '9' } } });
      res.write(first.slice(0, 10));
      void sleep(20).then(() => {
        res.write(`${first.slice(10)}\n${second.slice(0, 5)}`);
        return sleep(20).then(() => res.end(`${second.slice(5)}\n`));
      });
    });
    const watched = watch(kube);
    expect(await watched.ended).toBeNull();
    expect(watched.events.map((e) => e.type)).toEqual(['ADDED', 'BOOKMARK']);
    expect(url).toBe('/api/v1/configmaps?resourceVersion=7&watch=true');
  });

  it('ends with the refusal (its statusCode, which ListWatch reads for 410 Gone)', async () => {
    const kube = await serve((_req, res) => {
      res.statusCode = 410;
      res.end(JSON.stringify({ kind: 'Status', reason: 'Expired', message: 'too old resource version' }));
    });
    const err = await watch(kube).ended;
    expect(err).toMatchObject({ statusCode: 410, reason: 'Expired' });
  });

  it('ends a silent watch with a TimeoutError, and a broken line with the parse error', async () => {
    const silent = await serve((_req, res) => res.write(''));
    const err = await watch(silent, 150).ended;
    expect((err as Error).name).toBe('TimeoutError');
    await stop();

    const broken = await serve((_req, res) => res.write('{"type":"ADDED",\n'));
    expect(await watch(broken).ended).toBeInstanceOf(SyntaxError);
  });

  it('stops when its controller is aborted', async () => {
    const kube = await serve((_req, res) => {
      res.write(`${JSON.stringify({ type: 'ADDED', object: {} })}\n`);
    });
    const watched = watch(kube);
    while (watched.events.length === 0) await sleep(5);
    (await watched.controller).abort();
    expect(await watched.ended).toBeInstanceOf(Error);
  });
});

describe('withQuery', () => {
  it('leaves out undefined values and appends to a path that has a query already', () => {
    expect(withQuery('/a', { x: 1, y: undefined })).toBe('/a?x=1');
    expect(withQuery('/a', {})).toBe('/a');
    expect(withQuery('/a?b=2', { c: true })).toBe('/a?b=2&c=true');
  });
});
