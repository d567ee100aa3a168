// The operator's policy: whether a Tenant's spec may be applied, and if so the children it asks
// for. Pure: no I/O, no clock, no randomness; the same Tenant and config always give the same answer.
import type { V1ConfigMap, V1Deployment } from '@kubernetes/client-node';
import type { Tenant } from '../../api/tenant.js';
import { configMapChildren, deploymentChild, type ValidChildren } from './children.js';
import type { PolicyConfig } from './config.js';
import { checkDuplicates } from './duplicates.js';
import { isRecord, isUnset, type JsonRecord } from './json.js';
import { checkKinds } from './kinds.js';
import { checkMetadata } from './metadata.js';
import { checkNamespaces } from './namespaces.js';
import { checkPodSecurity } from './pod-security.js';
import { refusal, type Refusal } from './refusals.js';
import { checkConfigMapList, checkShapes } from './shape.js';

export {
  DEFAULT_POD_SECURITY,
  POD_SECURITY_LEVELS,
  isPodSecurityLevel,
  type PodSecurityLevel,
  type PolicyConfig,
} from './config.js';
export { FORBIDDEN_NAMESPACES, isNamespaceAllowed } from './namespaces.js';
export { isDns1123Label, isDns1123Subdomain } from '../../util/names.js';
export { REFUSAL_REASON, REFUSAL_REASONS, type Refusal, type RefusalReason } from './refusals.js';

/** The children to apply, exactly as the Tenant gave them: the reconciler adds owners and labels. */
export interface DesiredChildren {
  deployment: V1Deployment;
  configMaps: V1ConfigMap[];
}

export type PolicyResult = { ok: true; children: DesiredChildren } | { ok: false; refusal: Refusal };

/**
 * Checks a Tenant's spec and reports the first problem, in a fixed order: spec present, kinds,
 * shape, namespaces, metadata, duplicates, Pod Security. On success the children are deep copies.
 */
export function evaluateTenant(tenant: Tenant, config: PolicyConfig): PolicyResult {
  const spec = specOf(tenant);
  if (isUnset(spec.deployment)) return refused(refusal.specMissing());
  const deployment = deploymentChild(spec.deployment);
  const configMaps = configMapChildren(spec.configMaps);
  const early = checkKinds([deployment, ...configMaps]) ?? checkConfigMapList(spec.configMaps);
  if (early !== undefined) return refused(early);
  const shaped = checkShapes(deployment, configMaps);
  if (!shaped.ok) return shaped;
  const { children } = shaped;
  const problem =
    checkNamespaces(children, config) ??
    checkMetadata(children) ??
    checkDuplicates(children) ??
    checkPodSecurity(children.deployment, config.podSecurity);
  return problem === undefined ? { ok: true, children: copyOf(children) } : refused(problem);
}

/** The spec as untrusted JSON: the Tenant came from the API server, the manifests from a table row. */
function specOf(tenant: Tenant): JsonRecord {
  const spec: unknown = tenant.spec;
  return isRecord(spec) ? spec : {};
}

function refused(problem: Refusal): PolicyResult {
  return { ok: false, refusal: problem };
}

// Copies, so that whatever the reconciler adds never writes back into the Tenant it read.
function copyOf(children: ValidChildren): DesiredChildren {
  return {
    deployment: structuredClone(children.deployment.value),
    configMaps: children.configMaps.map((child) => structuredClone(child.value)),
  };
}
