// What a TenantClass's status says of its warm pool, pure: `warm`, kubectl get tc's WARM column,
// the Ready unclaimed members. Nothing for a class that has no pool and no Ready member left, so a
// class that never had one shows none. The pool controller writes it through the runtime's status
// writer (runtime/kube/status-writer.ts), which asks saysPoolStatus first: an unchanged count costs
// no write. The pool controller is the one writer of a class's status.
import type { TenantClass } from '../../api/tenantclass.js';

/** The part of a TenantClass's status the pool controller writes. */
export interface PoolStatus {
  warm?: number;
}

/** What the status says for a class with (`pooled`) or without a pool, `ready` members Ready. */
export function poolStatusOf(pooled: boolean, ready: number): PoolStatus {
  return !pooled && ready === 0 ? {} : { warm: ready };
}

/** The class already says it: no write. */
export function saysPoolStatus(tenantClass: TenantClass, next: PoolStatus): boolean {
  return tenantClass.status?.warm === next.warm;
}
