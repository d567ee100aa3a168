// Every refusal reason and every refusal message, in one place. Messages are for the humans who
// read `kubectl describe tenant`: they name the child, the field and what to change, and hold no
// timestamps or random text, so an unchanged problem never rewrites the Tenant's status.
import type { PodSecurityLevel } from './class.js';

export const REFUSAL_REASON = {
  specMissing: 'SpecMissing',
  invalidSpec: 'InvalidSpec',
  kindNotAllowed: 'KindNotAllowed',
  namespaceNotAllowed: 'NamespaceNotAllowed',
  forbiddenMetadata: 'ForbiddenMetadata',
  podSecurityViolation: 'PodSecurityViolation',
  duplicateChild: 'DuplicateChild',
  limitExceeded: 'LimitExceeded',
  serviceAccountNotAllowed: 'ServiceAccountNotAllowed',
  referenceNotAllowed: 'ReferenceNotAllowed',
  priorityNotAllowed: 'PriorityNotAllowed',
  placementNotAllowed: 'PlacementNotAllowed',
  labelConflict: 'LabelConflict',
  forbiddenName: 'ForbiddenName',
  volumeNotAllowed: 'VolumeNotAllowed',
  egressNotAllowed: 'EgressNotAllowed',
  secretsNotAllowed: 'SecretsNotAllowed',
  namespaceReserved: 'NamespaceReserved',
  namespaceTrusted: 'NamespaceTrusted',
  namespaceOverlap: 'NamespaceOverlap',
  exposeNotAllowed: 'ExposeNotAllowed',
  invalidHost: 'InvalidHost',
  hostNotAllowed: 'HostNotAllowed',
  gatewayApiMissing: 'GatewayApiMissing',
  hostConflict: 'HostConflict',
  poolNeedsIdTemplate: 'PoolNeedsIdTemplate',
} as const;

export type RefusalReason = (typeof REFUSAL_REASON)[keyof typeof REFUSAL_REASON];

export const REFUSAL_REASONS: readonly RefusalReason[] = Object.values(REFUSAL_REASON);

export interface Refusal {
  reason: RefusalReason;
  message: string;
}

/** Where a problem is: the child it belongs to ("Deployment team-a/web") and the field's path. */
export interface Place {
  child: string;
  path: string;
}

/** A class limit and the value that went over it. */
export interface Exceeded {
  limit: string;
  value: number;
  max: number;
}

function refuse(reason: RefusalReason, message: string): Refusal {
  return { reason, message };
}

export const refusal = {
  specMissing: (): Refusal =>
    refuse(
      REFUSAL_REASON.specMissing,
      "no valid spec has been synced for this tenant yet; sync sets spec.deployment once the tenant's row holds a valid apps/v1 Deployment",
    ),

  kindNotAllowed: (path: string, found: string, fix: string): Refusal =>
    refuse(
      REFUSAL_REASON.kindNotAllowed,
      `only apps/v1 Deployment and v1 ConfigMap children are allowed; ${path} is ${found}: ${fix}`,
    ),

  invalidSpec: (at: Place, problem: string): Refusal =>
    refuse(REFUSAL_REASON.invalidSpec, `${at.child}: ${at.path}: ${problem}`),

  missingField: (at: Place, hint: string | undefined): Refusal =>
    refuse(
      REFUSAL_REASON.invalidSpec,
      `${at.child}: ${at.path} is required${hint === undefined ? '' : `; ${hint}`}`,
    ),

  generateName: (at: Place): Refusal =>
    refuse(
      REFUSAL_REASON.invalidSpec,
      `${at.child}: ${at.path}.generateName without ${at.path}.name is not supported; landlord applies children by name, so set ${at.path}.name`,
    ),

  namespaceNotAllowed: (at: Place, namespace: string, why: string, allowed: string): Refusal =>
    refuse(
      REFUSAL_REASON.namespaceNotAllowed,
      `${at.child}: ${at.path}: namespace ${namespace} ${why}; ${allowed}`,
    ),

  /**
   * PerTenant: the namespace the class's template makes for this tenant may not be its own. The
   * reason says which rule: a system name, a reserved one, one the class's network rules trust, or
   * one another class's template makes.
   */
  tenantNamespaceNotAllowed: (
    reason: TenantNamespaceReason,
    namespace: string,
    from: string,
    why: string,
  ): Refusal =>
    refuse(
      reason,
      `the tenant's namespace ${namespace} (${from}) ${why}; rename the row or change the class's namespace.nameTemplate`,
    ),

  forbiddenMetadata: (at: Place, problem: string, fix: string): Refusal =>
    refuse(REFUSAL_REASON.forbiddenMetadata, `${at.child}: ${at.path}: ${problem}; ${fix}`),

  duplicateChild: (at: Place, firstPath: string): Refusal =>
    refuse(
      REFUSAL_REASON.duplicateChild,
      `${at.child}: ${at.path} has the same namespace and name as ${firstPath}; give each ConfigMap its own name, or merge them into one`,
    ),

  podSecurity: (at: Place, level: PodSecurityLevel, problem: string, fix: string): Refusal =>
    refuse(
      REFUSAL_REASON.podSecurityViolation,
      `${at.child}: ${at.path}: ${problem} by the ${level} Pod Security Standard; ${fix}`,
    ),

  limitExceeded: (at: Place, over: Exceeded, fix: string): Refusal =>
    refuse(
      REFUSAL_REASON.limitExceeded,
      `${at.child}: ${at.path}: ${over.value} is over the tenant class's limit ${over.limit} of ${over.max}; ${fix}`,
    ),

  /** A rule about the pod template, other than Pod Security: the reason says which family. */
  podRule: (reason: PodRuleReason, at: Place, problem: string, fix: string): Refusal =>
    refuse(reason, `${at.child}: ${at.path}: ${problem}; ${fix}`),

  /** A name a controller writes in every namespace: landlord and it would undo each other forever. */
  forbiddenName: (at: Place, owner: string): Refusal =>
    refuse(
      REFUSAL_REASON.forbiddenName,
      `${at.child}: ${at.path}: this name is written in every namespace by ${owner}, which would rewrite it after every apply and landlord after every rewrite; give it another name`,
    ),

  /** The class's egress rules cannot be made into a fence: nothing is applied until it is fixed. */
  egressNotAllowed: (className: string, path: string, problem: string): Refusal =>
    refuse(
      REFUSAL_REASON.egressNotAllowed,
      `TenantClass ${className}: ${path}: ${problem}; fix the class (a platform admin's change), nothing is applied meanwhile`,
    ),

  /** `expose` on a class whose tenants have no namespace of their own (Shared). */
  exposeNotAllowed: (className: string): Refusal =>
    refuse(
      REFUSAL_REASON.exposeNotAllowed,
      `TenantClass ${className} sets expose, which only a PerTenant class may (a Shared namespace is not the tenant's to route): remove expose or make the class PerTenant (a platform admin's change); nothing is applied meanwhile`,
    ),

  /** The class's templated host is not a host a tenant may hold: a class problem, so nothing is applied. */
  host: (reason: HostReason, className: string, host: string, problem: string): Refusal =>
    refuse(
      reason,
      `TenantClass ${className}: expose.host gives ${JSON.stringify(host)} for this tenant, which ${problem}; fix expose.host or allowedDomains (a platform admin's change); nothing is applied meanwhile`,
    ),

  /** A host the row's `hosts` names that its tenant may not hold. */
  rowHost: (reason: HostReason, index: number, host: string, problem: string): Refusal =>
    refuse(
      reason,
      `the row's hosts[${index}] ${JSON.stringify(host)} ${problem}; change the row's hosts (nothing new is applied meanwhile)`,
    ),

  /**
   * The tenant's templated host is held by a route landlord did not make outside tenant namespaces,
   * or by an earlier Tenant of a class whose template overlaps (`holder` says which): this one waits
   * for it, and gets it when the holder lets go. (A custom host is withheld alone: HostsReady.)
   */
  hostConflict: (host: string, holder: string): Refusal =>
    refuse(
      REFUSAL_REASON.hostConflict,
      `host ${JSON.stringify(host)} is held by ${holder}, which had it first (a route not made by landlord outside tenant namespaces always does; among Tenants, the one created earlier, or as early and named first); this tenant gets it once the holder lets it go (a Tenant's row drops it, or it is archived or deleted; a route stops serving it), or its class's expose.host changes; nothing new is applied meanwhile`,
    ),

  gatewayApiMissing: (className: string): Refusal =>
    refuse(
      REFUSAL_REASON.gatewayApiMissing,
      `TenantClass ${className} asks for an HTTPRoute (expose.gateway), but this cluster does not serve gateway.networking.k8s.io/v1 HTTPRoutes: install the Gateway API CRDs and restart the operator, or use expose.ingressClassName; nothing is applied meanwhile`,
    ),

  /** Secrets go into a namespace of the tenant's own: a Shared class has none to put them in. */
  secretsNotAllowed: (className: string): Refusal =>
    refuse(
      REFUSAL_REASON.secretsNotAllowed,
      `TenantClass ${className}: spec.secrets needs namespace.mode PerTenant: a Shared namespace is other tenants' too, so a copy there would be theirs to read; remove the secrets or make the class PerTenant (a platform admin's change), nothing is applied meanwhile`,
    ),

  labelConflict: (at: Place, problem: string, other: string): Refusal =>
    refuse(
      REFUSAL_REASON.labelConflict,
      `${at.child}: ${at.path}: ${problem} of Tenant ${other}, which came first and keeps them; give this tenant's pods labels and a selector of their own`,
    ),
};

/** The reasons a PerTenant tenant's namespace is refused. */
export type TenantNamespaceReason =
  | typeof REFUSAL_REASON.namespaceNotAllowed
  | typeof REFUSAL_REASON.namespaceReserved
  | typeof REFUSAL_REASON.namespaceTrusted
  | typeof REFUSAL_REASON.namespaceOverlap
  | typeof REFUSAL_REASON.poolNeedsIdTemplate;

/** Why a host is not one a tenant may hold. */
export type HostReason = typeof REFUSAL_REASON.invalidHost | typeof REFUSAL_REASON.hostNotAllowed;

/** The reasons of the pod template rules that are not Pod Security. */
export type PodRuleReason =
  | typeof REFUSAL_REASON.serviceAccountNotAllowed
  | typeof REFUSAL_REASON.referenceNotAllowed
  | typeof REFUSAL_REASON.priorityNotAllowed
  | typeof REFUSAL_REASON.placementNotAllowed
  | typeof REFUSAL_REASON.invalidSpec
  | typeof REFUSAL_REASON.limitExceeded
  | typeof REFUSAL_REASON.volumeNotAllowed;
