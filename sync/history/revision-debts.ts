// What sync still owes a tenant's history, held per tenant name until settled. Two debts, at most
// one of each per tenant: a revision that could not be written (the Tenant already holds its spec,
// so no later decision would ask for that spec again, and without the debt the history would skip
// it), and a revision written that no status names yet (the status names the newest revision, so
// the next record() starts from it without a list). Both are dropped with the tenant's row.
import type { NewestRevision, RevisionDraft } from '../../api/revision.js';

/** A revision recorded, and the Tenant whose history it is. */
export type RecordedRevision = NewestRevision & { uid: string };

/** The spec applied to the Tenant with `uid` whose revision is still to be written. */
export interface OwedRevision {
  uid: string;
  draft: RevisionDraft;
}

export class RevisionDebts {
  private readonly owedRevisions = new Map<string, OwedRevision>();
  private readonly unnamed = new Map<string, RecordedRevision>();

  /** The revision of a spec applied to the Tenant with this uid could not be written: it is retried. */
  owe(name: string, uid: string, draft: RevisionDraft): void {
    this.owedRevisions.set(name, { uid, draft });
  }

  owed(name: string): OwedRevision | undefined {
    return this.owedRevisions.get(name);
  }

  /**
   * The revision is written (or was there already, or its Tenant is gone): nothing is owed.
   * `newest` is what the status is to name, when it does not name it already.
   */
  paid(name: string, newest?: RecordedRevision): void {
    this.owedRevisions.delete(name);
    if (newest !== undefined) this.unnamed.set(name, newest);
  }

  /** The newest revision recorded of the Tenant with this uid, if no status names it yet. */
  recorded(name: string, uid: string | undefined): NewestRevision | undefined {
    const recorded = this.unnamed.get(name);
    if (recorded === undefined || recorded.uid !== uid) return undefined;
    return { revision: recorded.revision, hash: recorded.hash };
  }

  /** A status naming this revision (or none) was written: the Tenant holds it now. */
  named(name: string, revision: number | undefined): void {
    if (this.unnamed.get(name)?.revision === revision) this.unnamed.delete(name);
  }

  /** The tenant's row is gone or no longer makes a Tenant: its history is no longer sync's to keep. */
  forget(name: string): void {
    this.owedRevisions.delete(name);
    this.unnamed.delete(name);
  }
}
