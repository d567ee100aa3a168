import { describe, expect, it } from 'vitest';
import { ignoredBy } from './build.js';
import { debianMirror } from './debian-root.js';
import { baseImageName, bundledVersions, parseNodeBase } from './node-base.js';

describe('debianMirror', () => {
  const deb822 = (uri: string, suites: string): string =>
    `Types: deb\nURIs: ${uri}\nSuites: ${suites}\nComponents: main\n`;

  it.each([
    {
      case: 'deb822, the security archive listed first',
      sources: [
        deb822('http://deb.debian.org/debian-security', 'bookworm-security'),
        deb822('http://deb.debian.org/debian', 'bookworm bookworm-updates'),
      ],
      mirror: 'http://deb.debian.org/debian',
    },
    {
      case: 'one-line form with options and a trailing slash',
      sources: ['# a comment\ndeb [arch=amd64] http://mirror.example/debian/ bookworm main\n'],
      mirror: 'http://mirror.example/debian',
    },
    {
      case: 'a third-party repository only',
      sources: ['deb https://packages.example/apt stable main\n'],
      mirror: undefined,
    },
  ])('$case', ({ sources, mirror }) => {
    expect(debianMirror(sources)).toBe(mirror);
  });
});

describe('parseNodeBase', () => {
  it('reads the Node.js version and suite of a slim node image, short or qualified', () => {
    expect(parseNodeBase('node:24.22.3-bookworm-slim')).toEqual({ node: '24.22.3', suite: 'bookworm' });
    expect(parseNodeBase('docker.io/library/node:22.1.0-trixie-slim')).toEqual({
      node: '22.1.0',
      suite: 'trixie',
    });
    expect(baseImageName({ node: '24.22.3', suite: 'bookworm' })).toBe(
      'docker.io/library/node:24.22.3-bookworm-slim',
    );
  });

  it.each(['node:24-bookworm-slim', 'node:24.22.3-bookworm', 'node:24.22.3-alpine', 'debian:bookworm-slim'])(
    'makes nothing of %s',
    (from) => {
      expect(parseNodeBase(from)).toBeUndefined();
    },
  );
});

describe('bundledVersions', () => {
  it('takes the newest npm and corepack upgrades, which a changelog lists first', () => {
    const changelog = [
      '## 24.2.0',
      '* **deps**: upgrade npm to 11.4.2 (npm team)',
      '* **deps**: update corepack to 0.33.0 (bot)',
      '## 24.1.0',
      '* **deps**: upgrade npm to 11.3.0 (npm team)',
      '* **deps**: update corepack to 0.32.0 (bot)',
    ].join('\n');
    expect(bundledVersions(changelog)).toEqual({ npm: '11.4.2', corepack: '0.33.0' });
  });

  it('refuses a changelog that names no npm', () => {
    expect(() => bundledVersions('* **deps**: update corepack to 0.33.0')).toThrow(/no npm/);
  });
});

describe('ignoredBy', () => {
  const ignored = ignoredBy(
    '# allow-list\n*\n!api\n!e2e\n**/*.test.ts\nharness/controlplane\nbench/results\n',
  );

  it.each([
    ['e2e/image.test.ts', true],
    ['harness/controlplane/go.mod', true],
    ['harness/controlplane', true],
    ['bench/results/x.json', true],
    ['harness/controlplane-notes.md', false],
    ['api/tenant.ts', false],
  ])('%s: %s', (path, expected) => {
    expect(ignored(path)).toBe(expected);
  });
});
