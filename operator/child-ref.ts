// How the operator names a Tenant's child: enough to build its API path (runtime/kube/paths.ts),
// key it in caches and locks, and describe it to people in Events, logs and conditions.

export type ChildKind = 'Deployment' | 'ConfigMap';

/** The only two kinds a Tenant may have, each at the one version landlord applies. */
export const CHILD_API_VERSION: Record<ChildKind, string> = { Deployment: 'apps/v1', ConfigMap: 'v1' };

export interface ChildRef {
  apiVersion: string;
  kind: ChildKind;
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

/** "Deployment team-a/web", as Events, logs and condition messages name a child. */
export const describeRef = (ref: ChildRef): string => `${ref.kind} ${ref.namespace}/${ref.name}`;

/** What converging did to one child, for the log lines and Events that announce it. */
export interface ChildChange {
  action: 'created' | 'updated' | 'pruned';
  ref: ChildRef;
}

export function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
