// What a warm pool member holds, pure: its Namespace (labelled with the class, controlled by the
// TenantClass, so deleting the class has the garbage collector remove its unclaimed members), and
// what the facets say a member holds (facets/engine.ts, memberState): the class's tenant-independent
// objects (ServiceAccount, quota, LimitRange, NetworkPolicy), the shared secrets' copies and the
// pool's Deployments (one, or the class's list), each made by the same facet and rules as a
// tenant's. So a row whose Deployment has a pool Deployment's name and pod template asks for
// exactly the pod template already running: applying it changes the Deployment's metadata, not
// its pods. Nothing here depends on a
// tenant: "{name}" labels, RoleBindings and per-tenant secrets come with the claim.
// memberChildren stamps a member's objects with their hashes for the Applier (operator/apply.ts),
// the one apply path tenants use too: an object that already matches costs no write.
import type { V1Deployment, V1Namespace } from '@kubernetes/client-node';
import { ANNOTATION, LABEL, MANAGED_BY, OWNER_API_VERSION } from '../../api/tenant.js';
import { CLASS_KIND, NAME_PLACEHOLDER, type ClassPolicy } from '../../api/tenantclass.js';
import { contentHash } from '../../util/canonical-json.js';
import { childRef } from '../child-ref.js';
import { hashedChild, type DesiredChild } from '../desired.js';
import { namespaceLabels } from '../namespaces/rules.js';
import type { MemberObject } from '../facets/contract.js';
import type { ClusterView } from '../facets/contract.js';
import { memberState } from '../facets/engine.js';
import { NO_CLUSTER } from '../facets/view.js';
import { refusal, type PolicyConfig, type Refusal } from '../policy/index.js';

export type { MemberObject };

export type PoolBlueprint =
  /** What every member of the class holds (in namespace ''), and its hash. */
  | { ok: true; hash: string; deployments: V1Deployment[]; objects: MemberObject[] }
  /** The pool's Deployment is one the policy refuses: no member is made. */
  | { ok: false; refusal: Refusal };

/**
 * What every member of the class holds, made by the desired-state engine (facets/engine.ts,
 * memberState): each facet's part that names no tenant, the pool's Deployment among them. The hash
 * covers all of it (the shared copies' values too), so any change to what a member holds marks the
 * existing ones stale, and they are replaced `maxUnavailable` at a time.
 */
export function poolBlueprint(policy: PolicyConfig, cluster: ClusterView = NO_CLUSTER): PoolBlueprint {
  const made = memberState(policy, cluster);
  if (!made.ok) return made;
  const isDeployment = (o: MemberObject): boolean => o.ref.kind === 'Deployment';
  const deployments = made.objects.filter(isDeployment).map((o) => o.manifest as V1Deployment);
  if (deployments.length === 0) return { ok: false, refusal: refusal.specMissing() };
  const objects = made.objects.filter((o) => !isDeployment(o));
  const labels = memberNamespaceLabels(policy.tenantClass);
  // A pool of one hashes as it did before pools could list several, so no member is replaced.
  const running = deployments.length === 1 ? { deployment: deployments[0] } : { deployments };
  return { ok: true, hash: contentHash({ labels, ...running, objects }).slice(0, 16), deployments, objects };
}

/** The class's namespace labels that need no tenant name, and the Pod Security labels. */
function memberNamespaceLabels(tenantClass: ClassPolicy): Record<string, string> {
  const labels = Object.fromEntries(
    Object.entries(tenantClass.namespace.labels).filter(([, value]) => !value.includes(NAME_PLACEHOLDER)),
  );
  return namespaceLabels('', { ...tenantClass, namespace: { ...tenantClass.namespace, labels } });
}

/** The member's Namespace: its class's while unclaimed; a claim moves it to the Tenant (claim.ts). */
export function memberNamespace(
  tenantClass: ClassPolicy,
  classUid: string,
  name: string,
  hash: string,
): V1Namespace {
  return {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: {
      name,
      labels: {
        ...memberNamespaceLabels(tenantClass),
        [LABEL.pool]: tenantClass.name,
        [LABEL.managedBy]: MANAGED_BY.operator,
      },
      annotations: { [ANNOTATION.poolHash]: hash },
      // No blockOwnerDeletion: the class's deletion need not wait for its members, and setting it
      // would need the right to update tenantclasses/finalizers.
      ownerReferences: [
        {
          apiVersion: OWNER_API_VERSION,
          kind: CLASS_KIND,
          name: tenantClass.name,
          uid: classUid,
          controller: true,
        },
      ],
    },
  };
}

/**
 * The objects in the member's namespace, the Deployments last: labelled with the pool (its watch
 * finds the Deployments by it), owned by nobody (the namespace's deletion takes them). The tenant
 * that claims the member applies the same objects with its ownership, under the same field
 * manager, which drops the pool label.
 */
export function memberContents(
  blueprint: Extract<PoolBlueprint, { ok: true }>,
  className: string,
  namespace: string,
): MemberObject[] {
  const placed = [
    ...blueprint.objects,
    ...blueprint.deployments.map((manifest) => ({
      ref: childRef('Deployment', '', manifest.metadata!.name!),
      manifest,
    })),
  ];
  return placed.map(({ ref, manifest }) => ({
    ref: { ...ref, namespace },
    manifest: {
      ...manifest,
      metadata: {
        ...manifest.metadata,
        namespace,
        labels: {
          ...manifest.metadata?.labels,
          [LABEL.pool]: className,
          [LABEL.managedBy]: MANAGED_BY.operator,
        },
      },
    },
  }));
}

/**
 * Everything one member holds, as the Applier applies it (operator/apply.ts): its Namespace,
 * controlled by the class, then its contents, each stamped with the hash of its manifest so a
 * member object that already matches costs no write.
 */
export function memberChildren(
  blueprint: Extract<PoolBlueprint, { ok: true }>,
  tenantClass: ClassPolicy,
  classUid: string,
  namespace: string,
): DesiredChild[] {
  const member = memberNamespace(tenantClass, classUid, namespace, blueprint.hash);
  return [
    hashedChild(member, 'Namespace'),
    ...memberContents(blueprint, tenantClass.name, namespace).map((c) => hashedChild(c.manifest, c.ref.kind)),
  ];
}
