// The one way onto the work queue. Whatever noticed a tenant (a row read by intake, a deletion the
// takedown budget approved, a Tenant changed in the cluster) only names it; it is queued when decide() finds
// something to do, so the steady state runs no reconciles at all.
import type { WorkQueue } from '../runtime/work-queue.js';
import { needsReconcile } from './decide.js';
import type { Ledger } from './ledger.js';

export class Trigger {
  constructor(
    private readonly ledger: Ledger,
    private readonly queue: Pick<WorkQueue, 'add' | 'forget'>,
  ) {}

  /** `fresh`: the row's content just changed, which deserves an immediate try, not the backoff. */
  tenant(name: string, fresh = false): void {
    if (fresh) this.queue.forget(name);
    if (needsReconcile(this.ledger.next(name))) this.queue.add(name);
  }
}
