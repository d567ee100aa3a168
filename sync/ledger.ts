// What sync knows about each tenant, in one place: the row book (rows as read), the Tenant cache
// (Tenants as watched and written) and the identity. Rows are recorded here, by intake and by the reconciler's
// own re-reads alike, and decide() is asked here, so every path sees the same facts.
import { decide, type Situation, type SyncAction } from './decide.js';
import { owns, type TableIdentity } from './identity.js';
import type { RowBook, RowState } from './row-book.js';
import type { ParsedRow } from './row/index.js';
import { recordedRejection } from './status.js';
import type { Tenant } from '../api/tenant.js';
import type { TenantCache } from '../runtime/kube/tenant-cache.js';

/** A parsed row that names a Tenant (valid, `deleted: true`, or refused with a usable name). */
export type NamedRow = ParsedRow & { name: string };

function stateOf(row: NamedRow): RowState {
  switch (row.kind) {
    case 'tenant':
      return { kind: 'tenant', hash: row.hash };
    case 'deleted':
      return { kind: 'deleted' };
    case 'invalid':
      return { kind: 'invalid', attribute: row.problem.attribute, message: row.problem.message };
  }
}

const contentChanged = (before: RowState | undefined, after: RowState): boolean =>
  JSON.stringify(before) !== JSON.stringify(after);

/** Where the ledger finds a Tenant: the live Tenant cache, or a listed snapshot (`landlord plan`). */
export interface TenantLookup {
  get(name: string): Tenant | undefined;
}

export class Ledger<View extends TenantLookup = TenantCache> {
  constructor(
    readonly book: RowBook,
    readonly view: View,
    readonly identity: TableIdentity,
  ) {}

  /**
   * Records a row just read; returns whether its content differs from what was recorded. Its spec
   * is kept until next() finds it is not to be written: a spec to write is in no cache yet, and
   * reading the row again to get it back would cost a DynamoDB read. Callers ask next() right after.
   */
  record(row: NamedRow): boolean {
    const { book } = this;
    const state = stateOf(row);
    const changed = contentChanged(book.set(row.name, state), state);
    if (row.kind !== 'tenant') return changed;
    // A row the API server rejected before (this process or an earlier one) is not sent again; only
    // a Tenant of this table's can say so.
    const tenant = this.view.get(row.name);
    const own = tenant !== undefined && owns(tenant, this.identity);
    const rejection = own ? recordedRejection(tenant, row.hash) : undefined;
    if (rejection !== undefined) book.reject(row.name, row.hash, rejection);
    else book.keepSpec(row.name, row.hash, row.spec);
    return changed;
  }

  situation(name: string, now = new Date()): Situation {
    const { book, view, identity } = this;
    return {
      row: book.get(name),
      verdict: book.verdict(name),
      tenant: view.get(name),
      reported: book.conflictReported(name),
      approval: book.approval(name),
      applied: book.appliedSpec(name),
      identity,
      now,
    };
  }

  /** decide() on what sync knows now. A kept spec that is not to be written any more is dropped. */
  next(name: string): SyncAction {
    const action = decide(this.situation(name));
    if (action.kind !== 'applySpec') this.book.dropSpec(name);
    return action;
  }
}
