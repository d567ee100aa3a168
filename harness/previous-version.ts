// The newest released version (CHANGELOG.md), built from its commit into the user cache, so the
// upgrade test (e2e/upgrade.test.ts) can run its CLI beside this tree's. The commit's tree comes
// from git itself (git archive), its packages from the npm cache, and the build is kept per
// commit: a warm run finds it and builds nothing. `npm run e2e:install` builds it ahead.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { previousRelease, readChangelog } from './changelog.js';
import { cacheRoot, repoRoot } from './paths.js';

export interface PreviousVersion {
  version: string;
  commit: string;
  /** The command that runs its CLI: node and its dist/cli/main.js. */
  cli: string[];
}

/** Written last: a directory without it is a build that did not finish. */
const BUILT_MARK = '.landlord-built';

type Say = (line: string) => void;

interface Run {
  code: number;
  output: string;
}

/** Runs a command; its output is kept for the error, never streamed (npm is chatty). */
function run(
  command: string,
  args: readonly string[],
  cwd: string,
  stdin?: NodeJS.ReadableStream,
): Promise<Run> {
  return new Promise((resolve, reject) => {
    // npm and tsc run under the Node running this file, whichever Node the shell would pick.
    const path = `${dirname(process.execPath)}:${process.env.PATH ?? ''}`;
    const child = spawn(command, args, {
      cwd,
      env: { ...process.env, PATH: path },
      stdio: [stdin === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    });
    if (stdin !== undefined && child.stdin !== null) stdin.pipe(child.stdin);
    let output = '';
    const keep = (chunk: Buffer): void => {
      output = (output + chunk.toString('utf8')).slice(-8_000);
    };
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code: code ?? 1, output }));
  });
}

async function mustRun(command: string, args: readonly string[], cwd: string): Promise<void> {
  const result = await run(command, args, cwd);
  if (result.code !== 0)
    throw new Error(`${command} ${args.join(' ')} failed (exit ${result.code}) in ${cwd}:\n${result.output}`);
}

/** Fails with what to do when the clone lacks the commit (a shallow clone, most often). */
async function assertCommitPresent(version: string, commit: string): Promise<void> {
  const found = await run('git', ['-C', repoRoot, 'cat-file', '-e', `${commit}^{commit}`], repoRoot);
  if (found.code === 0) return;
  const shallow = await run('git', ['-C', repoRoot, 'rev-parse', '--is-shallow-repository'], repoRoot);
  const why = shallow.output.trim() === 'true' ? 'this is a shallow clone' : 'it is not in this clone';
  throw new Error(
    `the upgrade test needs commit ${commit}, which CHANGELOG.md says ${version} was cut from, but ${why}. ` +
      'Clone main with its full history (git fetch --unshallow, or fetch-depth: 0 in CI).',
  );
}

/** The commit's tree, as git holds it, unpacked into `dir`. */
async function exportTree(commit: string, dir: string): Promise<void> {
  const archive = spawn('git', ['-C', repoRoot, 'archive', '--format=tar', commit], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const archived = new Promise<number>((resolve) => archive.once('exit', (code) => resolve(code ?? 1)));
  const untar = await run('tar', ['-x', '-f', '-', '-C', dir], dir, archive.stdout);
  if ((await archived) !== 0 || untar.code !== 0)
    throw new Error(`git archive ${commit} | tar -x failed: ${untar.output}`);
}

/** npm ci from the warm cache; online only when the cache lacks something. */
async function installPackages(dir: string, say: Say): Promise<void> {
  const flags = ['ci', '--no-audit', '--no-fund'];
  const offline = await run('npm', [...flags, '--offline'], dir);
  if (offline.code === 0) return;
  say('npm ci --offline could not install everything from the cache; trying online');
  await mustRun('npm', flags, dir);
}

async function build(version: string, commit: string, dir: string, say: Say): Promise<void> {
  const started = Date.now();
  const elapsed = (): string => `${Math.round((Date.now() - started) / 1000)}s`;
  const work = `${dir}.partial-${process.pid}`;
  await rm(work, { recursive: true, force: true });
  await mkdir(work, { recursive: true });
  say(`building landlord ${version} (${commit.slice(0, 12)}) into ${dir}: git archive`);
  await exportTree(commit, work);
  say(`landlord ${version}: npm ci (${elapsed()})`);
  await installPackages(work, say);
  say(`landlord ${version}: tsc -p tsconfig.build.json (${elapsed()})`);
  await mustRun(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.build.json'], work);
  await writeFile(join(work, BUILT_MARK), `${version} ${commit}\n`);
  // Another run may have finished the same build meanwhile: its copy is as good as this one.
  if (existsSync(join(dir, BUILT_MARK))) await rm(work, { recursive: true, force: true });
  else {
    await rm(dir, { recursive: true, force: true });
    await rename(work, dir);
  }
  say(`landlord ${version}: built in ${elapsed()}`);
}

/**
 * The newest released version, built (from the cache when a run already built it). Throws with a
 * clear message when the clone lacks its commit.
 */
export async function previousVersion(say: Say = console.log): Promise<PreviousVersion> {
  const { version, commit } = previousRelease(readChangelog());
  const dir = join(cacheRoot, 'previous', commit);
  if (existsSync(join(dir, BUILT_MARK)))
    say(`landlord ${version} (${commit.slice(0, 12)}): built, in ${dir}`);
  else {
    await assertCommitPresent(version, commit);
    await build(version, commit, dir, say);
  }
  return { version, commit, cli: [process.execPath, join(dir, 'dist', 'cli', 'main.js')] };
}
