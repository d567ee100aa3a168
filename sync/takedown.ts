// Which row changes take a running tenant down without deleting it: a state that removes its
// children (archived) or its data too (purged). These share the takedown budget with rows gone or
// saying `deleted: true` (takedown-budget.ts): eight rows set to archived at once must not empty
// eight namespaces within seconds, any more than eight deleted rows may. Pure.
import { DEFAULT_STATE, type Tenant, type TenantState } from '../api/tenant.js';

/** A takedown by state: the state the row moves the Tenant to. */
export type StateTakedown = Extract<TenantState, 'archived' | 'purged'>;

/** How much of a tenant each state leaves: running or scaled to 0, children gone, data gone too. */
const DEPTH: Record<TenantState, number> = { active: 0, suspended: 0, archived: 1, purged: 2 };

/**
 * The takedown applying a row in `rowState` to this Tenant would be, if any: the row asks for a
 * deeper state than the Tenant's spec holds. A new Tenant, or one without a spec (a refused row's),
 * has nothing running to take down; coming back up (purged to archived, archived to active) is no
 * takedown either.
 */
export function takedownOf(rowState: TenantState, tenant: Tenant | undefined): StateTakedown | undefined {
  if (tenant?.spec === undefined || tenant.metadata.deletionTimestamp !== undefined) return undefined;
  const current = tenant.spec.state ?? DEFAULT_STATE;
  if (DEPTH[rowState] <= DEPTH[current]) return undefined;
  return rowState === 'purged' ? 'purged' : 'archived';
}
