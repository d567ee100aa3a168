// A pooled class's Deployment (or Deployments) as a warm pool member runs it: checked and shaped by
// the very policy a row's Deployments go through, so a row whose Deployment has a pool Deployment's
// name and pod template asks for exactly the pod template already running, and a claim changes the
// Deployment's metadata, not its pods. A pool of several (`warmPool.deployments`, issue 58) is held
// to what a row's list is (count, one name each, no selector over a sibling's pods). Pure.
import type { V1Deployment } from '@kubernetes/client-node';
import { API_VERSION, KIND, type Tenant } from '../../api/tenant.js';
import type { ClassExpose } from '../../api/tenantclass.js';
import { childRef } from '../child-ref.js';
import { withExposedPods } from '../exposure/objects.js';
import type { MemberInput, MemberObject } from '../facets/contract.js';
import { evaluateTenant, NO_NEIGHBOURS, type PolicyConfig, type Refusal } from '../policy/index.js';
import { evaluateWorkloads } from './workloads.js';

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
 * The pool's Deployments in namespace '', the pods of the one an exposed class's Service reaches
 * labelled as it selects them (a claim keeps them), or the policy's refusal. A class without a
 * pool: nothing.
 */
export function poolDeployment(
  input: MemberInput,
): { ok: true; objects: MemberObject[] } | { ok: false; refusal: Refusal } {
  const { policy } = input;
  const pool = policy.tenantClass.warmPool;
  if (pool === undefined) return { ok: true, objects: [] };
  const judged = pool.deployments === undefined ? poolOfOne(policy, pool.deployment) : poolOfSeveral(policy);
  if (!judged.ok) return judged;
  const at = exposedIndex(policy.tenantClass.expose, judged.deployments);
  const objects = judged.deployments.map((deployment, i): MemberObject => {
    const manifest = i === at ? withExposedPods(deployment) : deployment;
    return { ref: childRef('Deployment', '', manifest.metadata!.name!), manifest };
  });
  return { ok: true, objects };
}

type Judged = { ok: true; deployments: V1Deployment[] } | { ok: false; refusal: Refusal };

/** The tenant the policy judges in place of a member: its name says the pool in a refusal. */
function standIn(className: string, spec: Tenant['spec']): Tenant {
  return { apiVersion: API_VERSION, kind: KIND, metadata: { name: poolTenantName(className) }, spec };
}

/** `warmPool.deployment`: judged as a row of one is, exactly as before lists existed. */
function poolOfOne(policy: PolicyConfig, deployment: unknown): Judged {
  const spec = { deployment: withStandInNamespace(deployment), configMaps: [] };
  const verdict = evaluateTenant(standIn(policy.tenantClass.name, spec), policy, undefined, MEMBER_PLACEMENT);
  return verdict.ok ? { ok: true, deployments: [verdict.children.deployment] } : verdict;
}

/**
 * `warmPool.deployments`: judged as a row's list is. A `deployment` written beside it is passed
 * on, so the list's check refuses the two together, as it does on a Tenant.
 */
function poolOfSeveral(policy: PolicyConfig): Judged {
  const pool = policy.tenantClass.warmPool!;
  const one =
    Object.keys(pool.deployment).length === 0 ? {} : { deployment: pool.deployment as V1Deployment };
  const deployments = (pool.deployments ?? []).map(withStandInNamespace);
  const stand = standIn(policy.tenantClass.name, { ...one, deployments, configMaps: [] });
  const verdict = evaluateWorkloads(stand, policy, NO_NEIGHBOURS, MEMBER_PLACEMENT);
  return verdict.ok ? { ok: true, deployments: verdict.workloads.deployments } : verdict;
}

/** A member's namespace is not known yet: placed in '', its name filled in when one is made. */
const MEMBER_PLACEMENT = { ok: true as const, namespace: '' };

/**
 * Which of the pool's Deployments the class's Service reaches, as the workload facet picks it for
 * a tenant: the one expose.deployment names, else the first; -1 when none (not exposed, or the
 * name is none of them: the tenant's claim then says so).
 */
function exposedIndex(expose: ClassExpose | undefined, deployments: readonly V1Deployment[]): number {
  if (expose === undefined) return -1;
  if (expose.deployment === undefined) return 0;
  return deployments.findIndex((d) => d.metadata?.name === expose.deployment);
}
