// The machine's kubectl, pointed at the test cluster's kubeconfig.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { envValue } from './env.js';

const run = promisify(execFile);

export async function kubectl(...args: string[]): Promise<string> {
  const { stdout } = await run('kubectl', args, {
    env: { ...process.env, KUBECONFIG: envValue('KUBECONFIG') },
    maxBuffer: 64 * 1024 * 1024,
  });
  return stdout;
}
