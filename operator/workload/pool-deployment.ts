// A pooled class's Deployment as a warm pool member runs it: checked and shaped by the very policy
// a row's Deployment goes through, so a row whose Deployment has the pool Deployment's name and pod
// template asks for exactly the pod template already running, and a claim changes the Deployment's
// metadata, not its pods. Pure.
import type { V1Deployment } from '@kubernetes/client-node';
import { API_VERSION, KIND, type Tenant } from '../../api/tenant.js';
import type { ClassExpose } from '../../api/tenantclass.js';
import { childRef } from '../child-ref.js';
import { withExposedPods } from '../exposure/objects.js';
import type { MemberInput, MemberObject } from '../facets/contract.js';
import { evaluateTenant, type Refusal } from '../policy/index.js';

/** The name a refusal gives the pool's Deployment, as if a tenant of this name had asked for it. */
const poolTenantName = (className: string): string => `${className}-warm-pool`;

/** What the shape check sees in place of a member's namespace, which no pool Deployment can know. */
const MEMBER_NAMESPACE_STAND_IN = 'warm-pool-member';

/**
 * The policy places every child of a PerTenant class in the tenant's namespace whatever its
 * manifest says (policy/tenant-namespace.ts); a member's is not known yet, so a Deployment written
 * without `metadata.namespace`, as docs/warm-pool.md's example is, is given a stand-in that the
 * placement then replaces. One that names a namespace is read as written, so its members' hash
 * stays what it was.
 */
function withStandInNamespace(deployment: unknown): V1Deployment {
  const manifest = deployment as V1Deployment | undefined;
  const metadata = manifest?.metadata;
  if (typeof metadata !== 'object' || metadata === null || metadata.namespace !== undefined)
    return manifest as V1Deployment;
  return { ...manifest, metadata: { ...metadata, namespace: MEMBER_NAMESPACE_STAND_IN } };
}

/**
 * The pool's Deployment in namespace '', its pods labelled as an exposed class's Services select
 * them (a claim keeps them), or the policy's refusal. A class without a pool: nothing.
 */
export function poolDeployment(
  input: MemberInput,
): { ok: true; objects: MemberObject[] } | { ok: false; refusal: Refusal } {
  const { policy } = input;
  const { tenantClass } = policy;
  if (tenantClass.warmPool === undefined) return { ok: true, objects: [] };
  const stand: Tenant = {
    apiVersion: API_VERSION,
    kind: KIND,
    metadata: { name: poolTenantName(tenantClass.name) },
    spec: { deployment: withStandInNamespace(tenantClass.warmPool.deployment), configMaps: [] },
  };
  const verdict = evaluateTenant(stand, policy, undefined, { ok: true, namespace: '' });
  if (!verdict.ok) return verdict;
  const { deployment } = verdict.children;
  const manifest = reachedByService(tenantClass.expose, deployment)
    ? withExposedPods(deployment)
    : deployment;
  return { ok: true, objects: [{ ref: childRef('Deployment', '', manifest.metadata!.name!), manifest }] };
}

/**
 * Whether the class's Service reaches the pool's Deployment: it is the first (the only one) of what
 * a member runs, so unless expose.deployment names another, it is.
 */
function reachedByService(expose: ClassExpose | undefined, deployment: V1Deployment): boolean {
  if (expose === undefined) return false;
  return expose.deployment === undefined || expose.deployment === deployment.metadata?.name;
}
