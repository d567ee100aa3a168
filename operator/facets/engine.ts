// The desired-state engine: what one Tenant asks of the cluster now, decided by walking the facets
// (list.ts) in order. A reconcile converges to exactly this, `landlord plan` compares exactly this
// and a warm pool member is built by it, so no two of them can decide differently. Pure.
import type { ConditionInput } from '../../api/conditions.js';
import type { Tenant, TenantState } from '../../api/tenant.js';
import type { ChildRef } from '../child-ref.js';
import type { DesiredChild } from '../desired.js';
import { requestedState } from '../lifecycle.js';
import { coldId, usesId } from '../namespaces/ids.js';
import { tenantNamespace, type PolicyConfig, type Refusal } from '../policy/index.js';
import type {
  ClusterView,
  Decisions,
  Effects,
  Facet,
  FacetInput,
  FacetStatus,
  MemberObject,
  ReadChild,
} from './contract.js';
import { FACETS } from './list.js';
import { NO_CLUSTER } from './view.js';

export type Wanted =
  | {
      ok: true;
      state: TenantState;
      /** The children to apply (with landlord's ownership), every facet's in the list's order. */
      children: DesiredChild[];
      /** Children kept as they are: neither applied nor pruned. */
      retained: ChildRef[];
      /** PerTenant: the tenant's own namespace. */
      namespace: string | undefined;
      /** The status fields the facets' decisions fill (status.url). */
      status: FacetStatus;
      /** Each facet's decision, for its condition once the children are applied (reportsOf). */
      decisions: Decisions;
      /** What every facet was given, for the effects a reconcile runs (actAll). */
      input: FacetInput;
    }
  /** A facet refuses: nothing changes, whatever the state. */
  | { ok: false; state: TenantState; refusal: Refusal };

/** What the facets report after converging: their conditions and status fields. */
export interface FacetReports {
  conditions: ConditionInput[];
  status: FacetStatus;
}

/** The children the Tenant asks for in its state under `policy`, or the first facet's refusal. */
export function desiredState(
  tenant: Tenant,
  policy: PolicyConfig,
  cluster: ClusterView = NO_CLUSTER,
  facets: readonly Facet<unknown>[] = FACETS,
): Wanted {
  const state = requestedState(tenant);
  const placement = tenantNamespace(tenant.metadata.name ?? '', withNamespaceId(tenant, policy));
  if (!placement.ok) return { ok: false, state, refusal: placement.refusal };
  const input: FacetInput = { tenant, policy, state, namespace: placement.namespace, cluster };
  const decided = decideAll(input, facets);
  if (!decided.ok) return { ok: false, state, refusal: decided.refusal };
  const { decisions } = decided;
  const children: DesiredChild[] = [];
  const retained: ChildRef[] = [];
  const status: FacetStatus = {};
  for (const facet of facets) {
    const decision = decisions.of(facet);
    const made = facet.children(input, decision, decisions);
    if (!made.ok) return { ok: false, state, refusal: made.refusal };
    children.push(...made.children);
    retained.push(...(made.retained ?? []));
    Object.assign(status, facet.status?.(decision));
  }
  return { ok: true, state, children, retained, namespace: placement.namespace, status, decisions, input };
}

/**
 * What a warm pool member of the class holds before any tenant claims it: each facet's part that
 * names no tenant, in the list's order, or the first refusal (the pool's Deployment, say).
 */
export function memberState(
  policy: PolicyConfig,
  cluster: ClusterView = NO_CLUSTER,
  facets: readonly Facet<unknown>[] = FACETS,
): { ok: true; objects: MemberObject[] } | { ok: false; refusal: Refusal } {
  const objects: MemberObject[] = [];
  for (const facet of facets) {
    const made = facet.member?.({ policy, cluster });
    if (made?.ok === false) return made;
    objects.push(...(made?.objects ?? []));
  }
  return { ok: true, objects };
}

type WantedOk = Extract<Wanted, { ok: true }>;

/**
 * The reconcile's side effects outside Kubernetes (Facet.act), in the list's order: the wanted state
 * with the children they made (no longer merely retained) and the decisions they left, and the
 * first reason to look at the tenant again soon, if one failed in a way that may pass.
 */
export async function actAll(
  wanted: WantedOk,
  effects: Effects,
  facets: readonly Facet<unknown>[] = FACETS,
): Promise<{ wanted: WantedOk; retry?: { reason: string; message: string } }> {
  const acted = new Map<Facet<unknown>, unknown>();
  const made: DesiredChild[] = [];
  let retry: { reason: string; message: string } | undefined;
  for (const facet of facets) {
    if (facet.act === undefined) continue;
    const result = await facet.act(wanted.decisions.of(facet), wanted.input, effects);
    acted.set(facet, result.decision);
    made.push(...result.children);
    retry ??= result.retry;
  }
  if (acted.size === 0) return { wanted };
  const keys = new Set(made.map((child) => refKey(child.ref)));
  const decisions: Decisions = {
    of: <D>(facet: Facet<D>) =>
      (acted.has(facet) ? acted.get(facet) : wanted.decisions.of(facet)) as D | undefined,
  };
  return {
    wanted: {
      ...wanted,
      children: [...wanted.children, ...made],
      retained: wanted.retained.filter((ref) => !keys.has(refKey(ref))),
      decisions,
    },
    ...(retry === undefined ? {} : { retry }),
  };
}

const refKey = (ref: ChildRef): string => `${ref.kind}/${ref.namespace}/${ref.name}`;

/** Every facet's condition, in the list's order, reading the children as converging left them. */
export function reportsOf(
  wanted: Extract<Wanted, { ok: true }>,
  read: ReadChild,
  facets: readonly Facet<unknown>[] = FACETS,
): FacetReports {
  const { decisions } = wanted;
  const conditions = facets.flatMap((facet) => facet.condition?.(decisions.of(facet), read) ?? []);
  return { conditions, status: wanted.status };
}

/** The condition types facets report, kept as they are when a reconcile looks at nothing. */
export const FACET_CONDITIONS: readonly string[] = FACETS.flatMap((f) =>
  f.conditionType === undefined ? [] : [f.conditionType],
);

/**
 * The reports a Tenant carries now, kept while a reconcile looks at nothing (a refusal, a pause):
 * each facet's condition as it stands, and the status fields facets fill.
 */
export function keptReports(tenant: Tenant): FacetReports {
  const conditions = (tenant.status?.conditions ?? [])
    .filter((c) => FACET_CONDITIONS.includes(c.type))
    .map((c) => ({ ...c }));
  const url = tenant.status?.url;
  return { conditions, status: url === undefined ? {} : { url } };
}

/** Each facet decides in turn; the first refusal stops the walk. */
function decideAll(
  input: FacetInput,
  facets: readonly Facet<unknown>[],
): { ok: true; decisions: Decisions } | { ok: false; refusal: Refusal } {
  const made = new Map<Facet<unknown>, unknown>();
  for (const facet of facets) {
    const decided = facet.decide(input);
    if (!decided.ok) return decided;
    made.set(facet, decided.decision);
  }
  // A facet's decision is stored under the facet that made it, so it has that facet's type.
  const decisions: Decisions = {
    of: <D>(facet: Facet<D>) => made.get(facet) as D | undefined,
  };
  return { ok: true, decisions };
}

/**
 * "{id}" templates: the id the caller found or claimed (reconciler.ts, pool/), else the cold one,
 * derived from the Tenant's uid, so `landlord plan` and a first reconcile name the same namespace.
 */
function withNamespaceId(tenant: Tenant, policy: PolicyConfig): PolicyConfig {
  if (policy.namespaceId !== undefined || !usesId(policy.tenantClass.namespace.nameTemplate)) return policy;
  return { ...policy, namespaceId: coldId(tenant.metadata.uid ?? tenant.metadata.name ?? '') };
}
