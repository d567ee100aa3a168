// What a TenantClass's status says of its warm pool, pure: `warm`, kubectl get tc's WARM column,
// the Ready unclaimed members. A class that never had a pool shows none; one that has shown a
// count keeps showing one, 0 once its pool is gone. So the field is never removed: server-side
// apply removes a field only its own manager holds, and an operator before this one wrote it by
// merge patch, under another. The pool controller writes it through the runtime's status writer
// (runtime/kube/status-writer.ts), which asks saysPoolStatus first: an unchanged count costs no
// write. The pool controller is the one writer of a class's status.
import type { TenantClass } from '../../api/tenantclass.js';

/** The part of a TenantClass's status the pool controller writes. */
export interface PoolStatus {
  warm?: number;
}

/** What the class's status says: `ready` members Ready; nothing for a class without a pool that never showed a count. */
export function poolStatusOf(tenantClass: TenantClass, pooled: boolean, ready: number): PoolStatus {
  const shown = tenantClass.status?.warm !== undefined;
  return pooled || shown || ready > 0 ? { warm: ready } : {};
}

/** The class already says it: no write. */
export function saysPoolStatus(tenantClass: TenantClass, next: PoolStatus): boolean {
  return tenantClass.status?.warm === next.warm;
}
