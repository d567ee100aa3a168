// `npm run sandbox:plan`: `landlord plan` against the running sandbox, with its table, DynamoDB
// endpoint and kubeconfig, so trying the plan needs no environment set by hand.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { readEnvFile } from '../harness/env-file.js';
import { repoRoot } from '../harness/paths.js';
import { SANDBOX_ENV } from './sandbox.js';

const env = await readEnvFile(SANDBOX_ENV).catch(() => {
  process.stderr.write(`no sandbox is running (${SANDBOX_ENV} is missing): start one with npm start\n`);
  process.exit(1);
});
const plan = spawn(
  process.execPath,
  [join(repoRoot, 'dist', 'cli', 'landlord.js'), 'plan', ...process.argv.slice(2)],
  { env: { ...process.env, ...env }, stdio: 'inherit' },
);
plan.once('exit', (code) => process.exit(code ?? 1));
