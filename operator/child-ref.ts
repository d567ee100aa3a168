// How the operator names a Tenant's child: enough to build its API path (runtime/kube/paths.ts),
// key it in caches and locks, and describe it to people in Events, logs and conditions.

/**
 * Every kind of child a facet makes (facets/list.ts declares which facet makes which, when it is
 * applied and how it is watched): the row's workload, a PerTenant namespace's fences, the secrets
 * copied in, the exposure's Service and route. HTTPRoute and ExternalSecret exist only where the
 * Gateway API or External Secrets Operator is installed.
 */
export type ChildKind =
  | 'Deployment'
  | 'ConfigMap'
  | 'Namespace'
  | 'ServiceAccount'
  | 'ResourceQuota'
  | 'LimitRange'
  | 'NetworkPolicy'
  | 'RoleBinding'
  | 'Secret'
  | 'ExternalSecret'
  | 'Service'
  | 'Ingress'
  | 'HTTPRoute';

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
  /** replaced: deleted and made anew, for a change the API server refuses in place (replacement.ts). */
  action: 'created' | 'updated' | 'replaced' | 'pruned';
  ref: ChildRef;
}

export function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
