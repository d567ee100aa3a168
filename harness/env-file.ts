// `.e2e/env`: KEY=value lines, readable by `set -a; . .e2e/env` in a shell and by the tests.
import { readFile, writeFile } from 'node:fs/promises';

export async function writeEnvFile(path: string, env: Record<string, string>): Promise<void> {
  const lines = Object.entries(env).map(([key, value]) => `${key}=${value}`);
  await writeFile(path, lines.join('\n') + '\n', { mode: 0o600 });
}

export async function readEnvFile(path: string): Promise<Record<string, string>> {
  const text = await readFile(path, 'utf8');
  const entries = text
    .split('\n')
    .filter((line) => line.includes('='))
    .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)] as const);
  return Object.fromEntries(entries);
}
