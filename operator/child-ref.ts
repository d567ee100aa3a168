// How the operator names a Tenant's child: enough to build its API path (runtime/kube/paths.ts),
// key it in caches and locks, and describe it to people in Events, logs and conditions.

/** What a row asks for: the only two kinds its manifests may name. */
export type WorkloadKind = 'Deployment' | 'ConfigMap';
/** What a PerTenant class adds: the tenant's namespace and the objects that fence it in. */
export type TenancyKind =
  'Namespace' | 'ServiceAccount' | 'ResourceQuota' | 'LimitRange' | 'NetworkPolicy' | 'RoleBinding';
/** What a PerTenant class with `expose` adds: a Service and one route to it (operator/exposure/). */
export type ExposeKind = 'Service' | 'Ingress' | 'HTTPRoute';
export type ChildKind = WorkloadKind | TenancyKind | ExposeKind;

export const WORKLOAD_KINDS: readonly WorkloadKind[] = ['Deployment', 'ConfigMap'];
export const TENANCY_KINDS: readonly TenancyKind[] = [
  'Namespace',
  'ServiceAccount',
  'ResourceQuota',
  'LimitRange',
  'NetworkPolicy',
  'RoleBinding',
];
/**
 * The exposure kinds every cluster serves. HTTPRoute is not among them: it exists only where the
 * Gateway API CRDs are installed, so it is watched and listed only there (GATEWAY_ROUTE_KIND).
 */
export const EXPOSE_KINDS: readonly ExposeKind[] = ['Service', 'Ingress'];
export const GATEWAY_ROUTE_KIND: ExposeKind = 'HTTPRoute';

/** Each kind at the one version landlord applies. */
/**
 * Whether the operator reads this kind's status: only a Deployment's (its rollout). The caches and
 * the applied overlay keep no status for the others (a quota's usage, a namespace's phase).
 */
export const statusIsRead = (kind: string): boolean => kind === 'Deployment';

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
