// PerTenant: the tenant's namespace, decided once (tenantNamespace) and handed to whatever needs it:
// the tenancy objects, and the placement of the children. Every child goes into that namespace
// whatever its manifest says, as kustomize's `namespace:` field does, so rows written for a shared
// namespace ("namespace": "default") keep working. The checks after this one see the children where
// they will be applied. An existing namespace the Tenant does not own is the converger's business
// (ownership.ts: Conflict), since only the cluster knows whether it exists.
import type { V1ConfigMap, V1Deployment } from '@kubernetes/client-node';
import { tenantNamespaceName, type NamespaceRefusal } from '../namespaces/rules.js';
import type { Child, ValidChildren } from './children.js';
import type { PolicyConfig } from './config.js';
import { quote } from './json.js';
import { REFUSAL_REASON, refusal, type Refusal, type TenantNamespaceReason } from './refusals.js';

/** Each namespace rule's own reason (issue 37: a squatting attempt says which rule stopped it). */
const REASON_OF: Record<NamespaceRefusal, TenantNamespaceReason> = {
  notAllowed: REFUSAL_REASON.namespaceNotAllowed,
  reserved: REFUSAL_REASON.namespaceReserved,
  trusted: REFUSAL_REASON.namespaceTrusted,
  overlap: REFUSAL_REASON.namespaceOverlap,
  poolTemplate: REFUSAL_REASON.poolNeedsIdTemplate,
};

export type TenantNamespace =
  /** PerTenant: the tenant's own namespace. Shared: undefined, the children stay where they say. */
  { ok: true; namespace: string | undefined } | { ok: false; refusal: Refusal };

/** The namespace the tenant's class gives it, or why it may not have it. */
export function tenantNamespace(tenant: string, config: PolicyConfig): TenantNamespace {
  const { tenantClass } = config;
  if (tenantClass.mode !== 'PerTenant') return { ok: true, namespace: undefined };
  const template = tenantClass.namespace.nameTemplate;
  const named = tenantNamespaceName(tenant, tenantClass, config);
  if (named.ok) return named;
  const from = `from the name template ${quote(template)} of class ${tenantClass.name}`;
  return {
    ok: false,
    refusal: refusal.tenantNamespaceNotAllowed(
      REASON_OF[named.kind],
      quote(named.namespace),
      from,
      named.problem,
    ),
  };
}

/** The children as they will be applied: unchanged in Shared mode, moved to the tenant's namespace in PerTenant. */
export function placeChildren(children: ValidChildren, namespace: string | undefined): ValidChildren {
  if (namespace === undefined) return children;
  return {
    deployment: inNamespace(children.deployment, namespace),
    configMaps: children.configMaps.map((child) => inNamespace(child, namespace)),
  };
}

/** A shallow copy with the namespace replaced: the Tenant the manifest came from is never written. */
function inNamespace<T extends V1Deployment | V1ConfigMap>(child: Child<T>, namespace: string): Child<T> {
  const value = child.value;
  return { ...child, value: { ...value, metadata: { ...value.metadata, namespace } } };
}
