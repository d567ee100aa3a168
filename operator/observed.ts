// What the operator sees of the cluster, from its watch caches: Tenants, and the Deployments and
// ConfigMaps that carry a Tenant's label, indexed by Tenant so a reconcile never scans them all.
import type { KubernetesObject, V1ConfigMap, V1Deployment } from '@kubernetes/client-node';
import { LABEL, type Tenant } from '../api/tenant.js';
import type { InformerOperator } from './watcher.js';

export type ChildKind = 'Deployment' | 'ConfigMap';
const PLURAL: Record<ChildKind, string> = { Deployment: 'deployments', ConfigMap: 'configmaps' };

export interface ChildRef {
  kind: ChildKind;
  namespace: string;
  name: string;
}

export const childKey = (ref: ChildRef): string => `${ref.kind}/${ref.namespace}/${ref.name}`;

export class ObservedState {
  /** tenant name → child key → child ref */
  private readonly byTenant = new Map<string, Map<string, ChildRef>>();
  /** child key → the tenant it is indexed under, to move it when its label changes */
  private readonly tenantOf = new Map<string, string>();

  constructor(
    private readonly watcher: InformerOperator,
    /** One entry per watched namespace; [undefined] when children are watched cluster-wide. */
    private readonly childNamespaces: readonly (string | undefined)[],
  ) {}

  tenant(name: string): Tenant | undefined {
    return this.watcher.informer('tenants')?.get(name) as Tenant | undefined;
  }

  tenants(): readonly Tenant[] {
    return (this.watcher.informer('tenants')?.list() ?? []) as readonly Tenant[];
  }

  /** The child as last seen, or undefined when it is not in the cache (absent, or not labelled). */
  child<T extends V1Deployment | V1ConfigMap>(ref: ChildRef): T | undefined {
    const scope = this.childNamespaces.includes(ref.namespace) ? ref.namespace : undefined;
    return this.watcher.informer(PLURAL[ref.kind], scope)?.get(ref.name, ref.namespace) as T | undefined;
  }

  /** Every cached child labelled as belonging to the tenant. */
  childrenOf(tenant: string): ChildRef[] {
    return [...(this.byTenant.get(tenant)?.values() ?? [])];
  }

  /** Keeps the index current; called for every child watch event. */
  indexChild(kind: ChildKind, object: KubernetesObject, deleted: boolean): string | undefined {
    const meta = object.metadata ?? {};
    const ref: ChildRef = { kind, namespace: meta.namespace ?? '', name: meta.name ?? '' };
    const key = childKey(ref);
    const previous = this.tenantOf.get(key);
    const tenant = deleted ? undefined : meta.labels?.[LABEL.tenant];
    if (previous !== undefined && previous !== tenant) {
      this.byTenant.get(previous)?.delete(key);
      this.tenantOf.delete(key);
    }
    if (tenant !== undefined) this.add(tenant, key, ref);
    return tenant ?? previous;
  }

  private add(tenant: string, key: string, ref: ChildRef): void {
    const children = this.byTenant.get(tenant) ?? new Map<string, ChildRef>();
    this.byTenant.set(tenant, children);
    children.set(key, ref);
    this.tenantOf.set(key, tenant);
  }
}
