// moto on its own, without the control plane: for measurements that need only DynamoDB (the
// purge benchmark). Same server and virtualenv as Cluster starts.
import { mkdir } from 'node:fs/promises';
import { ensureMoto } from './moto.js';
import { freePort } from './ports.js';
import { startProcess, type ManagedProcess } from './process.js';
import { httpOk } from './readiness.js';
import { waitUntil } from './wait.js';

export interface MotoServer {
  endpoint: string;
  process: ManagedProcess;
}

/** Starts moto on a free loopback port, its log in `logDir`. Stop it with `process.stop()`. */
export async function startMotoServer(logDir: string, log: (line: string) => void): Promise<MotoServer> {
  const server = await ensureMoto(log);
  await mkdir(logDir, { recursive: true });
  const port = await freePort();
  const proc = startProcess({
    name: 'moto',
    command: server,
    args: ['-H', '127.0.0.1', '-p', String(port)],
    logDir,
  });
  const endpoint = `http://127.0.0.1:${port}`;
  await waitUntil('moto', () => httpOk(`${endpoint}/moto-api/`), {
    timeoutMs: 60_000,
    abortIf: async () => {
      if (!proc.running) throw new Error(`moto exited during start-up:\n${await proc.lastLines()}`);
    },
  });
  return { endpoint, process: proc };
}
