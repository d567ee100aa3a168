// What a Tenant's lifecycle state asks of its children. wantedChildren is the one answer: the
// reconciler converges to exactly these children and `landlord plan` compares exactly these, so a
// plan can never show a state differently from how the operator carries it out. Pure.
import type { V1Deployment } from '@kubernetes/client-node';
import { DEFAULT_STATE, isTenantState, type Tenant, type TenantState } from '../api/tenant.js';
import { desiredChildren, type DesiredChild } from './desired.js';
import { NO_HOST_HOLDERS, type HostHolders } from './exposure/claims.js';
import { exposureObjects, exposureOf, type Exposed } from './exposure/exposure.js';
import { withExposedPods } from './exposure/objects.js';
import type { ChildRef } from './child-ref.js';
import { NO_SOURCES, type SecretSources } from './secrets/sources.js';
import { wantedSecrets, type SecretsWanted } from './secrets/wanted.js';
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
  | {
      ok: true;
      state: TenantState;
      children: DesiredChild[];
      namespace: string | undefined;
      /** Where the tenant is reached, when its class exposes it and its state keeps the route. */
      url?: string;
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

/** What the operator knows beyond the one Tenant, which `landlord validate` (offline) does not. */
export interface ClusterView {
  /** The other Tenants' Deployments. */
  neighbours?: Neighbours;
  /** Who holds each host cluster-wide. */
  holders?: HostHolders;
  /** The Secrets classes copy from, as their watch last saw them. */
  sources?: SecretSources;
}

/**
 * The children the Tenant asks for in its state. A state that keeps none needs no policy verdict:
 * deleting what this Tenant controls is always allowed, so a spec the policy refuses today (a
 * stricter Pod Security level, say) cannot hold an archive back.
 */
export function wantedChildren(tenant: Tenant, policy: PolicyConfig, cluster: ClusterView = {}): Wanted {
  const state = requestedState(tenant);
  const placed = placementOf(tenant, policy, cluster.holders ?? NO_HOST_HOLDERS);
  if (!placed.ok) return { ok: false, state, refusal: placed.refusal };
  const { placement, exposure } = placed;
  const { namespace } = placement;
  // The Service and route go and come back with the Deployment: a state that keeps no Deployment
  // keeps no route, and then the tenant holds no host. The secrets stay in every state.
  const exposed = keepsChildren(state) ? exposure : undefined;
  const sources = cluster.sources ?? NO_SOURCES;
  const { objects, secrets } = namespaceChildren(tenant, policy, { namespace, exposed, sources });
  const extras = {
    ...(secrets === undefined ? {} : { secrets }),
    ...(exposed === undefined ? {} : { url: exposed.url }),
  };
  if (!keepsChildren(state)) return { ok: true, state, children: objects, namespace, ...extras };
  const verdict = evaluateTenant(tenant, policy, cluster.neighbours ?? NO_NEIGHBOURS, placement);
  if (!verdict.ok) return { ok: false, state, refusal: verdict.refusal };
  const workload = desiredChildren(tenant, workloadOf(tenant, state, verdict.children, exposed));
  const children = [...objects, ...routeOf(tenant, exposed, namespace), ...workload];
  return { ok: true, state, children, namespace, ...extras };
}

type Placement = Extract<ReturnType<typeof tenantNamespace>, { ok: true }>;

/**
 * Where the tenant goes and how it is reached, decided once per reconcile: the tenancy objects and
 * the children's placement both take this answer. A class problem refuses the tenant here.
 */
function placementOf(
  tenant: Tenant,
  policy: PolicyConfig,
  holders: HostHolders,
): { ok: true; placement: Placement; exposure: Exposed | undefined } | { ok: false; refusal: Refusal } {
  const placement = tenantNamespace(tenant.metadata.name ?? '', withNamespaceId(tenant, policy));
  if (!placement.ok) return placement;
  const { namespace } = placement;
  const fence = egressRefusal(policy, namespace) ?? secretsRefusal(policy, namespace);
  if (fence !== undefined) return { ok: false, refusal: fence };
  const exposure = exposureOf(tenant, policy.tenantClass, {
    gatewayApi: policy.gatewayApi,
    holders,
    namespace,
  });
  if (!exposure.ok) return exposure;
  return { ok: true, placement, exposure: exposure.exposed };
}

/** The copies a reconcile keeps without applying them (their source is missing or not allowed). */
export function retainedChildren(wanted: Wanted): readonly ChildRef[] {
  return wanted.ok ? (wanted.secrets?.retained ?? []) : [];
}

/**
 * What a PerTenant class puts in the tenant's namespace, in every state: the namespace (announcing
 * the hosts held) and what fences it in, then the secrets. Shared: no namespace of its own, nothing.
 */
function namespaceChildren(
  tenant: Tenant,
  policy: PolicyConfig,
  into: { namespace: string | undefined; exposed: Exposed | undefined; sources: SecretSources },
): { objects: DesiredChild[]; secrets?: SecretsWanted } {
  const { namespace, exposed, sources } = into;
  if (namespace === undefined) return { objects: [] };
  const secrets = tenantSecrets(tenant, policy, namespace, sources);
  const fences = tenancyObjects(tenant, policy.tenantClass, namespace, exposed?.hosts ?? []);
  const objects = [...fences, ...(secrets?.children ?? [])];
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

function routeOf(
  tenant: Tenant,
  exposed: Exposed | undefined,
  namespace: string | undefined,
): DesiredChild[] {
  return exposed === undefined || namespace === undefined ? [] : exposureObjects(tenant, exposed, namespace);
}

/** The row's children as the state asks (suspended: 0 replicas), exposed pods labelled for the Service. */
function workloadOf(
  tenant: Tenant,
  state: TenantState,
  children: DesiredChildren,
  exposed: Exposed | undefined,
): DesiredChildren {
  const scaled = state === 'suspended' ? scaledToZero(children) : children;
  return exposed === undefined ? scaled : exposedPods(scaled);
}

/** The pods carry the label the tenant's Service selects on (exposure/objects.ts). */
function exposedPods(children: DesiredChildren): DesiredChildren {
  return { ...children, deployment: withExposedPods(children.deployment) };
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
