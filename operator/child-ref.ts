// How the operator names a Tenant's child: enough to build its API path (runtime/kube/paths.ts),
// key it in caches and locks, and describe it to people in Events, logs and conditions.
import type { Unread } from '../runtime/kube/informer.js';
import { readOfDeploymentStatus } from './deployment-status.js';
import { readOfQuotaStatus } from './tenancy/quota-status.js';

/** What a row asks for: the only two kinds its manifests may name. */
export type WorkloadKind = 'Deployment' | 'ConfigMap';
/** What a PerTenant class adds: the tenant's namespace and the objects that fence it in. */
export type TenancyKind =
  | 'Namespace'
  | 'ServiceAccount'
  | 'ResourceQuota'
  | 'LimitRange'
  | 'NetworkPolicy'
  | 'RoleBinding'
  | 'Secret';
/** What a PerTenant class with `expose` adds: a Service and one route to it (operator/exposure/). */
export type ExposeKind = 'Service' | 'Ingress' | 'HTTPRoute';
/**
 * What a PerTenant class adds only where External Secrets Operator is installed: its API is watched
 * and written only when the operator found it served at start-up (secrets/external.ts).
 */
type OptionalKind = 'ExternalSecret';
export type ChildKind = WorkloadKind | TenancyKind | ExposeKind | OptionalKind;

export const WORKLOAD_KINDS: readonly WorkloadKind[] = ['Deployment', 'ConfigMap'];
export const TENANCY_KINDS: readonly TenancyKind[] = [
  'Namespace',
  'ServiceAccount',
  'ResourceQuota',
  'LimitRange',
  'NetworkPolicy',
  'RoleBinding',
  'Secret',
];
/**
 * The exposure kinds every cluster serves. HTTPRoute is not among them: it exists only where the
 * Gateway API CRDs are installed, so it is watched and listed only there (GATEWAY_ROUTE_KIND).
 */
export const EXPOSE_KINDS: readonly ExposeKind[] = ['Service', 'Ingress'];
export const GATEWAY_ROUTE_KIND: ExposeKind = 'HTTPRoute';

/**
 * Whether the operator reads this kind's status: a Deployment's (its rollout), an ExternalSecret's
 * (its Ready, reported in SecretsReady) and a ResourceQuota's (whether it is enforced yet; never
 * its usage). The caches and the applied overlay keep no status for the others (a namespace's phase).
 */
const statusIsRead = (kind: string): boolean =>
  kind === 'Deployment' || kind === 'ExternalSecret' || kind === 'ResourceQuota';

/** The part of a status the operator reads, for the kinds it reads only part of. */
const STATUS_READ: Partial<Record<string, (status: unknown) => unknown>> = {
  Deployment: readOfDeploymentStatus,
  ResourceQuota: readOfQuotaStatus,
};

/**
 * Whether the operator keeps this kind's values: not a Secret's. Its copies (thousands, one per
 * tenant and entry) are cached and remembered by metadata alone; the hash annotation on each says
 * which source version it holds (secrets/copy.ts), so no value stays in the heap.
 */
export const valuesAreRead = (kind: string): boolean => kind !== 'Secret';

/** What the caches and the applied overlay leave out of a child of this kind (runtime/kube/informer.ts). */
export const unreadOf = (
  kind: string,
): Required<Pick<Unread, 'dropStatus' | 'dropValues' | 'keepUpdaters'>> & Pick<Unread, 'keepOfStatus'> => ({
  dropStatus: !statusIsRead(kind),
  dropValues: !valuesAreRead(kind),
  // The operator creates children by POST: it must see which still carry that create's entry.
  keepUpdaters: true,
  ...(STATUS_READ[kind] === undefined ? {} : { keepOfStatus: STATUS_READ[kind] }),
});

/** Each kind at the one version landlord applies. */
export const CHILD_API_VERSION: Record<ChildKind, string> = {
  Deployment: 'apps/v1',
  ConfigMap: 'v1',
  Namespace: 'v1',
  ServiceAccount: 'v1',
  ResourceQuota: 'v1',
  LimitRange: 'v1',
  NetworkPolicy: 'networking.k8s.io/v1',
  RoleBinding: 'rbac.authorization.k8s.io/v1',
  Service: 'v1',
  Ingress: 'networking.k8s.io/v1',
  HTTPRoute: 'gateway.networking.k8s.io/v1',
  Secret: 'v1',
  ExternalSecret: 'external-secrets.io/v1',
};

export interface ChildRef {
  apiVersion: string;
  kind: ChildKind;
  /** '' for the one cluster-scoped child, a PerTenant tenant's Namespace. */
  namespace: string;
  name: string;
}

export const childRef = (kind: ChildKind, namespace: string, name: string): ChildRef => ({
  apiVersion: CHILD_API_VERSION[kind],
  kind,
  namespace,
  name,
});

export const childKey = (ref: ChildRef): string => `${ref.kind}/${ref.namespace}/${ref.name}`;

/** The ref a childKey names: neither a kind, a namespace nor a name holds a '/'. */
export function refOfKey(key: string): ChildRef {
  const afterKind = key.indexOf('/');
  const afterNamespace = key.indexOf('/', afterKind + 1);
  const kind = key.slice(0, afterKind) as ChildKind;
  return childRef(kind, key.slice(afterKind + 1, afterNamespace), key.slice(afterNamespace + 1));
}

/** "Deployment team-a/web" (or "Namespace team-a"), as Events, logs and condition messages name a child. */
export const describeRef = (ref: ChildRef): string =>
  ref.namespace === '' ? `${ref.kind} ${ref.name}` : `${ref.kind} ${ref.namespace}/${ref.name}`;

/** What converging did to one child, for the log lines and Events that announce it. */
export interface ChildChange {
  action: 'created' | 'updated' | 'pruned';
  ref: ChildRef;
}

export function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
