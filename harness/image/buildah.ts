// buildah builds and runs OCI images without a daemon. Its storage lives in the landlord cache, on
// the vfs driver (plain directories: no overlay mounts, which a container host may refuse), and
// every step runs with chroot isolation on the host's network.
import { execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { cacheRoot } from '../paths.js';

const run = promisify(execFile);

export const imageCache = join(cacheRoot, 'image');

const STORAGE = [
  '--root',
  join(imageCache, 'storage'),
  '--runroot',
  join(imageCache, 'run'),
  '--storage-driver',
  'vfs',
];

/** The arguments of a buildah command on this storage, for a caller that spawns it itself. */
export const buildahArgs = (args: readonly string[]): string[] => [...STORAGE, ...args];

/** A buildah command; its standard output, trimmed. */
export async function buildah(args: readonly string[]): Promise<string> {
  const { stdout } = await run('buildah', [...STORAGE, ...args], { maxBuffer: 64 * 1024 * 1024 });
  return stdout.trim();
}

/**
 * A long buildah command, its output passed to `log` line by line (a build prints each step), and
 * kept to explain a failure.
 */
export function buildahLogged(args: readonly string[], log: (line: string) => void): Promise<void> {
  const child = spawn('buildah', [...STORAGE, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  const tail: string[] = [];
  const onData = (chunk: Buffer): void => {
    for (const line of chunk.toString().split('\n').filter(Boolean)) {
      log(`  ${line}`);
      tail.push(line);
    }
    tail.splice(0, Math.max(0, tail.length - 40));
  };
  child.stdout.on('data', onData);
  child.stderr.on('data', onData);
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0
        ? resolve()
        : reject(new Error(`buildah ${args[0]} failed (exit ${code}):\n${tail.join('\n')}`)),
    );
  });
}

/** The image's ID, or undefined when the storage has no image of that name. */
export async function imageId(name: string): Promise<string | undefined> {
  try {
    return await buildah(['inspect', '--type', 'image', '--format', '{{.FromImageID}}', name]);
  } catch {
    return undefined;
  }
}

/** One label of a stored image ('' when the image lacks it). */
export async function imageLabel(name: string, label: string): Promise<string | undefined> {
  if ((await imageId(name)) === undefined) return undefined;
  return buildah([
    'inspect',
    '--type',
    'image',
    '--format',
    `{{index .OCIv1.Config.Labels "${label}"}}`,
    name,
  ]);
}

/** The image's size as buildah reports it (e.g. "390 MB"). */
export async function imageSize(name: string): Promise<string> {
  const images = JSON.parse(await buildah(['images', '--json', name])) as { size: string }[];
  return images[0]?.size ?? 'unknown';
}

/** The Debian packages an image build needs on the host: buildah itself, and debootstrap for the base. */
const HOST_PACKAGES = { buildah: '/usr/bin/buildah', debootstrap: '/usr/sbin/debootstrap' };

/** Installs buildah and debootstrap with apt when missing (root, as CI and this machine run). */
export async function ensureHostPackages(log: (line: string) => void): Promise<void> {
  const missing = Object.entries(HOST_PACKAGES)
    .filter(([, path]) => !existsSync(path))
    .map(([name]) => name);
  if (missing.length === 0) return;
  log(`installing ${missing.join(' and ')} with apt-get`);
  await run('apt-get', ['update', '-qq']);
  await run('apt-get', ['install', '-y', '-qq', ...missing], {
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
}
