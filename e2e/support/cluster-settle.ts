// The API server's request counters have no client label, so a test that counts "no write" reads
// a window of the whole control plane. Control planes pass from file to file (harness/e2e-slots.ts),
// and the namespaces an earlier file deleted keep the namespace controller and the root-CA
// publisher writing (ConfigMaps deleted and posted again, Deployments deleted) for up to half a
// minute, with gaps of more than the few quiet seconds a window waits for. Seen in
// e2e/plan.test.ts: 3 ConfigMap DELETEs and POSTs and 4 Deployment DELETEs in a plan that wrote
// nothing. So such a window starts only once nothing is being deleted.
import {
  settledRequestCounts,
  type ApiServerAccess,
  type SettledCounts,
} from '../../harness/apiserver-requests.js';
import { GROUP, PLURAL, VERSION } from '../../api/tenant.js';
import { waitUntil } from '../../harness/wait.js';
import { clients } from './env.js';

const POLL_MS = 500;
const TENANTS = { group: GROUP, version: VERSION, plural: PLURAL };

interface Unsettled {
  namespaces: string[];
  tenants: string[];
}

interface Named {
  metadata?: { name?: string; deletionTimestamp?: unknown };
}

const deleting = (items: Named[]): string[] =>
  items.filter((o) => o.metadata?.deletionTimestamp != null).map((o) => o.metadata?.name ?? '');

/** What is still being deleted on the cluster: namespaces, and Tenants waiting on a finalizer. */
async function unsettled(): Promise<Unsettled> {
  const { core, custom } = clients();
  const namespaces = deleting((await core.listNamespace()).items);
  let tenants: string[] = [];
  try {
    const list = (await custom.listClusterCustomObject(TENANTS)) as { items: Named[] };
    tenants = deleting(list.items);
  } catch {
    // No Tenant CRD on this control plane (a file removed it): no Tenant is being deleted.
  }
  return { namespaces, tenants };
}

/** Waits until no namespace and no Tenant is being deleted; fails naming them after `timeoutMs`. */
async function deletionsOver(timeoutMs: number): Promise<void> {
  const started = Date.now();
  await waitUntil(
    'no namespace or Tenant being deleted, so that a write count is sound',
    async () => {
      const left = await unsettled();
      if (left.namespaces.length > 0 || left.tenants.length > 0)
        throw new Error(`still being deleted: ${JSON.stringify(left)}`);
      return true;
    },
    { timeoutMs, intervalMs: POLL_MS },
  );
  const waited = Date.now() - started;
  if (waited > 1_000) console.log(`e2e: waited ${(waited / 1000).toFixed(1)} s for deletions to end`);
}

/**
 * The API server's counters once nothing is being deleted and no landlord resource was written for
 * `quietMs` (settledRequestCounts); fails if either does not come within `timeoutMs`.
 */
export async function quietCounts(
  access: ApiServerAccess,
  { quietMs, timeoutMs }: { quietMs?: number; timeoutMs: number },
): Promise<SettledCounts> {
  const started = Date.now();
  await deletionsOver(timeoutMs);
  const settled = await settledRequestCounts(access, {
    quietMs,
    timeoutMs: timeoutMs - (Date.now() - started),
  });
  if (!settled.settled) throw new Error(`landlord's resources were still written after ${timeoutMs} ms`);
  return settled;
}
