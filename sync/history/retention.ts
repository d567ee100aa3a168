// Which revisions a tenant keeps: the newest `limit`, by revision number; the others go, oldest first.

/** The revision numbers to delete so that `limit` remain, oldest first. */
export function revisionsToPrune(revisions: readonly number[], limit: number): number[] {
  const oldestFirst = [...new Set(revisions)].sort((a, b) => a - b);
  return oldestFirst.slice(0, Math.max(0, oldestFirst.length - limit));
}

/** The number the next revision takes: one past the highest ever kept, so numbers never repeat. */
export function nextRevision(revisions: readonly number[]): number {
  return revisions.reduce((highest, revision) => Math.max(highest, revision), 0) + 1;
}
