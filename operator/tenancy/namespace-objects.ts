// What a PerTenant class makes for a tenant besides its children: the namespace (owned by the
// Tenant, so deleting the Tenant has the garbage collector delete the namespace and everything in
// it), labelled for Pod Security admission so the API server enforces the class's level too; a
// ServiceAccount for the tenant's pods; and, as the class asks, a ResourceQuota, a LimitRange, a
// NetworkPolicy and RoleBindings. Names are fixed or derived from content, so the same class always
// gives the same objects and a reconcile with nothing new writes nothing. Pure.
import type {
  KubernetesObject,
  V1LimitRange,
  V1LabelSelector,
  V1Namespace,
  V1ResourceQuota,
  V1RoleBinding,
  V1ServiceAccount,
} from '@kubernetes/client-node';
import { HOSTS_ANNOTATION, type Tenant } from '../../api/tenant.js';
import { fillName, type ClassPolicy, type ClassRoleBinding } from '../../api/tenantclass.js';
import { contentHash } from '../../util/canonical-json.js';
import type { ChildKind } from '../child-ref.js';
import { withOwnership, type DesiredChild } from '../desired.js';
import { podGrantAnnotations, POD_GRANT_ANNOTATIONS } from '../namespaces/pod-grants.js';
import { namespaceLabels } from '../namespaces/rules.js';
import { TENANT_SERVICE_ACCOUNT } from '../namespaces/tenant-account.js';
import { selects } from '../../util/label-selector.js';
import { egressRules, type EgressPolicyRule } from './egress.js';

export const TENANCY_NAMES = {
  serviceAccount: TENANT_SERVICE_ACCOUNT,
  quota: 'landlord-quota',
  limits: 'landlord-limits',
  isolation: 'landlord-isolation',
} as const;

const RBAC_GROUP = 'rbac.authorization.k8s.io';

/** The Namespace first: everything else lives in it, so the converger applies it before the rest. */
/**
 * `hosts`: the hosts the tenant holds now (exposure/), announced on its namespace for the admission
 * policies; none: the annotation is left out.
 */
export function tenancyObjects(
  tenant: Tenant,
  tenantClass: ClassPolicy,
  namespace: string,
  hosts: readonly string[] = [],
): DesiredChild[] {
  const name = tenant.metadata.name!;
  const objects: [ChildKind, KubernetesObject | undefined][] = [
    ['Namespace', namespaceObject(name, tenantClass, namespace, hosts)],
    ...classObjects(tenantClass, namespace),
    ...tenantClass.rbac.map((entry): [ChildKind, V1RoleBinding] => [
      'RoleBinding',
      roleBinding(entry, name, namespace),
    ]),
  ];
  return objects.flatMap(([kind, manifest]) =>
    manifest === undefined ? [] : [withOwnership(manifest, tenant, kind)],
  );
}

/**
 * What the class puts in every tenant's namespace whatever the tenant: a warm pool member holds
 * these before it is claimed (pool/member-objects.ts), the same objects its tenant then applies.
 */
export function classObjects(tenantClass: ClassPolicy, namespace: string): [ChildKind, KubernetesObject][] {
  const objects: [ChildKind, KubernetesObject | undefined][] = [
    ['ServiceAccount', serviceAccount(tenantClass, namespace)],
    ['ResourceQuota', resourceQuota(tenantClass, namespace)],
    ['LimitRange', limitRange(tenantClass, namespace)],
    ['NetworkPolicy', networkPolicy(tenantClass, namespace)],
  ];
  return objects.flatMap(([kind, manifest]) => (manifest === undefined ? [] : [[kind, manifest]]));
}

function fillAll(values: Readonly<Record<string, string>>, tenant: string): Record<string, string> {
  return Object.fromEntries(Object.entries(values).map(([k, v]) => [k, fillName(v, tenant)]));
}

/**
 * The labels the namespace rules give a tenant's namespace (Pod Security last), the class's
 * annotations and, over them, what the admission policies read: the hosts the tenant holds (sorted,
 * comma-separated, no spaces: the format they split) and what its class grants a pod.
 */
function namespaceObject(
  tenant: string,
  tenantClass: ClassPolicy,
  namespace: string,
  hosts: readonly string[],
): V1Namespace {
  const labels = namespaceLabels(tenant, tenantClass);
  const annotations = fillAll(tenantClass.namespace.annotations, tenant);
  for (const key of [HOSTS_ANNOTATION, ...Object.values(POD_GRANT_ANNOTATIONS)]) delete annotations[key];
  if (hosts.length > 0) annotations[HOSTS_ANNOTATION] = [...hosts].sort().join(',');
  Object.assign(annotations, podGrantAnnotations(tenantClass));
  return {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name: namespace, labels, ...(Object.keys(annotations).length > 0 ? { annotations } : {}) },
  };
}

function serviceAccount(tenantClass: ClassPolicy, namespace: string): V1ServiceAccount {
  return {
    apiVersion: 'v1',
    kind: 'ServiceAccount',
    metadata: { name: TENANCY_NAMES.serviceAccount, namespace },
    automountServiceAccountToken: tenantClass.serviceAccount.automountToken,
  };
}

function isEmptyEntry(spec: Record<string, unknown>, key: string): boolean {
  const value = spec[key];
  if (Array.isArray(value)) return value.length === 0;
  return typeof value !== 'object' || value === null || Object.keys(value).length === 0;
}

/** Only when the class sets a hard limit: an empty quota would only cost a write. */
function resourceQuota(tenantClass: ClassPolicy, namespace: string): V1ResourceQuota | undefined {
  if (isEmptyEntry(tenantClass.resourceQuota, 'hard')) return undefined;
  return {
    apiVersion: 'v1',
    kind: 'ResourceQuota',
    metadata: { name: TENANCY_NAMES.quota, namespace },
    spec: tenantClass.resourceQuota,
  };
}

function limitRange(tenantClass: ClassPolicy, namespace: string): V1LimitRange | undefined {
  if (isEmptyEntry(tenantClass.limitRange, 'limits')) return undefined;
  return {
    apiVersion: 'v1',
    kind: 'LimitRange',
    metadata: { name: TENANCY_NAMES.limits, namespace },
    spec: tenantClass.limitRange as unknown as V1LimitRange['spec'],
  };
}

/** As sent on the wire: client-node's own type spells `from` as `_from`, which the API would drop. */
interface IngressRule {
  from: ({ podSelector: V1LabelSelector } | { namespaceSelector: V1LabelSelector })[];
}
interface NetworkPolicy extends KubernetesObject {
  spec: {
    podSelector: V1LabelSelector;
    policyTypes: string[];
    ingress: IngressRule[];
    egress: EgressPolicyRule[];
  };
}

/**
 * Isolated: every pod of the namespace accepts traffic only from pods of the same namespace and from
 * the namespaces `allowIngressFrom` selects (an empty selector would select every namespace, so it
 * adds no rule at all), and connects only where egress.ts allows.
 */
function networkPolicy(tenantClass: ClassPolicy, namespace: string): NetworkPolicy | undefined {
  if (tenantClass.networkIsolation !== 'Isolated') return undefined;
  const allowed = tenantClass.allowIngressFrom;
  const ingress: IngressRule[] = [{ from: [{ podSelector: {} }] }];
  if (selects(allowed)) ingress.push({ from: [{ namespaceSelector: allowed }] });
  return {
    apiVersion: 'networking.k8s.io/v1',
    kind: 'NetworkPolicy',
    metadata: { name: TENANCY_NAMES.isolation, namespace },
    spec: {
      podSelector: {},
      policyTypes: ['Ingress', 'Egress'],
      ingress,
      egress: egressRules(tenantClass),
    },
  };
}

/**
 * Named after its content: a RoleBinding's roleRef cannot change, so an edited entry is a new
 * binding (created) and the old one is pruned, rather than an apply the API server refuses.
 */
export function roleBindingName(entry: ClassRoleBinding, tenant: string): string {
  const subject = entry.group !== undefined ? `group:${entry.group}` : `user:${entry.user ?? ''}`;
  const hash = contentHash({ subject: fillName(subject, tenant), role: entry.clusterRole }).slice(0, 10);
  const role = entry.clusterRole
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, '-')
    .slice(0, 40);
  return `landlord-${role}-${hash}`.replace(/--+/g, '-');
}

function roleBinding(entry: ClassRoleBinding, tenant: string, namespace: string): V1RoleBinding {
  const kind = entry.group !== undefined ? 'Group' : 'User';
  const subject = fillName(entry.group ?? entry.user ?? '', tenant);
  return {
    apiVersion: `${RBAC_GROUP}/v1`,
    kind: 'RoleBinding',
    metadata: { name: roleBindingName(entry, tenant), namespace },
    roleRef: { apiGroup: RBAC_GROUP, kind: 'ClusterRole', name: entry.clusterRole },
    subjects: [{ apiGroup: RBAC_GROUP, kind, name: subject }],
  };
}
