// Which objects a fault took away: the uids of the Tenants and their children before, compared with
// the cluster after. An object deleted or replaced (a new uid) while still wanted is a loss.
import type { Expectation } from './converged.js';
import { keyOf, listChildren, listTenants } from './observe.js';

export interface Snapshot {
  /** kind/namespace/name → uid, for Tenants and their children. */
  uids: Map<string, string>;
}

/** The uids of the Tenants matching the selector and of the children in the namespaces. */
export async function snapshot(expectation: Pick<Expectation, 'selector' | 'namespaces'>): Promise<Snapshot> {
  const uids = new Map<string, string>();
  for (const tenant of await listTenants(expectation.selector))
    uids.set(`Tenant//${tenant.metadata.name}`, tenant.metadata.uid!);
  for (const child of await listChildren(expectation.namespaces))
    uids.set(keyOf(child), child.metadata!.uid!);
  return { uids };
}

/**
 * The objects of `before` that were deleted or replaced since (a new uid), ignoring the keys
 * `allowed` says a test removed on purpose. A fault must never delete what is still wanted.
 */
export async function lostSince(
  before: Snapshot,
  expectation: Pick<Expectation, 'selector' | 'namespaces'>,
  allowed: (key: string) => boolean = () => false,
): Promise<string[]> {
  const now = await snapshot(expectation);
  const lost: string[] = [];
  for (const [key, uid] of before.uids) {
    if (allowed(key)) continue;
    const current = now.uids.get(key);
    if (current === undefined) lost.push(`${key} was deleted`);
    else if (current !== uid) lost.push(`${key} was replaced`);
  }
  return lost;
}

/** The key `snapshot` uses for a Tenant, for `allowed` filters. */
export const tenantKey = (name: string): string => `Tenant//${name}`;

/** For lostSince: the keys of these Tenants and of their children, named `<tenant>-…` in these tests. */
export function ofTenants(names: Iterable<string>): (key: string) => boolean {
  const list = [...names];
  return (key) => list.some((name) => key === tenantKey(name) || key.includes(`/${name}-`));
}
