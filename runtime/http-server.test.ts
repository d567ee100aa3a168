import { Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { startHttpServer } from './http-server.js';
import type { Readiness, RunningHttpServer } from './http-server.js';
import { createLogger } from './logger.js';
import { createMetrics } from './metrics.js';
import { StartupError } from './startup-error.js';

const logged: string[] = [];
const logger = createLogger('test', 'debug', {
  stream: new Writable({
    write(chunk: Buffer, _encoding, callback) {
      logged.push(chunk.toString());
      callback();
    },
  }),
});

describe('startHttpServer', () => {
  let server: RunningHttpServer | undefined;
  let readiness: () => Readiness = () => ({ ready: true, reason: 'ok' });
  const metrics = createMetrics('operator');

  async function start(): Promise<string> {
    server = await startHttpServer({
      port: 0,
      host: '127.0.0.1',
      registry: metrics.registry,
      readiness: () => readiness(),
      logger,
    });
    return `http://127.0.0.1:${server.port}`;
  }

  afterEach(async () => {
    await server?.close();
    server = undefined;
    readiness = () => ({ ready: true, reason: 'ok' });
    logged.length = 0;
  });

  it('picks a free port when asked for port 0', async () => {
    await start();
    expect(server!.port).toBeGreaterThan(0);
  });

  it('answers /healthz with ok', async () => {
    const response = await fetch(`${await start()}/healthz`);
    expect([response.status, await response.text()]).toEqual([200, 'ok\n']);
  });

  it('answers /readyz from the readiness check, with the reason', async () => {
    const base = await start();
    readiness = () => ({ ready: false, reason: 'waiting for the first list of tenants' });
    const notReady = await fetch(`${base}/readyz`);
    expect([notReady.status, await notReady.text()]).toEqual([
      503,
      'waiting for the first list of tenants\n',
    ]);
    readiness = () => ({ ready: true, reason: 'ok' });
    const ready = await fetch(`${base}/readyz?verbose`);
    expect([ready.status, await ready.text()]).toEqual([200, 'ok\n']);
  });

  it('answers 503 and logs when the readiness check throws', async () => {
    const base = await start();
    readiness = () => {
      throw new Error('lease state unknown');
    };
    const response = await fetch(`${base}/readyz`);
    expect(response.status).toBe(503);
    await new Promise((resolve) => setImmediate(resolve));
    expect(logged.join('')).toContain('lease state unknown');
  });

  it('serves the registry in the Prometheus text format', async () => {
    metrics.reconcileTotal.inc({ result: 'success' });
    const response = await fetch(`${await start()}/metrics`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe(metrics.registry.contentType);
    const body = await response.text();
    expect(body).toContain('# TYPE landlord_reconcile_total counter');
    expect(body).toContain('landlord_reconcile_total{result="success",component="operator"} 1');
  });

  it('answers 404 elsewhere and 405 for other methods', async () => {
    const base = await start();
    expect((await fetch(`${base}/`)).status).toBe(404);
    expect((await fetch(`${base}/metricsx`)).status).toBe(404);
    const post = await fetch(`${base}/healthz`, { method: 'POST' });
    expect([post.status, post.headers.get('allow')]).toEqual([405, 'GET, HEAD']);
  });

  it('answers HEAD without a body', async () => {
    const response = await fetch(`${await start()}/healthz`, { method: 'HEAD' });
    expect([response.status, await response.text()]).toEqual([200, '']);
  });

  it('rejects a taken port with one line naming LANDLORD_HTTP_PORT and the fix', async () => {
    await start();
    const port = server!.port;
    const taken = startHttpServer({ port, host: '127.0.0.1', registry: metrics.registry, readiness, logger });
    await expect(taken).rejects.toThrow(StartupError);
    await expect(taken).rejects.toMatchObject({
      message: `LANDLORD_HTTP_PORT ${port}: the port is in use by another process; set LANDLORD_HTTP_PORT to a free port (0 picks one)`,
      cause: { code: 'EADDRINUSE' },
    });
  });

  it('closes despite a kept-alive connection, and closing twice is harmless', async () => {
    const base = await start();
    await (await fetch(`${base}/healthz`)).text();
    const running = server!;
    await running.close();
    await running.close();
    await expect(fetch(`${base}/healthz`)).rejects.toThrow();
  });
});
