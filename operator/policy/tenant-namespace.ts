// PerTenant: every child goes into the tenant's own namespace whatever its manifest says, as
// kustomize's `namespace:` field does, so rows written for a shared namespace ("namespace":
// "default") keep working. The checks after this one see the children where they will be applied.
import type { V1ConfigMap, V1Deployment } from '@kubernetes/client-node';
import { tenantNamespace } from '../tenancy/namespace-name.js';
import type { Child, ValidChildren } from './children.js';
import type { PolicyConfig } from './config.js';
import type { Refusal } from './refusals.js';

export type Placed = { ok: true; children: ValidChildren } | { ok: false; refusal: Refusal };

/** The children as they will be applied: unchanged in Shared mode, moved to the tenant's namespace in PerTenant. */
export function placeChildren(children: ValidChildren, tenant: string, config: PolicyConfig): Placed {
  const { tenantClass } = config;
  if (tenantClass.mode !== 'PerTenant') return { ok: true, children };
  const placed = tenantNamespace(tenant, tenantClass, config.operatorNamespace);
  if (!placed.ok) return placed;
  const { namespace } = placed;
  return {
    ok: true,
    children: {
      deployment: inNamespace(children.deployment, namespace),
      configMaps: children.configMaps.map((child) => inNamespace(child, namespace)),
    },
  };
}

/** A shallow copy with the namespace replaced: the Tenant the manifest came from is never written. */
function inNamespace<T extends V1Deployment | V1ConfigMap>(child: Child<T>, namespace: string): Child<T> {
  const value = child.value;
  return { ...child, value: { ...value, metadata: { ...value.metadata, namespace } } };
}
