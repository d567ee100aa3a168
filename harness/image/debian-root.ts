// A Debian root filesystem like the `debian:<suite>-slim` image's, made with debootstrap from the
// mirror apt on this machine uses (no container registry is needed), and kept in the landlord cache.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { imageCache } from './buildah.js';

const run = promisify(execFile);

const DEFAULT_MIRROR = 'http://deb.debian.org/debian';
const APT_SOURCES = ['/etc/apt/sources.list', '/etc/apt/sources.list.d'];

/**
 * The Debian archive among apt's sources (one-line or deb822 form): the first URI that ends in
 * /debian, which debian-security and third-party repositories do not.
 */
export function debianMirror(sources: readonly string[]): string | undefined {
  for (const text of sources) {
    for (const line of text.split('\n')) {
      const oneLine = /^deb\s+(?:\[[^\]]*\]\s+)?(\S+)/.exec(line.trim());
      const uris = /^URIs:\s*(.+)$/i.exec(line.trim());
      const candidates = oneLine?.[1] !== undefined ? [oneLine[1]] : (uris?.[1]?.split(/\s+/) ?? []);
      const found = candidates.find((uri) => /\/debian\/?$/.test(uri));
      if (found !== undefined) return found.replace(/\/$/, '');
    }
  }
  return undefined;
}

async function aptSources(): Promise<string[]> {
  const texts: string[] = [];
  for (const path of APT_SOURCES) {
    if (!existsSync(path)) continue;
    if (path.endsWith('.d')) {
      const files = (await readdir(path)).filter((f) => /\.(list|sources)$/.test(f)).sort();
      for (const file of files) texts.push(await readFile(join(path, file), 'utf8'));
    } else texts.push(await readFile(path, 'utf8'));
  }
  return texts;
}

/**
 * What debian:<suite>-slim leaves out of a minimal install: documentation, manual pages,
 * translations, and apt's package lists and caches.
 */
const SLIM_AWAY = [
  'usr/share/doc/*',
  'usr/share/man/*',
  'usr/share/info/*',
  'usr/share/locale/!(locale.alias)',
  'var/lib/apt/lists/*',
  'var/cache/apt/*.bin',
  'var/cache/apt/archives/*.deb',
  'var/cache/debconf/*-old',
  'var/log/*.log',
];

/** The same exclusions for packages installed later, as the slim image configures dpkg. */
const DPKG_EXCLUDES = ['/usr/share/doc/*', '/usr/share/man/*', '/usr/share/info/*', '/usr/share/locale/*']
  .map((path) => `path-exclude ${path}`)
  .concat('path-include /usr/share/locale/locale.alias')
  .join('\n');

export interface DebianRoot {
  dir: string;
  suite: string;
  mirror: string;
}

/** The root filesystem for a suite, made once per suite and mirror (a cold debootstrap takes a minute or two). */
export async function ensureDebianRoot(suite: string, log: (line: string) => void): Promise<DebianRoot> {
  const mirror = debianMirror(await aptSources()) ?? DEFAULT_MIRROR;
  const key = createHash('sha256').update(`${suite} ${mirror}`).digest('hex').slice(0, 12);
  const dir = join(imageCache, 'debian', `${suite}-${key}`);
  if (existsSync(join(dir, 'etc', 'debian_version'))) return { dir, suite, mirror };
  log(`making a Debian ${suite} root filesystem with debootstrap from ${mirror} (once per suite)`);
  const staging = `${dir}.tmp-${process.pid}`;
  await rm(staging, { recursive: true, force: true });
  await mkdir(staging, { recursive: true });
  const started = Date.now();
  const progress = setInterval(
    () => log(`  debootstrap still running, ${Math.round((Date.now() - started) / 1000)}s`),
    20_000,
  );
  try {
    await run('debootstrap', ['--variant=minbase', suite, staging, mirror], { maxBuffer: 64 * 1024 * 1024 });
    await run('bash', ['-O', 'extglob', '-c', `cd "$1" && rm -rf ${SLIM_AWAY.join(' ')}`, 'slim', staging]);
    await writeFile(join(staging, 'etc/dpkg/dpkg.cfg.d/slim'), `${DPKG_EXCLUDES}\n`);
    await rm(dir, { recursive: true, force: true });
    await rename(staging, dir);
  } finally {
    clearInterval(progress);
    await rm(staging, { recursive: true, force: true });
  }
  log(`Debian ${suite} root filesystem made in ${Math.round((Date.now() - started) / 1000)}s`);
  return { dir, suite, mirror };
}
