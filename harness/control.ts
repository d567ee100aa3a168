// A small loopback HTTP endpoint through which tests (running in other processes) inject faults
// into the control plane: restart kube-apiserver, freeze etcd or DynamoDB.
import { createServer, type Server } from 'node:http';
import type { Cluster } from './cluster.js';

type Action = (cluster: Cluster, params: URLSearchParams) => Promise<void> | void;

const ACTIONS: Record<string, Action> = {
  '/apiserver/restart': (c, p) => c.restartApiServer(Number(p.get('downMs') ?? 0)),
  '/etcd/pause': (c) => c.pauseEtcd(),
  '/etcd/resume': (c) => c.resumeEtcd(),
  '/dynamodb/pause': (c) => c.pauseDynamo(),
  '/dynamodb/resume': (c) => c.resumeDynamo(),
};

export interface ControlServer {
  url: string;
  close(): Promise<void>;
}

export function startControlServer(cluster: Cluster, onShutdown?: () => void): Promise<ControlServer> {
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://control');
    if (url.pathname === '/shutdown' && onShutdown !== undefined) {
      res.end('ok\n');
      onShutdown();
      return;
    }
    const action = req.method === 'POST' ? ACTIONS[url.pathname] : undefined;
    if (action === undefined) {
      res.writeHead(404).end(`unknown action ${req.method} ${url.pathname}\n`);
      return;
    }
    Promise.resolve(action(cluster, url.searchParams)).then(
      () => res.end('ok\n'),
      (err: unknown) => res.writeHead(500).end(`${String(err)}\n`),
    );
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      resolve({
        url: `http://127.0.0.1:${port}`,
        close: () => new Promise((done) => server.close(() => done())),
      });
    });
  });
}
