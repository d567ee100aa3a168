// The image without a Docker engine: what the Dockerfile says (stages, user, entrypoint), and its
// final stage's files assembled in a temporary root, exactly as `docker build` would lay them out,
// to run the CLI from them as the image's user.
import { execFile, spawn, type ChildProcessByStdio } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { chmod, copyFile, cp, mkdir, mkdtemp, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join, relative, resolve } from 'node:path';
import type { Readable } from 'node:stream';
import { promisify } from 'node:util';
import { repoRoot } from '../../harness/paths.js';
import {
  copies,
  envOf,
  instructions,
  parseDockerfile,
  workdir,
  type Copy,
  type Stage,
} from '../../harness/dockerfile.js';
import { kubeConfig } from './env.js';

const run = promisify(execFile);
const repoFile = (path: string): string => readFileSync(join(repoRoot, path), 'utf8');

export const stages = parseDockerfile(repoFile('Dockerfile'));
/** The stage that becomes the image. */
export const final = stages.at(-1)!;
export const stageNamed = (name: string | undefined): Stage | undefined =>
  stages.find((s) => s.name === name);
export const entrypoint = (): string[] =>
  JSON.parse(instructions(final, 'ENTRYPOINT').at(-1) ?? '[]') as string[];
export const imageUser = (): string => instructions(final, 'USER').at(-1) ?? 'root';
export const installsProductionOnly = (stage: Stage | undefined): boolean =>
  stage !== undefined && instructions(stage, 'RUN').some((r) => /\bnpm ci\b.*--omit=dev/.test(r));

/** The final stage's files, assembled in a temporary root the way `docker build` would lay them out. */
export interface AssembledImage {
  root: string;
  /** The final stage's WORKDIR inside root. */
  app: string;
  node: string;
}

/** What `npm ci --omit=dev` lays out from the lockfile: every package not marked dev, at its path. */
async function installProduction(target: string): Promise<void> {
  const lock = JSON.parse(repoFile('package-lock.json')) as {
    packages: Record<string, { dev?: boolean; optional?: boolean }>;
  };
  for (const [path, entry] of Object.entries(lock.packages)) {
    if (path === '' || entry.dev === true) continue;
    const source = join(repoRoot, path);
    if (!existsSync(source)) {
      if (entry.optional === true) continue; // an optional package for another platform
      throw new Error(`${path} is a production dependency but is not installed; run npm ci`);
    }
    const nested = join(source, 'node_modules');
    await cp(source, join(target, relative('node_modules', path)), {
      recursive: true,
      filter: (file) => file !== nested && !file.startsWith(`${nested}/`),
    });
  }
}

async function placeCopy(copy: Copy, app: string): Promise<void> {
  const target = resolve(app, copy.destination);
  for (const source of copy.sources) {
    if (copy.from !== undefined && installsProductionOnly(stageNamed(copy.from))) {
      await installProduction(target);
      continue;
    }
    const stage = copy.from === undefined ? undefined : stageNamed(copy.from);
    if (copy.from !== undefined && stage === undefined) throw new Error(`unknown stage ${copy.from}`);
    const from = join(repoRoot, stage === undefined ? source : relative(workdir(stage), source));
    const intoDirectory = copy.destination.endsWith('/') && !(await stat(from)).isDirectory();
    await cp(from, intoDirectory ? join(target, basename(from)) : target, { recursive: true });
  }
}

export async function assembleImage(): Promise<AssembledImage> {
  const root = await mkdtemp(join(tmpdir(), 'landlord-image-'));
  await chmod(root, 0o755);
  const app = join(root, workdir(final));
  await mkdir(app, { recursive: true });
  for (const copy of copies(final)) await placeCopy(copy, app);
  // The base image's node: the same release as the one running this test.
  const node = join(root, 'usr/local/bin/node');
  await mkdir(dirname(node), { recursive: true });
  await copyFile(process.execPath, node);
  return { root, app, node };
}

/** As root, run as the image's user (who owns none of the files); otherwise, as oneself with the files read-only. */
export function imageIdentity(): { uid?: number; gid?: number } {
  if (process.getuid?.() !== 0) return {};
  const [uid = '', gid = uid] = imageUser().split(':');
  return { uid: Number(uid), gid: Number(gid) };
}

/** Files the image's user left where anyone may write (its own files are read-only to it). */
export async function scratchFilesOf(uid: number | undefined): Promise<string[]> {
  if (uid === undefined) return [];
  const dirs = ['/tmp', '/var/tmp', '/dev/shm'].filter((dir) => existsSync(dir));
  const { stdout } = await run('find', [...dirs, '-xdev', '-user', String(uid)]);
  return stdout.split('\n').filter((line) => line !== '');
}

function imageEnv(extra: Record<string, string>): Record<string, string> {
  // Nowhere to write: no home, no temporary directory.
  return {
    ...envOf(final),
    PATH: '/usr/local/bin:/usr/bin:/bin',
    HOME: '/nonexistent',
    TMPDIR: '/nonexistent',
    ...extra,
  };
}

export function startImage(
  image: AssembledImage,
  args: string[],
  env: Record<string, string> = {},
): ChildProcessByStdio<null, Readable, Readable> {
  const [, ...script] = entrypoint();
  return spawn(image.node, [...script, ...args], {
    cwd: image.app,
    env: imageEnv(env),
    stdio: ['ignore', 'pipe', 'pipe'],
    ...imageIdentity(),
  });
}

export async function runImage(
  image: AssembledImage,
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = startImage(image, args, env);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const code = await new Promise<number | null>((done) => child.once('close', done));
  return { code, stdout, stderr };
}

/** A kubeconfig the image's user can read, with the CA inline (the run directory is private). */
export async function writeImageKubeconfig(image: AssembledImage): Promise<string> {
  const path = join(image.root, 'etc/landlord/kubeconfig');
  await writeInlineKubeconfig(path);
  return path;
}

/** This file's admin kubeconfig as one self-contained file (CA inline), readable by anyone. */
export async function writeInlineKubeconfig(path: string): Promise<void> {
  const admin = kubeConfig();
  const cluster = admin.getCurrentCluster()!;
  const ca = readFileSync(cluster.caFile!).toString('base64');
  const config = {
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: 'e2e', cluster: { server: cluster.server, 'certificate-authority-data': ca } }],
    users: [{ name: 'admin', user: { token: admin.getCurrentUser()!.token } }],
    contexts: [{ name: 'e2e', context: { cluster: 'e2e', user: 'admin' } }],
    'current-context': 'e2e',
  };
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, JSON.stringify(config), { mode: 0o644 });
}

/** A JSON log line of the component, or the raw text of anything else it printed. */
export function parseLogLine(line: string): Record<string, unknown> {
  try {
    return JSON.parse(line) as Record<string, unknown>;
  } catch {
    return { msg: line, level: 'raw' };
  }
}
