// `landlord history`'s output: a table for people, newest last, and JSON for scripts; one
// revision's diff against the revision kept before it.
import type { Revision } from '../../api/revision.js';
import { specDiff, summarize } from './changes.js';

const HEADINGS = ['REVISION', 'APPLIED', 'SOURCE', 'CHANGED BY', 'CHANGE'] as const;

/** RFC 3339 to the second: the milliseconds say nothing to a person reading history. */
const applied = (revision: Revision): string => revision.appliedAt.replace(/\.\d+Z$/, 'Z');

/** Each revision's one-line summary against the one kept before it. */
function summaries(revisions: readonly Revision[]): string[] {
  return revisions.map((r, i) => summarize(revisions[i - 1]?.row.spec, r.row.spec));
}

function change(revision: Revision, summary: string): string {
  const reason = revision.row.changeReason;
  return reason === undefined ? summary : `${summary} (${JSON.stringify(reason)})`;
}

export function historyText(revisions: readonly Revision[]): string {
  const described = summaries(revisions);
  const rows = revisions.map((r, i) => [
    String(r.revision),
    applied(r),
    r.source,
    r.row.changedBy ?? '-',
    change(r, described[i]!),
  ]);
  const widths = HEADINGS.map((h, col) => Math.max(h.length, ...rows.map((row) => row[col]!.length)));
  const line = (cells: readonly string[]): string =>
    cells
      .map((cell, col) => (col === cells.length - 1 ? cell : cell.padEnd(widths[col]!)))
      .join('  ')
      .trimEnd();
  return [line(HEADINGS), ...rows.map(line)].join('\n') + '\n';
}

export function historyJson(tenant: string, namespace: string, revisions: readonly Revision[]): string {
  const described = summaries(revisions);
  const entries = revisions.map((r, i) => ({ ...r, summary: described[i] }));
  return `${JSON.stringify({ tenant, namespace, revisions: entries }, null, 2)}\n`;
}

/** The revision kept before `revision`, if any. */
function previous(revisions: readonly Revision[], revision: Revision): Revision | undefined {
  return revisions.filter((r) => r.revision < revision.revision).at(-1);
}

/** One revision: who, when, how, and every field it changed from the revision before it. */
export function revisionText(revisions: readonly Revision[], revision: Revision): string {
  const before = previous(revisions, revision);
  const against = before === undefined ? 'no earlier revision kept' : `revision ${before.revision}`;
  const head = [
    `revision ${revision.revision} (${revision.source}, applied ${applied(revision)}` +
      `${revision.row.changedBy === undefined ? '' : `, by ${revision.row.changedBy}`})`,
    ...(revision.row.changeReason === undefined ? [] : [`reason: ${revision.row.changeReason}`]),
    `changes against ${against}:`,
  ];
  const changes = specDiff(before?.row.spec, revision.row.spec);
  const body = changes.length === 0 ? ['  (none)'] : changes.map((c) => `  ${c}`);
  return [...head, ...body].join('\n') + '\n';
}

export function revisionJson(revisions: readonly Revision[], revision: Revision): string {
  const before = previous(revisions, revision);
  const changes = specDiff(before?.row.spec, revision.row.spec);
  return `${JSON.stringify({ ...revision, against: before?.revision ?? null, changes }, null, 2)}\n`;
}
