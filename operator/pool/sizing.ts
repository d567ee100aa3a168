// The pool arithmetic of one class, pure: from its members now and its spec, which members to
// remove, how many to make, and which to complete. The controller (controller.ts) carries it out,
// at a bounded rate.
import type { Member } from './members.js';

export interface PoolTarget {
  /** Members to keep: 0 when the class has no pool (or is not PerTenant, or its template is refused). */
  size: number;
  maxUnavailable: number;
  /** The hash of what a member holds now (member-objects.ts). */
  hash: string;
}

export interface PoolSizing {
  /** Unclaimed members to delete (each on the condition that nobody claimed it meanwhile). */
  remove: Member[];
  /** New members to make. */
  create: number;
}

/** Not Ready first: the member that costs least to lose. Then the newest, to keep the warmest. */
function cheapestFirst(a: Member, b: Member): number {
  if (a.ready !== b.ready) return a.ready ? 1 : -1;
  return b.created - a.created;
}

/**
 * Keeps `size` members Ready or starting. Too many: the stale ones go first, then the cheapest.
 * Stale ones (made from an older spec) are replaced at most `maxUnavailable` at a time, counting
 * the current ones still starting, so a class edit never empties the pool.
 */
export function sizePool(target: PoolTarget, members: readonly Member[]): PoolSizing {
  const live = members.filter((m) => !m.deleting);
  const stale = live.filter((m) => m.hash !== target.hash).sort(cheapestFirst);
  const current = live.filter((m) => m.hash === target.hash).sort(cheapestFirst);
  const remove: Member[] = [];
  let excess = live.length - target.size;
  while (excess > 0 && stale.length > 0) {
    remove.push(stale.shift()!);
    excess--;
  }
  while (excess > 0 && current.length > 0) {
    remove.push(current.shift()!);
    excess--;
  }
  const starting = current.filter((m) => !m.ready).length;
  const unavailable = starting + stale.filter((m) => !m.ready).length;
  let budget = Math.max(0, target.maxUnavailable - unavailable);
  // A stale member that is not Ready is no use to a claim: it goes whatever the budget.
  while (stale.length > 0 && (!stale[0]!.ready || budget > 0)) {
    const next = stale.shift()!;
    if (next.ready) budget--;
    remove.push(next);
  }
  const kept = current.length + stale.length;
  return { remove, create: Math.max(0, target.size - kept) };
}

/** A member without its Deployment this long after it was made was left half-made: completed again. */
export const HALF_MADE_MS = 10_000;

/**
 * Members of the current spec without their Deployment, to complete: one whose Deployment waits for
 * its quota (`waiting`), and one a crash left half-made, HALF_MADE_MS after it was made (so a
 * member being made now is not made twice).
 */
export function unfinished(
  members: readonly Member[],
  hash: string,
  now: number,
  waiting: (name: string) => boolean,
): Member[] {
  return members.filter(
    (m) =>
      !m.hasDeployment &&
      !m.deleting &&
      m.hash === hash &&
      (waiting(m.name) || now - m.created > HALF_MADE_MS),
  );
}
