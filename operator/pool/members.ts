// What a warm pool member is, read from the caches: a Namespace labelled with its class, controlled
// by that TenantClass (by uid: a class deleted and made again under the same name does not inherit
// the members the garbage collector is removing), and Ready when its Deployments (one, or each of a
// pool of several) are there and available. Which member a tenant tries first. Pure.
import type { KubernetesObject, V1Deployment } from '@kubernetes/client-node';
import { ANNOTATION, LABEL } from '../../api/tenant.js';
import { CLASS_KIND } from '../../api/tenantclass.js';
import { contentHash } from '../../util/canonical-json.js';

export interface Member {
  /** The namespace's name. */
  name: string;
  uid: string;
  /** The version a claim is conditioned on: a member changed since is not claimed. */
  resourceVersion: string;
  /** The hash of the pool spec it was made from (LABEL pool-hash annotation). */
  hash: string;
  /** When it was made, in ms since the epoch. */
  created: number;
  /** Being deleted (size lowered, replaced): neither claimable nor counted. */
  deleting: boolean;
  /** Its Deployments exist and each is available at its current generation. */
  ready: boolean;
  /**
   * Its Deployments exist, as many as the pool runs (a member without them was left half-made and
   * is completed again).
   */
  hasDeployment: boolean;
}

/** The TenantClass controlling a namespace, when it is a pool member of that class. */
export function memberClassUid(namespace: KubernetesObject, className: string): string | undefined {
  if (namespace.metadata?.labels?.[LABEL.pool] !== className) return undefined;
  const owner = namespace.metadata.ownerReferences?.find((o) => o.controller === true);
  return owner?.kind === CLASS_KIND && owner.name === className ? owner.uid : undefined;
}

/**
 * The member a pool Namespace is, with the pool's Deployments in it; `expected`: how many the pool
 * runs (a member holding fewer is half-made, neither Ready nor claimable).
 */
export function memberOf(
  namespace: KubernetesObject,
  deployments: readonly V1Deployment[],
  expected = 1,
): Member {
  const meta = namespace.metadata ?? {};
  const complete = deployments.length > 0 && deployments.length >= expected;
  return {
    name: meta.name ?? '',
    uid: meta.uid ?? '',
    resourceVersion: meta.resourceVersion ?? '',
    hash: meta.annotations?.[ANNOTATION.poolHash] ?? '',
    created: meta.creationTimestamp === undefined ? 0 : new Date(meta.creationTimestamp).getTime(),
    deleting: meta.deletionTimestamp !== undefined,
    ready: complete && deployments.every(isAvailable),
    hasDeployment: complete,
  };
}

/** Rolled out at its current generation, with every replica available: a claimed tenant is Ready at once. */
export function isAvailable(deployment: V1Deployment): boolean {
  const wanted = deployment.spec?.replicas ?? 1;
  const status = deployment.status;
  if (status === undefined) return false;
  if ((status.observedGeneration ?? 0) < (deployment.metadata?.generation ?? 0)) return false;
  return (status.updatedReplicas ?? 0) >= wanted && (status.availableReplicas ?? 0) >= wanted;
}

/**
 * The members a tenant may claim, in the order it tries them: Ready and not going, those of the
 * current pool spec first. Within each, an order of the tenant's own (the member's hash with the
 * tenant's name), so a burst of new tenants spreads over the members instead of all racing for the
 * first one and all but one retrying after a 409.
 */
export function claimOrder(tenant: string, members: readonly Member[], currentHash: string): Member[] {
  const rank = (m: Member): string => `${m.hash === currentHash ? 0 : 1}/${contentHash([tenant, m.name])}`;
  return members
    .filter((m) => m.ready && !m.deleting)
    .map((m) => ({ m, key: rank(m) }))
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
    .map(({ m }) => m);
}
