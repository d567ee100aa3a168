// A check of the repository itself, run with the unit tests: every file the opening comment of a
// TypeScript file names (a source file, a doc, a folder) exists, so a header never sends a reader
// to a file that was renamed or never written. A name is looked up beside the file, then in each
// folder above it up to the repository's root, as people write them ("sync/decide.ts", "e2e/").
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = dirname(dirname(fileURLToPath(import.meta.url)));

/**
 * A path-like mention: words joined by '/', ending in a source or doc file's extension or in '/'.
 * Not after '*' (a glob such as e2e/deploy-*.test.ts), and not .js or data files, which name build
 * outputs and other projects' files (dist/cli/main.js, client-node's gen/index.js).
 */
const MENTION = /(?<![\w@.*/-])((?:[\w.-]+\/)*[\w.-]+(?:\.(?:ts|md|mjs)|\/))(?![\w/])/g;

function trackedTypeScript(): string[] {
  const listed = execFileSync('git', ['ls-files', '*.ts'], { cwd: ROOT, encoding: 'utf8' });
  return listed.split('\n').filter((file) => file !== '');
}

/** The comment lines a file opens with. */
function header(file: string): string {
  const lines = readFileSync(join(ROOT, file), 'utf8').split('\n');
  const end = lines.findIndex((line) => !line.startsWith('//'));
  return lines.slice(0, end === -1 ? lines.length : end).join('\n');
}

/** Beside the file, then each folder above it, up to the root. */
function found(file: string, mention: string): boolean {
  for (let dir = dirname(file); ; dir = dirname(dir)) {
    if (existsSync(join(ROOT, dir, mention))) return true;
    if (dir === '.' || dir === '/') return false;
  }
}

function missingMentions(file: string): string[] {
  const mentions = [...header(file).matchAll(MENTION)].map((match) => match[1] ?? '');
  return mentions
    .filter((mention) => mention.includes('/') || mention.includes('.'))
    .filter((m) => !found(file, m));
}

describe('file headers', () => {
  it('name only files and folders that exist', () => {
    const missing = trackedTypeScript().flatMap((file) => missingMentions(file).map((m) => `${file}: ${m}`));
    expect(missing).toEqual([]);
  });
});
