// `landlord plan`, the decision part: sync's plan for every tenant (sync/dry-run.ts), then the
// operator's preview of the Tenant that would result (operator/preview.ts), folded into one entry per
// tenant that says what would change and whether anything would be written. The operator's part
// reads the cluster as a reconcile would once sync has written: the other Tenants as sync leaves
// them, through the operator's own indexes (operator/cluster-indexes.ts).
import { findCondition } from '../../api/conditions.js';
import { CONDITION, type Tenant } from '../../api/tenant.js';
import { describeRef } from '../../operator/child-ref.js';
import { indexesOf, type WatchedObject } from '../../operator/cluster-indexes.js';
import type { PolicyConfig } from '../../operator/policy/index.js';
import {
  previewChildren,
  type ChildReader,
  type ChildrenPreview,
  type HostsPreview,
} from '../../operator/preview.js';
import { fallbackClass } from '../../operator/tenancy/resolve-class.js';
import { SYNC_MESSAGE, SYNC_REASON } from '../../sync/reasons.js';
import type { Conflict } from '../../sync/decide.js';
import type { TakedownCause } from '../../sync/takedown-budget.js';
import type { SyncPlan, SyncStep } from '../../sync/dry-run.js';
import type { RowProblem } from '../../sync/row/index.js';
import { describeChange, diffJson } from '../../util/json-diff.js';
import { appliedTenant } from '../applied-tenant.js';
import { planApis } from './read.js';

const PLAN_KINDS = ['create', 'update', 'delete', 'heldBack', 'notOwned', 'refused', 'unchanged'] as const;
export type PlanKind = (typeof PLAN_KINDS)[number];

interface ChildPlan {
  /** replace: deleted and made anew, a change the API server refuses in place (a Service turning headless). */
  action: 'create' | 'update' | 'replace' | 'delete';
  /** "Deployment team-a/web" */
  child: string;
}

export interface TenantPlan {
  name: string;
  kind: PlanKind;
  /**
   * Whether carrying out the plan writes anything for this tenant (held back, not owned and known
   * refusals do not; a report is an Event, not a write to the Tenant).
   */
  writes: boolean;
  /** The Tenant's spec fields the row changes, e.g. "deployment.spec.replicas: 2 → 3". */
  specChanges: string[];
  children: ChildPlan[];
  /** The condition that says why the tenant is refused. */
  refusal?: { condition: string; reason: string; message: string };
  /** One sentence for what the other fields do not say. */
  note?: string;
  /** Where the tenant is reached after the plan, when its class exposes it and that changes. */
  url?: string;
  /** Hosts withheld from it, taken from another Tenant, or served by a stray route in its namespace. */
  hosts?: HostsPreview;
}

export interface Plan {
  tenants: TenantPlan[];
  counts: Record<PlanKind, number>;
  /** Rows whose name is unusable: sync skips them, and no Tenant can say so. */
  unnamedRows: RowProblem[];
  budget: SyncPlan['budget'];
  changes: boolean;
}

const CHILD_ACTION = { created: 'create', updated: 'update', replaced: 'replace', pruned: 'delete' } as const;

/** What plan read of the cluster: every Tenant, and the children with the classes and what facets watch. */
export interface ClusterRead {
  tenants: readonly Tenant[];
  children: ChildReader & { watched: readonly WatchedObject[] };
}

export async function makePlan(
  sync: SyncPlan,
  unnamedRows: RowProblem[],
  policy: PolicyConfig,
  read: ClusterRead,
): Promise<Plan> {
  const children = readerAfterSync(sync, policy, read);
  const tenants: TenantPlan[] = [];
  for (const step of sync.steps) tenants.push(await planTenant(step, sync, policy, children));
  const counts = Object.fromEntries(PLAN_KINDS.map((k) => [k, 0])) as Record<PlanKind, number>;
  for (const t of tenants) counts[t.kind] += 1;
  const changes = tenants.some((t) => t.writes);
  return { tenants, counts, unnamedRows, budget: sync.budget, changes };
}

/**
 * The children, with the cluster view a reconcile would read once sync has carried out its plan:
 * a new row's Tenant holds its labels and hosts, a deleted one no longer does.
 */
function readerAfterSync(sync: SyncPlan, policy: PolicyConfig, read: ClusterRead): ChildReader {
  const { children } = read;
  const classes = children.classes ?? [];
  const indexes = indexesOf({
    tenants: tenantsAfter(sync, read.tenants),
    classes,
    builtInClass: fallbackClass(policy),
    apis: planApis(policy.gatewayApi ?? false),
    watched: children.watched,
  });
  return {
    get: (ref) => children.get(ref),
    labelledFor: (tenant) => children.labelledFor(tenant),
    classes,
    cluster: indexes.view(),
  };
}

/** Every Tenant as sync's plan leaves it; those it does not touch (another table's) as they are. */
function tenantsAfter(sync: SyncPlan, listed: readonly Tenant[]): Tenant[] {
  const after = new Map(listed.map((t) => [t.metadata.name ?? '', t]));
  for (const step of sync.steps) {
    const next = tenantAfter(step, sync.table);
    if (next === undefined) after.delete(step.name);
    else after.set(step.name, next);
  }
  return [...after.values()];
}

/**
 * The Tenant a step leaves: with the row's spec when it applies one (stamped with the table, as
 * sync stamps it: a class's allowedTables is judged on it), none once deleted, else as it is.
 */
function tenantAfter(step: SyncStep, table: string): Tenant | undefined {
  const { action, name, tenant, spec } = step;
  if (action.kind === 'delete' || action.kind === 'confirmGone') return undefined;
  if (action.kind === 'applySpec' && spec !== undefined) return appliedTenant(name, spec, tenant, table);
  return tenant;
}

function planTenant(
  step: SyncStep,
  sync: SyncPlan,
  policy: PolicyConfig,
  children: ChildReader,
): TenantPlan | Promise<TenantPlan> {
  const { name, action, verdict } = step;
  const base = { name, specChanges: [], children: [] };
  switch (action.kind) {
    case 'delete':
      return {
        ...base,
        kind: 'delete',
        writes: true,
        note: 'the row says deleted: true; its children go with it',
      };
    case 'confirmGone':
      return {
        ...base,
        kind: 'delete',
        writes: true,
        note: 'the row is gone from the table; its children go with it',
      };
    case 'awaitApproval':
      return { ...base, kind: 'heldBack', writes: false, note: heldBackNote(action.cause, sync.budget) };
    case 'reportForeign':
      return { ...base, kind: 'notOwned', writes: false, note: notOwnedNote(action.conflict, sync.table) };
  }
  // A row naming another's Tenant, already reported: sync still leaves it alone.
  if (step.tenant !== undefined && !step.owned) return { ...base, kind: 'notOwned', writes: false };
  // A `deleted: true` row whose Tenant is already gone: nothing left to do.
  if (verdict === undefined) return { ...base, kind: 'unchanged', writes: false };
  if (verdict.kind !== 'synced') {
    const reason = verdict.kind === 'rejected' ? SYNC_REASON.applyRejected : SYNC_REASON.invalidRecord;
    const refusal = { condition: CONDITION.synced, reason, message: verdict.message };
    return { ...base, kind: 'refused', writes: action.kind !== 'nothing', refusal, note: bareNote(step) };
  }
  return planValid(step, sync.table, policy, children);
}

async function planValid(
  step: SyncStep,
  table: string,
  policy: PolicyConfig,
  children: ChildReader,
): Promise<TenantPlan> {
  const { name, action, tenant } = step;
  const applies = action.kind === 'applySpec';
  const next = tenantAfter(step, table)!;
  const specChanges =
    applies && tenant !== undefined ? diffJson(tenant.spec, next.spec).map(describeChange) : [];
  const operator = await previewChildren(next, policy, children);
  const tenantWrite = action.kind !== 'nothing';
  if (operator.kind === 'paused') {
    // Status-only updates are not listed (see docs/rows.md); the children stay as they are.
    const kind: PlanKind = tenantWrite ? 'update' : 'unchanged';
    return { name, kind, writes: tenantWrite, specChanges, children: [], note: operator.message };
  }
  if (operator.kind !== 'converge') {
    const refusal = { condition: CONDITION.applied, reason: operator.reason, message: operator.message };
    const writes = tenantWrite || !reported(next, operator);
    return { name, kind: 'refused', writes, specChanges, children: [], refusal };
  }
  const planned = operator.changes.map((c) => ({
    action: CHILD_ACTION[c.action],
    child: describeRef(c.ref),
  }));
  const kind: PlanKind =
    tenant === undefined ? 'create' : tenantWrite || planned.length > 0 ? 'update' : 'unchanged';
  const note = childrenNote(step, operator, specChanges.length, planned.length);
  return {
    name,
    kind,
    writes: kind !== 'unchanged',
    specChanges,
    children: planned,
    ...(note ? { note } : {}),
    ...newUrl(tenant, operator),
    ...(operator.hosts === undefined ? {} : { hosts: operator.hosts }),
  };
}

/** The URL the tenant would be reached at, when it is not the one its status already says. */
function newUrl(
  tenant: Tenant | undefined,
  plan: Extract<ChildrenPreview, { kind: 'converge' }>,
): { url?: string } {
  return plan.url === undefined || plan.url === tenant?.status?.url ? {} : { url: plan.url };
}

/** The Tenant already carries this refusal for this generation: the operator writes nothing new. */
function reported(tenant: Tenant, plan: Extract<ChildrenPreview, { kind: 'refused' | 'blocked' }>): boolean {
  const applied = findCondition(tenant.status?.conditions, CONDITION.applied);
  return (
    applied?.status === 'False' &&
    applied.reason === plan.reason &&
    applied.message === plan.message &&
    applied.observedGeneration === tenant.metadata.generation
  );
}

function heldBackNote(cause: TakedownCause, budget: SyncPlan['budget']): string {
  if (cause === 'archived' || cause === 'purged') {
    return (
      `the row sets state ${cause}, but the takedown budget allows ${budget.allowed} takedowns (of any cause) per ` +
      `resync among ${budget.tenants} Tenants; the Tenant keeps its state until a later pass applies it`
    );
  }
  const row = cause === 'rowGone' ? 'the row is gone from the table' : 'the row says deleted: true';
  const later = cause === 'rowGone' ? 'is still gone' : 'still says so';
  return (
    `${row}, but the takedown budget allows ${budget.allowed} takedowns (of any cause) per ` +
    `resync among ${budget.tenants} Tenants; a later pass deletes it if the row ${later}`
  );
}

function notOwnedNote(conflict: Conflict, table: string): string {
  return SYNC_MESSAGE.notOwned(table, conflict.cause, conflict.otherTable);
}

function bareNote(step: SyncStep): string | undefined {
  if (step.action.kind === 'createBare') return 'a Tenant without a spec is created to show the refusal';
  if (step.tenant?.spec !== undefined)
    return 'the Tenant keeps its last valid spec; its children stay as they are';
  return undefined;
}

function childrenNote(
  step: SyncStep,
  plan: Extract<ChildrenPreview, { kind: 'converge' }>,
  specChanges: number,
  childChanges: number,
): string | undefined {
  return heldNote(plan, childChanges) ?? updateNote(step, specChanges, childChanges);
}

/** The tenant moves to another namespace: the old children stay until the new Deployment serves. */
function heldNote(
  plan: Extract<ChildrenPreview, { kind: 'converge' }>,
  childChanges: number,
): string | undefined {
  const held = plan.pruneHeld;
  if (held === undefined || childChanges === 0) return undefined;
  const kept = plan.changes.filter((c) => c.action === 'pruned').length;
  return (
    `the ${kept} deletion(s) wait until ${describeRef(held.until)} has rolled out (${held.gap}); ` +
    'the old children keep serving until then'
  );
}

function updateNote(step: SyncStep, specChanges: number, childChanges: number): string | undefined {
  const { action, tenant } = step;
  if (tenant === undefined) return undefined;
  if (action.kind === 'applySpec' && specChanges === 0)
    return "only the Tenant's labels or annotations change";
  if (action.kind === 'applyStatus') return 'the Synced condition is brought up to date';
  if (action.kind === 'nothing' && childChanges > 0)
    return 'the children drifted from the spec (edited by hand?)';
  return undefined;
}
