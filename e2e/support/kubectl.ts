// The machine's kubectl, pointed at the test cluster's kubeconfig.
import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { envValue, uniqueName } from './env.js';

const run = promisify(execFile);

export async function kubectl(...args: string[]): Promise<string> {
  const { stdout } = await run('kubectl', args, {
    env: { ...process.env, KUBECONFIG: envValue('KUBECONFIG') },
    maxBuffer: 64 * 1024 * 1024,
  });
  return stdout;
}

/**
 * Runs kubectl `verb` on `body` (written to a file in `dir`) with `flags`: undefined when the API
 * server allowed it, else kubectl's error, for tests that expect a refusal.
 */
export async function kubectlAttempt(
  dir: string,
  verb: string[],
  body: object,
  flags: string[] = [],
): Promise<string | undefined> {
  const file = join(dir, `${uniqueName('m')}.json`);
  await writeFile(file, JSON.stringify(body));
  try {
    await kubectl(...verb, '-f', file, ...flags);
    return undefined;
  } catch (err) {
    return String((err as { stderr?: string }).stderr ?? err);
  }
}
