// The Tenants whose status says HostConflict: the only ones a host let go of can unblock. Kept from
// the Tenant events, so a Tenant that drops a host (its row, its state, its deletion) wakes these
// few rather than every Tenant.
import { findCondition } from '../../api/conditions.js';
import { CONDITION, type Tenant } from '../../api/tenant.js';
import { REFUSAL_REASON } from '../policy/index.js';

export class HostConflicts {
  private readonly refused = new Set<string>();

  /** Keeps the set current with a Tenant event. */
  track(tenant: Tenant, deleted: boolean): void {
    const name = tenant.metadata.name!;
    const applied = findCondition(tenant.status?.conditions, CONDITION.applied);
    if (!deleted && applied?.reason === REFUSAL_REASON.hostConflict) this.refused.add(name);
    else this.refused.delete(name);
  }

  /** The Tenants refused over a host, but `name` itself. */
  others(name: string): string[] {
    return [...this.refused].filter((other) => other !== name);
  }
}
