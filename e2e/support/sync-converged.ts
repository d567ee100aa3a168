// What "converged" means for sync alone: the Tenants of a table are exactly its rows, each holding
// its row's current content (the image tells versions apart) and Synced=True for its generation.
import type { Tenant } from '../../api/tenant.js';
import { waitUntil } from '../../harness/wait.js';
import { syncedCondition, syncedTenants } from './sync.js';

/** Tenant name → the image its row currently holds. */
export type RowImages = ReadonlyMap<string, string>;

export const imageOf = (tenant: Tenant | undefined): string | undefined =>
  tenant?.spec?.deployment?.spec?.template.spec?.containers[0]?.image;

function tenantProblem(tenant: Tenant, rows: RowImages): string | undefined {
  const name = tenant.metadata.name!;
  const want = rows.get(name);
  if (want === undefined) return `Tenant ${name} has no row`;
  if (tenant.metadata.deletionTimestamp !== undefined) return `Tenant ${name} is being deleted`;
  if (imageOf(tenant) !== want) return `Tenant ${name} holds ${imageOf(tenant)}, its row ${want}`;
  const synced = syncedCondition(tenant);
  if (synced?.status !== 'True' || synced.observedGeneration !== tenant.metadata.generation)
    return `Tenant ${name} is not Synced for generation ${tenant.metadata.generation}`;
  return undefined;
}

export async function syncProblems(table: string, rows: RowImages): Promise<string[]> {
  const tenants = await syncedTenants(table);
  const names = new Set(tenants.map((t) => t.metadata.name!));
  const missing = [...rows.keys()]
    .filter((name) => !names.has(name))
    .map((name) => `Tenant ${name} is missing`);
  const wrong = tenants.map((t) => tenantProblem(t, rows)).filter((p): p is string => p !== undefined);
  return [...missing, ...wrong];
}

/** Waits until the table's Tenants are exactly `rows`; returns the ms it took. */
export async function waitSynced(table: string, rows: RowImages, timeoutMs: number): Promise<number> {
  const started = Date.now();
  let last: string[] = [];
  try {
    await waitUntil(
      `the Tenants of ${table} to match its ${rows.size} rows`,
      async () => {
        last = await syncProblems(table, rows);
        return last.length === 0;
      },
      { timeoutMs, intervalMs: 1_000 },
    );
  } catch (err) {
    const problems = last.slice(0, 30).join('\n  ');
    throw new Error(`${(err as Error).message}; ${last.length} problems:\n  ${problems}`, { cause: err });
  }
  return Date.now() - started;
}

/** name → uid of the table's Tenants, to prove later that none was deleted or recreated. */
export async function tenantUids(table: string): Promise<Map<string, string>> {
  return new Map((await syncedTenants(table)).map((t) => [t.metadata.name!, t.metadata.uid!]));
}

/** The Tenants of `before` that are gone or were recreated since, except the names allowed to go. */
export async function tenantsLost(
  table: string,
  before: ReadonlyMap<string, string>,
  allowed: ReadonlySet<string> = new Set(),
): Promise<string[]> {
  const now = await tenantUids(table);
  return [...before]
    .filter(([name]) => !allowed.has(name))
    .filter(([name, uid]) => now.get(name) !== uid)
    .map(([name]) => (now.has(name) ? `${name} was recreated` : `${name} was deleted`));
}
