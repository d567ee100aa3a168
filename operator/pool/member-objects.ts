// What a warm pool member holds, pure: its Namespace (labelled with the class, controlled by the
// TenantClass, so deleting the class has the garbage collector remove its unclaimed members), the
// class's tenant-independent objects (tenancy/: ServiceAccount, quota, LimitRange, NetworkPolicy)
// and the pool's Deployment, checked and shaped by the very policy a row's Deployment goes through.
// So a row whose Deployment has the pool Deployment's name and pod template asks for exactly the
// pod template already running: applying it changes the Deployment's metadata, not its pods.
// Nothing here depends on a tenant: "{name}" labels, RoleBindings and secrets come with the claim.
// memberChildren stamps a member's objects with their hashes for the Applier (operator/apply.ts),
// the one apply path tenants use too: an object that already matches costs no write.
import type { KubernetesObject, V1Deployment, V1Namespace } from '@kubernetes/client-node';
import { ANNOTATION, API_VERSION, KIND, LABEL, MANAGED_BY, type Tenant } from '../../api/tenant.js';
import { CLASS_API_VERSION, CLASS_KIND, type ClassPolicy } from '../../api/tenantclass.js';
import { contentHash } from '../../util/canonical-json.js';
import { childRef, type ChildRef } from '../child-ref.js';
import { hashedChild, type DesiredChild } from '../desired.js';
import { namespaceLabels } from '../namespaces/rules.js';
import { evaluateTenant, type PolicyConfig, type Refusal } from '../policy/index.js';
import { withExposedPods } from '../exposure/objects.js';
import { secretCopy } from '../secrets/copy.js';
import { NO_SOURCES, type SecretSources } from '../secrets/sources.js';
import { classObjects } from '../tenancy/namespace-objects.js';

export interface MemberObject {
  ref: ChildRef;
  manifest: KubernetesObject;
}

export type PoolBlueprint =
  /** What every member of the class holds (in namespace ''), and its hash. */
  | { ok: true; hash: string; deployment: V1Deployment; objects: MemberObject[] }
  /** The pool's Deployment is one the policy refuses: no member is made. */
  | { ok: false; refusal: Refusal };

/** The name a refusal gives the pool's Deployment, as if a tenant of this name had asked for it. */
const poolTenantName = (className: string): string => `${className}-warm-pool`;

/** What the shape check sees in place of a member's namespace, which no pool Deployment can know. */
const MEMBER_NAMESPACE_STAND_IN = 'warm-pool-member';

/**
 * The pool's Deployment as the policy reads a row's. The policy places every child of a PerTenant
 * class in the tenant's namespace whatever its manifest says (policy/tenant-namespace.ts); a
 * member's is not known yet, so a Deployment written without `metadata.namespace`, as
 * docs/warm-pool.md's example is, is given a stand-in that the placement then replaces. One that
 * names a namespace is read as written, so its members' hash stays what it was.
 */
function withStandInNamespace(deployment: unknown): V1Deployment {
  const manifest = deployment as V1Deployment | undefined;
  const metadata = manifest?.metadata;
  if (typeof metadata !== 'object' || metadata === null || metadata.namespace !== undefined)
    return manifest as V1Deployment;
  return { ...manifest, metadata: { ...metadata, namespace: MEMBER_NAMESPACE_STAND_IN } };
}

/**
 * The pool's Deployment as the policy makes a row's, and the class's objects, for one class; the
 * hash covers all of it (the shared copies' values too), so any change to what a member holds marks
 * the existing ones stale, and they are replaced `maxUnavailable` at a time.
 */
export function poolBlueprint(policy: PolicyConfig, sources: SecretSources = NO_SOURCES): PoolBlueprint {
  const tenantClass = policy.tenantClass;
  const pool = tenantClass.warmPool;
  const stand: Tenant = {
    apiVersion: API_VERSION,
    kind: KIND,
    metadata: { name: poolTenantName(tenantClass.name) },
    spec: { deployment: withStandInNamespace(pool?.deployment), configMaps: [] },
  };
  const verdict = evaluateTenant(stand, policy, undefined, { ok: true, namespace: '' });
  if (!verdict.ok) return verdict;
  // An exposed class's pods carry the label its Services select, before any tenant: a claim keeps them.
  const deployment =
    tenantClass.expose === undefined
      ? verdict.children.deployment
      : withExposedPods(verdict.children.deployment);
  const objects = classObjects(tenantClass, '').map(([kind, manifest]) => ({
    ref: childRef(kind, '', manifest.metadata!.name!),
    manifest,
  }));
  objects.push(...sharedCopies(tenantClass, policy.secretSourceNamespaces ?? [], sources));
  const labels = memberNamespaceLabels(tenantClass);
  return { ok: true, hash: contentHash({ labels, deployment, objects }).slice(0, 16), deployment, objects };
}

/**
 * Copies of the class's shared secrets: `from` sources named without "{name}", in a namespace the
 * operator reads, that exist now. A missing or refused one is left out: the tenant that claims the
 * member reports it, as a cold tenant would.
 */
function sharedCopies(
  tenantClass: ClassPolicy,
  sourceNamespaces: readonly string[],
  sources: SecretSources,
): MemberObject[] {
  return tenantClass.secrets.flatMap((entry) => {
    const from = entry.from;
    if (from === undefined || from.name.includes('{name}') || !sourceNamespaces.includes(from.namespace))
      return [];
    const secret = sources.secret(from.namespace, from.name);
    if (secret === undefined) return [];
    const manifest = secretCopy({ name: entry.name, namespace: '' }, from, secret);
    return [{ ref: childRef('Secret', '', entry.name), manifest }];
  });
}

/** The class's namespace labels that need no tenant name, and the Pod Security labels. */
function memberNamespaceLabels(tenantClass: ClassPolicy): Record<string, string> {
  const labels = Object.fromEntries(
    Object.entries(tenantClass.namespace.labels).filter(([, value]) => !value.includes('{name}')),
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
          apiVersion: CLASS_API_VERSION,
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
 * The objects in the member's namespace, the Deployment last: labelled with the pool (its watch
 * finds the Deployment by it), owned by nobody (the namespace's deletion takes them). The tenant
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
    { ref: childRef('Deployment', '', blueprint.deployment.metadata!.name!), manifest: blueprint.deployment },
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
