// The Tenants whose Applied condition says one refusal reason (LabelConflict): the only ones a freed
// label can unblock. (Hosts wake their rivals by the claims index instead: exposure/claims.ts.) Kept from the Tenant events, so a change wakes these
// few instead of every Tenant (at 20,000 Tenants in one namespace, every new Tenant scanned them all).
import { findCondition } from '../../api/conditions.js';
import { CONDITION, type Tenant } from '../../api/tenant.js';

export class RefusedTenants {
  private readonly refused = new Set<string>();

  constructor(private readonly reason: string) {}

  /** Keeps the set current with a Tenant event. */
  track(tenant: Tenant, deleted: boolean): void {
    const name = tenant.metadata.name!;
    const applied = findCondition(tenant.status?.conditions, CONDITION.applied);
    if (!deleted && applied?.reason === this.reason) this.refused.add(name);
    else this.refused.delete(name);
  }

  /** The Tenants refused for the reason, but `name` itself, that `keep` keeps (default: all). */
  others(name: string, keep: (tenant: string) => boolean = () => true): string[] {
    return [...this.refused].filter((other) => other !== name && keep(other));
  }
}
