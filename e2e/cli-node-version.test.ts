// The `landlord` bin on a Node.js release it cannot run on says so in one line, instead of dying
// deep inside undici. Node.js 20 comes from the npm registry into the user cache, as Node.js 24 does.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../harness/paths.js';

const run = promisify(execFile);
const BIN = join(repoRoot, 'dist', 'cli', 'landlord.js');
const OLD_NODE = '20.20.2';

async function landlordOn(release: string, ...args: string[]): Promise<{ code: number; stderr: string }> {
  const nodeRelease = join(repoRoot, 'scripts', 'node-release');
  try {
    await run(nodeRelease, [release, BIN, ...args]);
    return { code: 0, stderr: '' };
  } catch (err) {
    const failed = err as { code: number; stderr: string };
    return { code: failed.code, stderr: failed.stderr };
  }
}

describe('the landlord bin', () => {
  it(`refuses Node.js ${OLD_NODE} with one line and exit code 2`, { timeout: 180_000 }, async () => {
    const { code, stderr } = await landlordOn(OLD_NODE, 'operator');
    const lines = stderr
      .split('\n')
      .filter((line) => line !== '' && !line.startsWith('landlord: installing'));
    expect(code).toBe(2);
    expect(lines).toEqual([
      `landlord: needs Node.js 22.19 or newer and found v${OLD_NODE}: ` +
        'install Node.js 24 (the release the image ships), or run the container image',
    ]);
  });

  it('runs the CLI on the release the tests run on', async () => {
    const { stdout } = await run(process.execPath, [BIN, '--version']);
    expect(stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
  });
});
