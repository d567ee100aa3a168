// A Tenant's lifecycle state, as the facets and the status read it: the state its spec asks for,
// and whether that state keeps the workload. What each state asks of the children is decided by
// the desired-state engine (facets/engine.ts). Pure.
import { DEFAULT_STATE, isTenantState, type Tenant, type TenantState } from '../api/tenant.js';

/** The state the spec asks for. The CRD's enum admits no other value, and defaults an absent one. */
export function requestedState(tenant: Tenant): TenantState {
  const state: unknown = tenant.spec?.state;
  return isTenantState(state) ? state : DEFAULT_STATE;
}

/** archived and purged keep no workload (and so no route); their fences and secrets stay. */
export function keepsChildren(state: TenantState): boolean {
  return state === 'active' || state === 'suspended';
}
