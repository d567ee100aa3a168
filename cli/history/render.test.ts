import { describe, expect, it } from 'vitest';
import { historyJson, historyText, revisionText } from './render.js';

type Revision = Parameters<typeof historyText>[0][number];

const revision = (
  n: number,
  image: string,
  extra: Partial<Revision> & { changedBy?: string } = {},
): Revision => {
  const { changedBy, ...rest } = extra;
  return {
    revision: n,
    source: 'stream',
    hash: `h${n}`,
    appliedAt: `2026-12-03T10:0${n}:00.123Z`,
    row: {
      name: 'acme',
      spec: {
        deployment: {
          apiVersion: 'apps/v1',
          kind: 'Deployment',
          metadata: { name: 'web' },
          spec: {
            selector: {},
            template: { spec: { containers: [{ name: 'app', image }] } },
          },
        },
        configMaps: [],
        state: 'active',
      },
      ...(changedBy === undefined ? {} : { changedBy }),
    },
    ...rest,
  };
};

const REVISIONS = [
  revision(2, 'nginx:1.27', { source: 'scan' }),
  revision(3, 'nginx:1.28', { changedBy: 'alice' }),
  revision(4, 'nginx:1.27', { source: 'rollback', changedBy: 'landlord rollback' }),
];

describe('historyText', () => {
  it('lists the revisions newest last, in aligned columns, each summarised against the one before', () => {
    expect(historyText(REVISIONS).split('\n')).toEqual([
      'REVISION  APPLIED               SOURCE    CHANGED BY         CHANGE',
      '2         2026-12-03T10:02:00Z  scan      -                  first revision kept: image nginx:1.27',
      '3         2026-12-03T10:03:00Z  stream    alice              image nginx:1.27 → nginx:1.28',
      '4         2026-12-03T10:04:00Z  rollback  landlord rollback  image nginx:1.28 → nginx:1.27',
      '',
    ]);
  });

  it('gives scripts the same, with each summary', () => {
    const json = JSON.parse(historyJson('acme', 'landlord-system', REVISIONS)) as {
      revisions: { revision: number; summary: string }[];
    };
    expect(json.revisions.map((r) => [r.revision, r.summary])).toEqual([
      [2, 'first revision kept: image nginx:1.27'],
      [3, 'image nginx:1.27 → nginx:1.28'],
      [4, 'image nginx:1.28 → nginx:1.27'],
    ]);
  });
});

describe('revisionText', () => {
  it("shows one revision's changes against the revision before it", () => {
    expect(revisionText(REVISIONS, REVISIONS[1]!)).toBe(
      [
        'revision 3 (stream, applied 2026-12-03T10:03:00Z, by alice)',
        'changes against revision 2:',
        '  deployment.spec.template.spec.containers[0].image: "nginx:1.27" → "nginx:1.28"',
        '',
      ].join('\n'),
    );
  });
});
