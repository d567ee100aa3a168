// The counts behind the operator's Tenant gauges (by condition, by state, paused), in one pass over
// the cache, made when Prometheus scrapes (runtime/metrics.ts). At 20,000 Tenants a pass per gauge,
// with a "Ready/True" string made per Tenant and condition, was a visible share of the operator's
// garbage, and a pass every 5 s ~2 % of a core without V8's optimizing compilers.
import { findCondition } from '../api/conditions.js';
import { CONDITION, isPaused, TENANT_STATES, type Tenant, type TenantState } from '../api/tenant.js';
import { requestedState } from './lifecycle.js';

/** The conditions counted by status, "Unknown" standing for a condition not reported yet. */
const TALLIED_CONDITIONS = [CONDITION.ready, CONDITION.degraded] as const;

export interface TenantTally {
  /** condition → status → Tenants */
  conditions: Map<string, Map<string, number>>;
  /** Every state, 0 when none is in it. */
  states: Record<TenantState, number>;
  paused: number;
}

export function tallyTenants(tenants: readonly Tenant[]): TenantTally {
  const conditions = new Map(TALLIED_CONDITIONS.map((c) => [c as string, new Map<string, number>()]));
  const states = Object.fromEntries(TENANT_STATES.map((s) => [s, 0])) as Record<TenantState, number>;
  let paused = 0;
  for (const tenant of tenants) {
    for (const [type, byStatus] of conditions) {
      const status = findCondition(tenant.status?.conditions, type)?.status ?? 'Unknown';
      byStatus.set(status, (byStatus.get(status) ?? 0) + 1);
    }
    states[requestedState(tenant)] += 1;
    if (isPaused(tenant)) paused += 1;
  }
  return { conditions, states, paused };
}
