// Builds the image from the Dockerfile as it stands, with buildah, after making any
// `node:<version>-<suite>-slim` base it names locally. The image is named landlord:<version> and
// labelled with a hash of everything the build reads, so an unchanged tree is not built twice.
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { copyFile, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { copies, parseDockerfile, type Stage } from '../dockerfile.js';
import { repoRoot } from '../paths.js';
import { buildah, buildahLogged, imageId, imageLabel, imageSize } from './buildah.js';
import { ensureNodeBase, parseNodeBase } from './node-base.js';

const CONTEXT_LABEL = 'dev.landlord.context';

export interface BuiltImage {
  name: string;
  id: string;
  size: string;
  /** False when storage already held the image of this very tree. */
  built: boolean;
}

/** The images the stages start from that are not stages of the same Dockerfile. */
function baseImages(stages: readonly Stage[]): string[] {
  const names = new Set(stages.map((s) => s.name).filter((n) => n !== undefined));
  return [...new Set(stages.map((s) => s.from).filter((from) => !names.has(from)))];
}

/** .dockerignore's exclusions, in the two forms it uses: `**\/*.ext` and a path. */
export function ignoredBy(dockerignore: string): (path: string) => boolean {
  const patterns = dockerignore
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && line !== '*' && !line.startsWith('#') && !line.startsWith('!'));
  return (path) =>
    patterns.some((p) =>
      p.startsWith('**/*') ? path.endsWith(p.slice('**/*'.length)) : path === p || path.startsWith(`${p}/`),
    );
}

/** A hash of what the build reads: the Dockerfile, the context it copies, and the base images' IDs. */
async function contextHash(stages: readonly Stage[], bases: readonly string[]): Promise<string> {
  const hash = createHash('sha256');
  const dockerignore = await readFile(join(repoRoot, '.dockerignore'), 'utf8');
  const ignored = ignoredBy(dockerignore);
  hash.update(await readFile(join(repoRoot, 'Dockerfile'))).update(dockerignore);
  for (const base of bases) hash.update(`${base}=${(await imageId(base)) ?? ''}`);
  const sources = stages.flatMap((s) =>
    copies(s)
      .filter((c) => c.from === undefined)
      .flatMap((c) => c.sources),
  );
  for (const source of [...new Set(sources)].sort()) {
    const entries = await readdir(join(repoRoot, source), { recursive: true, withFileTypes: true }).catch(
      () => undefined,
    );
    const files = entries?.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name)) ?? [
      join(repoRoot, source),
    ];
    for (const file of files.map((f) => relative(repoRoot, f)).sort()) {
      if (ignored(file)) continue;
      hash.update(file).update(await readFile(join(repoRoot, file)));
    }
  }
  return hash.digest('hex').slice(0, 16);
}

/**
 * When the host's Node.js trusts extra certificate authorities (a proxy that inspects TLS), the
 * build's npm must trust them too. They are mounted for the RUN steps only, over the base's empty
 * /usr/local/etc (npm's global config directory), so nothing of them lands in a layer.
 */
async function buildTrust(): Promise<{ args: string[]; cleanup: () => Promise<void> }> {
  const extra = process.env.NODE_EXTRA_CA_CERTS;
  if (extra === undefined || !existsSync(extra)) return { args: [], cleanup: () => Promise.resolve() };
  const dir = await mkdtemp(join(tmpdir(), 'landlord-build-trust-'));
  await copyFile(extra, join(dir, 'ca.crt'));
  await writeFile(join(dir, 'npmrc'), 'cafile=/usr/local/etc/ca.crt\n');
  return {
    args: ['--volume', `${dir}:/usr/local/etc:ro`],
    cleanup: () => rm(dir, { recursive: true, force: true }),
  };
}

async function makeBases(bases: readonly string[], log: (line: string) => void): Promise<void> {
  for (const base of bases) {
    const ref = parseNodeBase(base);
    if (ref === undefined)
      throw new Error(`the Dockerfile starts from ${base}, which this build cannot make`);
    await ensureNodeBase(ref, log);
  }
}

export interface BuildOptions {
  log?: (line: string) => void;
  /** Build even when storage holds an image of this tree. */
  force?: boolean;
}

/** The image of the working tree, built unless storage already has it. */
export async function ensureImage(options: BuildOptions = {}): Promise<BuiltImage> {
  const log = options.log ?? console.error;
  const packageJson = JSON.parse(await readFile(join(repoRoot, 'package.json'), 'utf8')) as {
    version: string;
  };
  const name = `localhost/landlord:${packageJson.version}`;
  const stages = parseDockerfile(await readFile(join(repoRoot, 'Dockerfile'), 'utf8'));
  const bases = baseImages(stages);
  await makeBases(bases, log);
  const hash = await contextHash(stages, bases);
  if (options.force !== true && (await imageLabel(name, CONTEXT_LABEL)) === hash)
    return { name, id: (await imageId(name))!, size: await imageSize(name), built: false };
  log(`building ${name} from the Dockerfile with buildah (tree ${hash})`);
  const trust = await buildTrust();
  try {
    await buildahLogged(
      [
        ...['bud', '--isolation', 'chroot', '--network', 'host', '--pull=never'],
        ...trust.args,
        ...['--label', `${CONTEXT_LABEL}=${hash}`, '--tag', name, '--file', 'Dockerfile', repoRoot],
      ],
      log,
    );
  } finally {
    await trust.cleanup();
  }
  // The image this one replaced is left nameless; vfs keeps every image whole, so it goes. One
  // still open in a working container stays, and the next build removes it.
  await buildah(['rmi', '--prune']).catch(() => undefined);
  return { name, id: (await imageId(name))!, size: await imageSize(name), built: true };
}
