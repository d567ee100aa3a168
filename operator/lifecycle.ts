// What a Tenant's lifecycle state asks of its children. wantedChildren is the one answer: the
// reconciler converges to exactly these children and `landlord plan` compares exactly these, so a
// plan can never show a state differently from how the operator carries it out. Pure.
import type { V1Deployment } from '@kubernetes/client-node';
import { DEFAULT_STATE, isTenantState, type Tenant, type TenantState } from '../api/tenant.js';
import { desiredChildren, type DesiredChild } from './desired.js';
import type { ChildRef } from './child-ref.js';
import { NO_SOURCES, type SecretSources } from './secrets/sources.js';
import { wantedSecrets, type SecretsWanted } from './secrets/wanted.js';
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
  | {
      ok: true;
      state: TenantState;
      children: DesiredChild[];
      namespace: string | undefined;
      /** PerTenant classes with secrets: what they came to, for SecretsReady and the pruner. */
      secrets?: SecretsWanted;
    }
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
  sources: SecretSources = NO_SOURCES,
): Wanted {
  const state = requestedState(tenant);
  // Decided here, once: the tenancy objects and the children's placement both take this answer.
  const placement = tenantNamespace(tenant.metadata.name ?? '', policy);
  if (!placement.ok) return { ok: false, state, refusal: placement.refusal };
  const fence = egressRefusal(policy, placement.namespace) ?? secretsRefusal(policy, placement.namespace);
  if (fence !== undefined) return { ok: false, state, refusal: fence };
  const { namespace } = placement;
  const { objects, secrets } = namespaceChildren(tenant, policy, namespace, sources);
  const withSecrets = secrets === undefined ? {} : { secrets };
  if (!keepsChildren(state)) return { ok: true, state, children: objects, namespace, ...withSecrets };
  const verdict = evaluateTenant(tenant, policy, neighbours, placement);
  if (!verdict.ok) return { ok: false, state, refusal: verdict.refusal };
  const children = state === 'suspended' ? scaledToZero(verdict.children) : verdict.children;
  const all = [...objects, ...desiredChildren(tenant, children)];
  return { ok: true, state, children: all, namespace, ...withSecrets };
}

/** The copies a reconcile keeps without applying them (their source is missing or not allowed). */
export function retainedChildren(wanted: Wanted): readonly ChildRef[] {
  return wanted.ok ? (wanted.secrets?.retained ?? []) : [];
}

/**
 * What a PerTenant class puts in the tenant's namespace: the fences, then the secrets, in every
 * state. Shared: no namespace of its own, nothing to add.
 */
function namespaceChildren(
  tenant: Tenant,
  policy: PolicyConfig,
  namespace: string | undefined,
  sources: SecretSources,
): { objects: DesiredChild[]; secrets?: SecretsWanted } {
  if (namespace === undefined) return { objects: [] };
  const secrets = tenantSecrets(tenant, policy, namespace, sources);
  const objects = [...tenancyObjects(tenant, policy.tenantClass, namespace), ...(secrets?.children ?? [])];
  return secrets === undefined ? { objects } : { objects, secrets };
}

/** Undefined for a class without secrets: its Tenants report no SecretsReady. */
function tenantSecrets(
  tenant: Tenant,
  policy: PolicyConfig,
  namespace: string,
  sources: SecretSources,
): SecretsWanted | undefined {
  if (policy.tenantClass.secrets.length === 0) return undefined;
  const sourceNamespaces = policy.secretSourceNamespaces ?? [];
  return wantedSecrets(tenant, policy.tenantClass, namespace, { sourceNamespaces, sources });
}

/** A Shared class with secrets: there is no namespace of the tenant's own to put them in. */
function secretsRefusal(policy: PolicyConfig, namespace: string | undefined): Refusal | undefined {
  const { tenantClass } = policy;
  if (namespace !== undefined || tenantClass.secrets.length === 0) return undefined;
  return refusal.secretsNotAllowed(tenantClass.name);
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
