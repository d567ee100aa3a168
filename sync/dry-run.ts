// What sync would do now, for `landlord plan`: the rows of one complete scan and the Tenants as
// listed go through the very ledger, decide() and takedown budget the running sync uses, so the
// plan and the component cannot disagree. Nothing here writes; the budget is a fresh interval's,
// as the next complete scan would size it. Tenants that this table's sync did not make are listed
// too: a row naming one is a conflict sync reports and leaves alone.
import type { Tenant, TenantSpec } from '../api/tenant.js';
import { owns, type TableIdentity } from './identity.js';
import { Ledger, type NamedRow, type TenantLookup } from './ledger.js';
import {
  afterCompleteScan,
  allowance,
  TakedownBudget,
  liveTenants,
  type TakedownLimits,
} from './takedown-budget.js';
import type { SyncAction } from './decide.js';
import type { Verdict } from './status.js';

export interface SyncSnapshot {
  /** Every row of the scan that names a Tenant. */
  rows: readonly NamedRow[];
  /** Every Tenant in the cluster, as listed: this table's and any other. */
  tenants: readonly Tenant[];
  identity: TableIdentity;
  limits: TakedownLimits;
}

export interface SyncStep {
  name: string;
  action: SyncAction;
  /** What sync concluded about the row; undefined when the row is gone or says `deleted: true`. */
  verdict: Verdict | undefined;
  tenant: Tenant | undefined;
  /** The spec the Tenant would hold after this step: the row's when applied, else the Tenant's. */
  spec: TenantSpec | undefined;
  /** The Tenant (if any) is this table's sync's; another's is never written to. */
  owned: boolean;
}

export interface SyncPlan {
  steps: SyncStep[];
  /** Deletions the budget of one interval allows, and how many Tenants it was sized from. */
  budget: { allowed: number; tenants: number };
  table: string;
}

class ListedTenants implements TenantLookup {
  private readonly byName: Map<string, Tenant>;

  constructor(tenants: readonly Tenant[]) {
    this.byName = new Map(tenants.map((t) => [t.metadata.name ?? '', t]));
  }

  get(name: string): Tenant | undefined {
    return this.byName.get(name);
  }

  names(): string[] {
    return [...this.byName.keys()];
  }
}

/** One step per name in the rows or the Tenants, sorted by name. */
export function planSync(snapshot: SyncSnapshot): SyncPlan {
  const view = new ListedTenants(snapshot.tenants);
  const ledger = new Ledger(view, snapshot.identity);
  for (const row of snapshot.rows) ledger.record(row);
  const own = snapshot.tenants.filter((tenant) => owns(tenant, snapshot.identity));
  const deletions = afterCompleteScan(
    new TakedownBudget(snapshot.limits),
    own,
    (name) => !ledger.hasRow(name) || ledger.rowSaysDeleted(name) || ledger.takedown(name) !== undefined,
  );
  for (const name of deletions.approved) ledger.approveTakedown(name, 1);
  // Another's Tenant matters here only when a row names it.
  const ownNames = own.map((tenant) => tenant.metadata.name ?? '');
  const names = [...new Set([...snapshot.rows.map((r) => r.name), ...ownNames])].sort();
  const steps = names.map((name): SyncStep => {
    const action = ledger.next(name);
    const tenant = view.get(name);
    const spec = action.kind === 'applySpec' ? ledger.specToWrite(name, action.hash) : tenant?.spec;
    const owned = tenant === undefined || owns(tenant, snapshot.identity);
    return { name, action, verdict: ledger.verdict(name), tenant, spec, owned };
  });
  const live = liveTenants(own).length;
  return {
    steps,
    budget: { allowed: allowance(live, snapshot.limits), tenants: live },
    table: snapshot.identity.table,
  };
}
