// The background process behind `npm run e2e:up`: starts the cluster, writes the env file once
// everything is ready, serves the fault-injection endpoint, and tears down on SIGTERM/SIGINT.
import { rm } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { Cluster } from './cluster.js';
import { startControlServer } from './control.js';
import { writeEnvFile } from './env-file.js';

const { values } = parseArgs({ options: { 'write-env': { type: 'string' } } });
const envFile = values['write-env'];
if (envFile === undefined) throw new Error('--write-env is required');

const started = Date.now();
const cluster = await Cluster.start({ dynamodb: 'moto', installTenantCrd: true });
let stopping = false;
const shutdown = (): void => {
  if (stopping) return;
  stopping = true;
  void (async () => {
    await control.close();
    await cluster.stop();
    await rm(envFile, { force: true });
    process.exit(0);
  })();
};
const control = await startControlServer(cluster, shutdown);
await writeEnvFile(envFile, { ...cluster.env, LANDLORD_E2E_CONTROL: control.url });
console.error(`control plane ready in ${((Date.now() - started) / 1000).toFixed(1)}s`);
process.on('SIGTERM', shutdown);
process.on('SIGINT', shutdown);
