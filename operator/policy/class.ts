// The platform's policy for one tenant, as far as the checks in this folder read it. A TenantClass
// will feed it (one per row, chosen by the row's `class`); until that exists every Tenant gets the
// built-in class: today's behaviour (Shared namespaces, baseline) with the hardening that holds in
// every tenancy mode.
import type { V1Toleration } from '@kubernetes/client-node';

/** The Pod Security Standards levels, from the most to the least permissive. */
export type PodSecurityLevel = 'privileged' | 'baseline' | 'restricted';

export const POD_SECURITY_LEVELS: readonly PodSecurityLevel[] = ['privileged', 'baseline', 'restricted'];

/** The level used when the operator's configuration names none. */
export const DEFAULT_POD_SECURITY: PodSecurityLevel = 'baseline';

export function isPodSecurityLevel(value: unknown): value is PodSecurityLevel {
  return POD_SECURITY_LEVELS.some((level) => level === value);
}

/**
 * Shared: children live in namespaces other tenants use too, so a pod may reach nothing there but
 * what its own row makes. PerTenant (with TenantClass): the namespace is the tenant's own.
 */
export type TenancyMode = 'Shared' | 'PerTenant';

/** Where the tenant's pods may run: forced onto every pod template, never widened by a row. */
export interface NodePool {
  nodeSelector: Readonly<Record<string, string>>;
  tolerations: readonly V1Toleration[];
}

export interface ClassLimits {
  maxReplicas: number;
  maxConfigMaps: number;
  /** spec.deployment and spec.configMaps together, as JSON bytes. */
  maxRowBytes: number;
  /** priorityClassName may only name one of these; none by default. */
  allowedPriorityClasses: readonly string[];
}

export interface ClassPolicy {
  mode: TenancyMode;
  podSecurity: PodSecurityLevel;
  nodePool: NodePool;
  /** Whether pods mount a ServiceAccount token; landlord sets the pod template's field to this. */
  serviceAccount: { automountToken: boolean };
  limits: ClassLimits;
}

/** DynamoDB's item limit: no row the table can hold is refused for its size alone. */
const DYNAMODB_ITEM_BYTES = 400 * 1024;

/** The built-in class, with the Pod Security level the operator is configured with. */
export function builtInClass(podSecurity: PodSecurityLevel = DEFAULT_POD_SECURITY): ClassPolicy {
  return {
    mode: 'Shared',
    podSecurity,
    nodePool: { nodeSelector: {}, tolerations: [] },
    serviceAccount: { automountToken: false },
    limits: {
      maxReplicas: 50,
      maxConfigMaps: 50,
      maxRowBytes: DYNAMODB_ITEM_BYTES,
      allowedPriorityClasses: [],
    },
  };
}
