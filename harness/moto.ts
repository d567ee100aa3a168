// moto server (DynamoDB + DynamoDB Streams) from PyPI, installed into the project's own
// virtualenv. The requirements file's hash is stamped into the venv so a pin change reinstalls.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { motoRequirements, venvDir } from './paths.js';

const run = promisify(execFile);

export async function ensureMoto(log: (line: string) => void = console.error): Promise<string> {
  const server = join(venvDir, 'bin', 'moto_server');
  const stamp = join(venvDir, '.landlord-requirements');
  const wanted = createHash('sha256')
    .update(await readFile(motoRequirements))
    .digest('hex');
  if (existsSync(server) && existsSync(stamp) && (await readFile(stamp, 'utf8')) === wanted) return server;
  log(`installing moto into ${venvDir} (once)`);
  const python = process.env.PYTHON ?? 'python3';
  await run(python, ['-m', 'venv', venvDir]);
  await run(join(venvDir, 'bin', 'pip'), ['install', '--quiet', '-r', motoRequirements], {
    maxBuffer: 16 * 1024 * 1024,
  });
  await writeFile(stamp, wanted);
  return server;
}
