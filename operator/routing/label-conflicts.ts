// The Tenants whose status says LabelConflict: the only ones a freed label can unblock. Kept from
// the Tenant events, so a change looks at these few instead of every Tenant of its namespace (at
// 20,000 Tenants in one namespace, every new Tenant scanned them all).
import { findCondition } from '../../api/conditions.js';
import { CONDITION, type Tenant } from '../../api/tenant.js';
import { REFUSAL_REASON } from '../policy/index.js';

export class LabelConflicts {
  private readonly refused = new Set<string>();

  /** Keeps the set current with a Tenant event. */
  track(tenant: Tenant, deleted: boolean): void {
    const name = tenant.metadata.name!;
    const applied = findCondition(tenant.status?.conditions, CONDITION.applied);
    if (!deleted && applied?.reason === REFUSAL_REASON.labelConflict) this.refused.add(name);
    else this.refused.delete(name);
  }

  /** The Tenants refused over labels in one of these namespaces, but `name` itself. */
  in(
    namespaces: ReadonlySet<string | undefined>,
    name: string,
    namespaceOf: (tenant: string) => string | undefined,
  ): string[] {
    return [...this.refused].filter((other) => {
      const namespace = namespaceOf(other);
      return other !== name && namespace !== undefined && namespaces.has(namespace);
    });
  }
}
