// The versions a release carries agree with CHANGELOG.md: the chart's version and appVersion and
// package.json's version are the first heading's (the rule in the CHANGELOG's header), and the
// parser reads headings and commits as that header describes them.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { load } from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { currentVersion, parseChangelog, previousRelease, readChangelog } from './changelog.js';
import { repoRoot } from './paths.js';

const HASH = 'a'.repeat(40);

describe('parseChangelog', () => {
  it('reads the unreleased heading, then each release with its commit', () => {
    const text = [
      '# Changelog',
      '## Unreleased (1.3.0)',
      '- something',
      '## 1.2.0',
      `Cut from commit: \`${HASH}\``,
      '## 1.1.0',
      `Cut from commit: \`${'b'.repeat(40)}\``,
    ].join('\n');
    const versions = parseChangelog(text);
    expect(versions).toEqual([
      { version: '1.3.0', released: false },
      { version: '1.2.0', released: true, commit: HASH },
      { version: '1.1.0', released: true, commit: 'b'.repeat(40) },
    ]);
    expect(currentVersion(versions)).toBe('1.3.0');
    expect(previousRelease(versions)).toEqual({ version: '1.2.0', released: true, commit: HASH });
  });

  it('refuses a release without the commit it was cut from', () => {
    expect(() => parseChangelog('## 1.0.0\nno commit here\n')).toThrow(/1\.0\.0 lack/);
  });

  it('takes a release heading first as the current version', () => {
    const versions = parseChangelog(`## 2.0.0\nCut from commit: \`${HASH}\`\n`);
    expect(currentVersion(versions)).toBe('2.0.0');
    expect(previousRelease(versions).commit).toBe(HASH);
  });
});

describe('the versions of this tree', () => {
  const versions = readChangelog();
  const current = currentVersion(versions);

  it('has the chart at the CHANGELOG version, app and chart alike', () => {
    const chart = load(readFileSync(join(repoRoot, 'charts', 'landlord', 'Chart.yaml'), 'utf8')) as {
      version: string;
      appVersion: string;
    };
    expect({ version: chart.version, appVersion: String(chart.appVersion) }).toEqual({
      version: current,
      appVersion: current,
    });
  });

  it('has package.json at the CHANGELOG version', () => {
    const pkg = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { version: string };
    expect(pkg.version).toBe(current);
  });

  it('names a released version, older than the current one, to upgrade from', () => {
    const previous = previousRelease(versions);
    expect(previous.commit).toMatch(/^[0-9a-f]{40}$/);
    if (versions[0]!.released) return;
    const order = (v: string): number[] => v.split('.').map(Number);
    const [a, b] = [order(previous.version), order(current)];
    const older = a.findIndex((n, i) => n !== b[i]!);
    expect(older).toBeGreaterThanOrEqual(0);
    expect(a[older]!).toBeLessThan(b[older]!);
  });
});
