// Install-time check: no package in the runtime dependency tree (npm ls --omit=dev --all) is
// deprecated on the registry unless e2e/testdata/deprecated-allowlist.json says why that is
// acceptable. Deprecation notices live only in registry metadata, so this needs the network and
// runs at install time (CI: after npm ci), never inside the tests, which are loopback-only.
//
//   scripts/node24 dist/e2e/support/check-deprecated.js [--packages name@version,...]
//
// Exit 0: nothing deprecated without a reason. Exit 1: the list of offenders. Exit 2: the check
// itself could not run (npm failed, the registry did not answer): a check that cannot see must not pass.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { repoRoot } from '../../harness/paths.js';

const run = promisify(execFile);
const ALLOWLIST = join(repoRoot, 'e2e', 'testdata', 'deprecated-allowlist.json');
const CONCURRENCY = 8;
/** Deprecated on the npm registry since 2020: a registry that does not say so cannot be trusted here. */
const CANARY: Installed = { name: 'request', version: '2.88.2', via: ['canary'] };

interface LsNode {
  version?: string;
  dependencies?: Record<string, LsNode>;
}

/** One package version of the tree, with one chain of packages that brings it in. */
export interface Installed {
  name: string;
  version: string;
  via: string[];
}

export interface Finding extends Installed {
  message: string;
  reason: string | undefined;
}

/** Every name@version in `npm ls --json` output, once, with the first path that reaches it. */
export function installedPackages(tree: LsNode): Installed[] {
  const found = new Map<string, Installed>();
  const walk = (deps: Record<string, LsNode> | undefined, via: string[]): void => {
    for (const [name, node] of Object.entries(deps ?? {})) {
      if (node.version === undefined) continue;
      const key = `${name}@${node.version}`;
      if (found.has(key)) continue;
      found.set(key, { name, version: node.version, via });
      walk(node.dependencies, [...via, key]);
    }
  };
  walk(tree.dependencies, []);
  return [...found.values()].sort((a, b) => a.name.localeCompare(b.name));
}

/** The allow-list: package name (or name@version) → why it is acceptable. Keys starting with $ are comments. */
export function readAllowlist(text: string): Map<string, string> {
  const parsed = JSON.parse(text) as Record<string, unknown>;
  const entries = Object.entries(parsed).filter(([key]) => !key.startsWith('$'));
  for (const [key, why] of entries) {
    if (typeof why !== 'string' || why.trim() === '')
      throw new Error(`${ALLOWLIST}: ${key} needs a written reason`);
  }
  return new Map(entries as [string, string][]);
}

/** The registry's deprecation message for one version, or undefined when it is not deprecated. */
async function deprecation(pkg: Installed): Promise<string | undefined> {
  const { stdout } = await run('npm', ['view', `${pkg.name}@${pkg.version}`, 'deprecated', '--json'], {
    cwd: repoRoot,
    maxBuffer: 4 * 1024 * 1024,
  });
  const text = stdout.trim();
  if (text === '') return undefined;
  const value = JSON.parse(text) as unknown;
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** Runs `work` over the items, at most `limit` at once, keeping their order. */
async function mapLimited<T, R>(
  items: readonly T[],
  limit: number,
  work: (item: T) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    for (let i = next++; i < items.length; i = next++) results[i] = await work(items[i]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

export async function findDeprecated(
  packages: readonly Installed[],
  allow: Map<string, string>,
): Promise<Finding[]> {
  const messages = await mapLimited(packages, CONCURRENCY, deprecation);
  return packages.flatMap((pkg, i) => {
    const message = messages[i];
    if (message === undefined) return [];
    const reason = allow.get(`${pkg.name}@${pkg.version}`) ?? allow.get(pkg.name);
    return [{ ...pkg, message, reason }];
  });
}

export function report(findings: readonly Finding[], checked: number, allow: Map<string, string>): string {
  const lines = [`checked ${checked} runtime packages (npm ls --omit=dev --all) for registry deprecations`];
  const describe = (f: Finding): string =>
    `  ${f.name}@${f.version} (via ${f.via.join(' > ') || 'package.json'}): ${f.message.replace(/\s+/g, ' ')}`;
  const offenders = findings.filter((f) => f.reason === undefined);
  const allowed = findings.filter((f) => f.reason !== undefined);
  if (allowed.length > 0)
    lines.push(
      'deprecated, with a written reason:',
      ...allowed.map((f) => `${describe(f)}\n    reason: ${f.reason}`),
    );
  if (offenders.length > 0)
    lines.push(
      `deprecated WITHOUT a reason (${offenders.length}); replace them, or say in ${ALLOWLIST} why they are acceptable:`,
      ...offenders.map(describe),
    );
  const used = new Set(findings.flatMap((f) => [f.name, `${f.name}@${f.version}`]));
  const stale = [...allow.keys()].filter((key) => !used.has(key));
  if (stale.length > 0) lines.push(`allow-list entries no longer needed: ${stale.join(', ')}`);
  if (findings.length === 0) lines.push('none is deprecated');
  return lines.join('\n');
}

async function packagesToCheck(argv: readonly string[]): Promise<Installed[]> {
  const flag = argv.indexOf('--packages');
  if (flag >= 0) {
    return (argv[flag + 1] ?? '')
      .split(',')
      .filter(Boolean)
      .map((spec) => {
        const at = spec.lastIndexOf('@');
        return { name: spec.slice(0, at), version: spec.slice(at + 1), via: ['--packages'] };
      });
  }
  const { stdout } = await run('npm', ['ls', '--omit=dev', '--all', '--json'], {
    cwd: repoRoot,
    maxBuffer: 64 * 1024 * 1024,
  });
  return installedPackages(JSON.parse(stdout) as LsNode);
}

async function main(argv: readonly string[]): Promise<number> {
  const allow = readAllowlist(readFileSync(ALLOWLIST, 'utf8'));
  // Some mirrors drop deprecation notices from their metadata; then every package would look fine.
  if ((await deprecation(CANARY)) === undefined)
    throw new Error(
      `the registry does not report ${CANARY.name}@${CANARY.version} as deprecated, so it cannot report any`,
    );
  const packages = await packagesToCheck(argv);
  const findings = await findDeprecated(packages, allow);
  console.log(report(findings, packages.length, allow));
  return findings.some((f) => f.reason === undefined) ? 1 : 0;
}

if (process.argv[1]?.endsWith('check-deprecated.js')) {
  main(process.argv.slice(2)).then(
    (code) => (process.exitCode = code),
    (err: unknown) => {
      console.error(`check-deprecated: could not check: ${err instanceof Error ? err.message : String(err)}`);
      process.exitCode = 2;
    },
  );
}
