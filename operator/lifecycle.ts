// What a Tenant's lifecycle state asks of its children. wantedChildren is the one answer: the
// reconciler converges to exactly these children and `landlord plan` compares exactly these, so a
// plan can never show a state differently from how the operator carries it out. Pure.
import type { V1Deployment } from '@kubernetes/client-node';
import { DEFAULT_STATE, isTenantState, type Tenant, type TenantState } from '../api/tenant.js';
import { desiredChildren, type DesiredChild } from './desired.js';
import { coldId, usesId } from './namespaces/ids.js';
import { egressProblem } from './tenancy/egress.js';
import { tenancyObjects } from './tenancy/namespace-objects.js';
import {
  evaluateTenant,
  NO_NEIGHBOURS,
  refusal,
  tenantNamespace,
  type DesiredChildren,
  type Neighbours,
  type PolicyConfig,
  type Refusal,
} from './policy/index.js';

export type Wanted =
  /**
   * The children to apply (with landlord's ownership); none for a state that keeps none. In a
   * PerTenant class, first the tenant's namespace and what fences it in, kept in every state.
   */
  | { ok: true; state: TenantState; children: DesiredChild[]; namespace: string | undefined }
  /** The policy refuses the spec: nothing changes, whatever the state. */
  | { ok: false; state: TenantState; refusal: Refusal };

/** The state the spec asks for. The CRD's enum admits no other value, and defaults an absent one. */
export function requestedState(tenant: Tenant): TenantState {
  const state: unknown = tenant.spec?.state;
  return isTenantState(state) ? state : DEFAULT_STATE;
}

/** archived and purged keep no children; purged would also delete data, had this release a purger. */
export function keepsChildren(state: TenantState): boolean {
  return state === 'active' || state === 'suspended';
}

/**
 * The children the Tenant asks for in its state. A state that keeps none needs no policy verdict:
 * deleting what this Tenant controls is always allowed, so a spec the policy refuses today (a
 * stricter Pod Security level, say) cannot hold an archive back. `neighbours`: the other Tenants'
 * Deployments, which the operator knows and `landlord validate` does not.
 */
export function wantedChildren(
  tenant: Tenant,
  policy: PolicyConfig,
  neighbours: Neighbours = NO_NEIGHBOURS,
): Wanted {
  const state = requestedState(tenant);
  // Decided here, once: the tenancy objects and the children's placement both take this answer.
  const placement = tenantNamespace(tenant.metadata.name ?? '', withNamespaceId(tenant, policy));
  if (!placement.ok) return { ok: false, state, refusal: placement.refusal };
  const fence = egressRefusal(policy, placement.namespace);
  if (fence !== undefined) return { ok: false, state, refusal: fence };
  const { namespace } = placement;
  // Shared: no namespace of its own, nothing to add.
  const objects = namespace === undefined ? [] : tenancyObjects(tenant, policy.tenantClass, namespace);
  if (!keepsChildren(state)) return { ok: true, state, children: objects, namespace };
  const verdict = evaluateTenant(tenant, policy, neighbours, placement);
  if (!verdict.ok) return { ok: false, state, refusal: verdict.refusal };
  const children = state === 'suspended' ? scaledToZero(verdict.children) : verdict.children;
  return { ok: true, state, children: [...objects, ...desiredChildren(tenant, children)], namespace };
}

/**
 * "{id}" templates: the id the caller found or claimed (reconciler.ts, pool/), else the cold one,
 * derived from the Tenant's uid, so `landlord plan` and a first reconcile name the same namespace.
 */
function withNamespaceId(tenant: Tenant, policy: PolicyConfig): PolicyConfig {
  if (policy.namespaceId !== undefined || !usesId(policy.tenantClass.namespace.nameTemplate)) return policy;
  return { ...policy, namespaceId: coldId(tenant.metadata.uid ?? tenant.metadata.name ?? '') };
}

/** An Isolated namespace whose class lists an egress entry that cannot be fenced: nothing is applied. */
function egressRefusal(policy: PolicyConfig, namespace: string | undefined): Refusal | undefined {
  const { tenantClass } = policy;
  if (namespace === undefined || tenantClass.networkIsolation !== 'Isolated') return undefined;
  const problem = egressProblem(tenantClass);
  return problem === undefined
    ? undefined
    : refusal.egressNotAllowed(tenantClass.name, problem.path, problem.text);
}

/**
 * The row's children with the Deployment at 0 replicas and every other field as the row says: the
 * spec, ConfigMaps and rollout history stay, and applying the row's manifest again restores its
 * replicas (server-side apply drops the 0 when landlord no longer sends it).
 */
function scaledToZero(children: DesiredChildren): DesiredChildren {
  const { deployment } = children;
  const scaled: V1Deployment = { ...deployment, spec: { ...deployment.spec!, replicas: 0 } };
  return { ...children, deployment: scaled };
}
