// CHANGELOG.md read as data: its version headings and the commit each released version was cut
// from. The upgrade test builds the newest released version from that commit, and a unit test
// holds the chart's and package.json's versions to the newest heading.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from './paths.js';

export interface ChangelogVersion {
  version: string;
  /** False for the `## Unreleased (X.Y.Z)` heading. */
  released: boolean;
  /** The full hash it was cut from; released versions only. */
  commit?: string;
}

const SEMVER = String.raw`\d+\.\d+\.\d+`;
const HEADING = new RegExp(String.raw`^## (?:Unreleased \((${SEMVER})\)|(${SEMVER}))\s*$`);
const CUT_FROM = /^Cut from commit: `([0-9a-f]{40})`\s*$/;

/** The versions the text lists, in its order (newest first); a released one without its commit throws. */
export function parseChangelog(text: string): ChangelogVersion[] {
  const versions: ChangelogVersion[] = [];
  for (const line of text.split('\n')) {
    const heading = HEADING.exec(line);
    if (heading !== null) {
      const unreleased = heading[1];
      versions.push({ version: unreleased ?? heading[2]!, released: unreleased === undefined });
      continue;
    }
    const cut = CUT_FROM.exec(line);
    const current = versions.at(-1);
    if (cut !== null && current !== undefined) current.commit = cut[1]!;
  }
  const missing = versions.filter((v) => v.released && v.commit === undefined).map((v) => v.version);
  if (missing.length > 0)
    throw new Error(`CHANGELOG.md: ${missing.join(', ')} lack a "Cut from commit: \`<hash>\`" line`);
  return versions;
}

export function readChangelog(file = join(repoRoot, 'CHANGELOG.md')): ChangelogVersion[] {
  return parseChangelog(readFileSync(file, 'utf8'));
}

/** The version the tree is becoming (or is): the first heading's. */
export function currentVersion(versions: readonly ChangelogVersion[]): string {
  const first = versions[0];
  if (first === undefined) throw new Error('CHANGELOG.md lists no version');
  return first.version;
}

/** The newest released version, the one an upgrade to this tree starts from. */
export function previousRelease(versions: readonly ChangelogVersion[]): Required<ChangelogVersion> {
  const found = versions.find((v) => v.released);
  if (found?.commit === undefined) throw new Error('CHANGELOG.md lists no released version');
  return { ...found, commit: found.commit };
}
