// The operator's policy: whether a Tenant's spec may be applied, and if so the children it asks
// for. Pure: no I/O, no clock, no randomness; the same Tenant and config always give the same answer.
import type { V1ConfigMap, V1Deployment } from '@kubernetes/client-node';
import type { Tenant } from '../../api/tenant.js';
import { configMapChildren, deploymentChild, type ValidChildren } from './children.js';
import { withClassFields } from './class-fields.js';
import type { ClassLimits, ClassPolicy, PolicyConfig } from './config.js';
import { checkControllerNames } from './controller-names.js';
import { checkDuplicates } from './duplicates.js';
import { isRecord, isUnset, type JsonRecord } from './json.js';
import { checkKinds } from './kinds.js';
import { checkConfigMapCount, checkReplicas, checkRowSize } from './limits.js';
import { checkMetadata } from './metadata.js';
import { checkNamespaces } from './namespaces.js';
import { checkLabelConflicts, createdAt, NO_NEIGHBOURS, type Neighbours, type Self } from './neighbours.js';
import { checkPodRules } from './pod-rules.js';
import { checkPodSecurity } from './pod-security.js';
import { refusal, type Refusal } from './refusals.js';
import { checkConfigMapList, checkShapes } from './shape.js';
import { placeChildren, tenantNamespace, type TenantNamespace } from './tenant-namespace.js';

export { builtInClass, type PodSecurityLevel, type PolicyConfig } from './config.js';
export {
  NO_NEIGHBOURS,
  createdAt,
  neighbourOf,
  type LabelProbe,
  type Neighbour,
  type Neighbours,
} from './neighbours.js';
export { tenantNamespace, type TenantNamespace } from './tenant-namespace.js';
export { TENANT_SERVICE_ACCOUNT } from '../namespaces/tenant-account.js';
export { refusal, REFUSAL_REASON, REFUSAL_REASONS, type Refusal, type RefusalReason } from './refusals.js';

/**
 * The children to apply, as the Tenant gave them with the class's pod template fields set (token
 * automount, node pool): the reconciler adds owners and labels.
 */
export interface DesiredChildren {
  deployment: V1Deployment;
  configMaps: V1ConfigMap[];
}

export type PolicyResult = { ok: true; children: DesiredChildren } | { ok: false; refusal: Refusal };

/**
 * Checks a Tenant's spec and reports the first problem, in a fixed order: spec present, limits on
 * size and count, kinds, shape, namespaces, metadata, names controllers own, duplicates, replicas, the pod rules (identity,
 * references, priority, placement), Pod Security, labels shared with older neighbours. On success
 * the children share every part of the Tenant they do not change: read them, copy to change them.
 * `neighbours` are the other Tenants' Deployments (none by default:
 * `landlord validate` judges one row alone). `placement`: the tenant's namespace, when the caller
 * has already decided it (the engine's workload facet does, once per reconcile); a refused one is reported where
 * the namespace check stands in the order above.
 */
export function evaluateTenant(
  tenant: Tenant,
  config: PolicyConfig,
  neighbours: Neighbours = NO_NEIGHBOURS,
  placement: TenantNamespace = tenantNamespace(tenant.metadata.name ?? '', config),
): PolicyResult {
  const spec = specOf(tenant);
  const early = checkRow(spec, config.tenantClass.limits);
  if (early !== undefined) return refused(early);
  const shaped = checkShapes(deploymentChild(spec.deployment), configMapChildren(spec.configMaps));
  if (!shaped.ok) return shaped;
  const self = {
    tenant: tenant.metadata.name ?? '',
    createdAt: createdAt(tenant.metadata.creationTimestamp),
  };
  if (!placement.ok) return placement;
  const children = placeChildren(shaped.children, placement.namespace);
  const problem = checkChildren(children, config) ?? checkNeighbours(self, children, config, neighbours);
  return problem === undefined
    ? { ok: true, children: childrenOf(children, config.tenantClass) }
    : refused(problem);
}

/** What can be told before the shape check: a huge row costs a count, no schema walk. */
function checkRow(spec: JsonRecord, limits: ClassLimits): Refusal | undefined {
  if (isUnset(spec.deployment)) return refusal.specMissing();
  return (
    checkRowSize(spec, limits) ??
    checkConfigMapCount(spec.configMaps, limits) ??
    checkKinds([deploymentChild(spec.deployment), ...configMapChildren(spec.configMaps)]) ??
    checkConfigMapList(spec.configMaps)
  );
}

/**
 * The namespace allow-list is for Shared mode: in PerTenant the children are already in the
 * tenant's own namespace (tenant-namespace.ts), whose name has its own check.
 */
function checkChildren(children: ValidChildren, config: PolicyConfig): Refusal | undefined {
  const { tenantClass } = config;
  const shared = tenantClass.mode === 'Shared';
  return (
    (shared ? checkNamespaces(children, config) : undefined) ??
    checkMetadata(children) ??
    checkControllerNames(children) ??
    checkDuplicates(children) ??
    checkReplicas(children.deployment, tenantClass.limits) ??
    checkPodRules(children, tenantClass) ??
    checkPodSecurity(children.deployment, tenantClass.podSecurity)
  );
}

/** Only a shared namespace has neighbours: a PerTenant namespace holds one tenant's pods. */
function checkNeighbours(
  self: Self,
  children: ValidChildren,
  config: PolicyConfig,
  neighbours: Neighbours,
): Refusal | undefined {
  if (config.tenantClass.mode !== 'Shared') return undefined;
  return checkLabelConflicts(self, children.deployment, neighbours);
}

/** The spec as untrusted JSON: the Tenant came from the API server, the manifests from a table row. */
function specOf(tenant: Tenant): JsonRecord {
  const spec: unknown = tenant.spec;
  return isRecord(spec) ? spec : {};
}

function refused(problem: Refusal): PolicyResult {
  return { ok: false, refusal: problem };
}

// No deep copies: every step after this one copies what it changes (withClassFields,
// withOwnership, withExposedPods, scaledToZero), and the operator's cached Tenants are frozen, so a
// step that wrote into the Tenant it read would throw instead. A copy of every manifest on every
// reconcile was 2.8 % of the operator's CPU in a cold start.
function childrenOf(children: ValidChildren, tenantClass: ClassPolicy): DesiredChildren {
  return {
    deployment: withClassFields(children.deployment.value, tenantClass),
    configMaps: children.configMaps.map((child) => child.value),
  };
}
