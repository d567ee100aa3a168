// Builds the pinned upstream control-plane binaries from harness/controlplane into the user cache,
// keyed by a hash of the pins, so a warm machine reuses them and a pin change rebuilds.
import { execFile, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { cacheRoot, controlPlaneModule } from './paths.js';

export const BINARIES = [
  'etcd',
  'kube-apiserver',
  'kube-controller-manager',
  'kube-scheduler',
  'kwok',
] as const;
export type BinaryName = (typeof BINARIES)[number];
export type BinaryPaths = Record<BinaryName | 'kwokStages', string>;

/** kwok v0.8 simulates nothing without Stage objects; these come from the pinned kwok module itself. */
const KWOK_STAGE_FILES = [
  'kustomize/stage/node/fast/node-initialize.yaml',
  'kustomize/stage/node/heartbeat-with-lease/node-heartbeat-with-lease.yaml',
  'kustomize/stage/pod/fast/pod-ready.yaml',
  'kustomize/stage/pod/fast/pod-complete.yaml',
  'kustomize/stage/pod/fast/pod-delete.yaml',
];

const run = promisify(execFile);

const PACKAGES = [
  'k8s.io/kubernetes/cmd/kube-apiserver',
  'k8s.io/kubernetes/cmd/kube-controller-manager',
  'k8s.io/kubernetes/cmd/kube-scheduler',
  'sigs.k8s.io/kwok/cmd/kwok',
  './cmd/etcd',
];

const PIN_FILES = ['go.mod', 'go.sum', 'cmd/etcd/main.go'];

/** The cache key of a Go module's build: its pin files, and the platform built for. */
export async function pinHash(module: string, files: readonly string[]): Promise<string> {
  const hash = createHash('sha256');
  for (const file of files) hash.update(await readFile(join(module, file)));
  hash.update(process.platform + process.arch);
  return hash.digest('hex').slice(0, 16);
}

function pathsIn(dir: string): BinaryPaths {
  const binaries = Object.fromEntries(BINARIES.map((b) => [b, join(dir, b)])) as Record<BinaryName, string>;
  return { ...binaries, kwokStages: join(dir, 'kwok-stages.yaml') };
}

/** Returns the binaries, building them first when the cache has none for these pins. */
export async function ensureBinaries(log: (line: string) => void = console.error): Promise<BinaryPaths> {
  const dir = join(cacheRoot, 'k8s', await pinHash(controlPlaneModule, PIN_FILES));
  const paths = pathsIn(dir);
  if (Object.values(paths).every((p) => existsSync(p))) return paths;
  log(`building the control plane (kube-apiserver, kube-controller-manager, kube-scheduler, etcd, kwok)`);
  log(`into ${dir}; a cold build takes 5-15 minutes on two cores and happens once per pin change`);
  const staging = `${dir}.tmp-${process.pid}`;
  await mkdir(staging, { recursive: true });
  try {
    await goBuild(
      { module: controlPlaneModule, packages: PACKAGES, outDir: staging, what: 'control plane' },
      log,
    );
    await writeKwokStages(join(staging, 'kwok-stages.yaml'));
    await rm(dir, { recursive: true, force: true });
    await rename(staging, dir);
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
  return paths;
}

async function writeKwokStages(file: string): Promise<void> {
  const { stdout } = await run('go', ['list', '-m', '-f', '{{.Dir}}', 'sigs.k8s.io/kwok'], {
    cwd: controlPlaneModule,
  });
  const kwokDir = stdout.trim();
  const docs = await Promise.all(KWOK_STAGE_FILES.map((f) => readFile(join(kwokDir, f), 'utf8')));
  await writeFile(file, docs.map((d) => d.trim()).join('\n---\n') + '\n');
}

export interface GoBuild {
  /** The Go module whose go.mod pins what is built. */
  module: string;
  packages: readonly string[];
  outDir: string;
  /** What the progress lines call it. */
  what: string;
  /** Extra `-X` settings for the linker (e.g. a version that only a release build would stamp). */
  linkerSettings?: readonly string[];
}

/** `go build` with a progress line every 20 s: a cold build is long, and silence looks like a hang. */
export function goBuild(build: GoBuild, log: (line: string) => void): Promise<void> {
  const { module, packages, outDir, what } = build;
  const started = Date.now();
  const ldflags = ['-s', '-w', ...(build.linkerSettings ?? []).map((s) => `-X ${s}`)].join(' ');
  const args = ['build', '-v', '-trimpath', `-ldflags=${ldflags}`, '-o', `${outDir}/`, ...packages];
  const child = spawn('go', args, { cwd: module, stdio: ['ignore', 'ignore', 'pipe'] });
  let compiled = 0;
  const tail: string[] = [];
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    const lines = chunk.split('\n').filter(Boolean);
    compiled += lines.length;
    tail.push(...lines);
    tail.splice(0, Math.max(0, tail.length - 30));
  });
  const progress = setInterval(() => {
    log(`  still building: ${compiled} packages compiled, ${Math.round((Date.now() - started) / 1000)}s`);
  }, 20_000);
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', (code) => {
      clearInterval(progress);
      if (code === 0) {
        log(`${what} built in ${Math.round((Date.now() - started) / 1000)}s`);
        resolve();
      } else reject(new Error(`go build failed (exit ${code}):\n${tail.join('\n')}`));
    });
  });
}
