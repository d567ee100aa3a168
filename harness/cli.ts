// `npm run e2e:up` / `npm run e2e:down`: the local control plane and DynamoDB in the background.
import { spawn } from 'node:child_process';
import { existsSync, openSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { ensureBinaries } from './binaries.js';
import { readEnvFile } from './env-file.js';
import { ensureMoto } from './moto.js';
import { e2eStateDir } from './paths.js';

const envFile = join(e2eStateDir, 'env');
const pidFile = join(e2eStateDir, 'daemon.pid');
const logFile = join(e2eStateDir, 'daemon.log');

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function runningPid(): Promise<number | undefined> {
  const pid = Number(await readFile(pidFile, 'utf8').catch(() => 'NaN'));
  return Number.isInteger(pid) && alive(pid) ? pid : undefined;
}

async function up(): Promise<void> {
  if ((await runningPid()) !== undefined && existsSync(envFile)) {
    console.log(`already up; environment in ${envFile}`);
    return;
  }
  await mkdir(e2eStateDir, { recursive: true });
  // Build in the foreground so progress shows on the terminal, not in the daemon's log.
  await Promise.all([ensureBinaries(), ensureMoto()]);
  const started = Date.now();
  const daemon = fileURLToPath(new URL('./daemon.js', import.meta.url));
  const out = openSync(logFile, 'w');
  const child = spawn(process.execPath, [daemon, '--write-env', envFile], {
    detached: true,
    stdio: ['ignore', out, out],
  });
  child.unref();
  await writeFile(pidFile, String(child.pid));
  while (!existsSync(envFile)) {
    if (child.pid === undefined || !alive(child.pid)) {
      throw new Error(`the control plane did not start:\n${await readFile(logFile, 'utf8')}`);
    }
    await sleep(200);
  }
  const env = await readEnvFile(envFile);
  console.log(`control plane and DynamoDB up in ${((Date.now() - started) / 1000).toFixed(1)}s`);
  console.log(`environment: ${envFile}  (load it with: set -a; . ${envFile}; set +a)`);
  console.log(`  kubectl --kubeconfig ${env.KUBECONFIG} get nodes`);
}

async function down(): Promise<void> {
  const pid = await runningPid();
  if (pid === undefined) {
    console.log('not running');
  } else {
    process.kill(pid, 'SIGTERM');
    while (alive(pid)) await sleep(100);
    console.log('stopped');
  }
  await rm(envFile, { force: true });
  await rm(pidFile, { force: true });
}

const command = process.argv[2];
if (command === 'up') await up();
else if (command === 'down') await down();
else {
  console.error('usage: harness/cli.js up|down');
  process.exitCode = 2;
}
