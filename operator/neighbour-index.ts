// The other Tenants' Deployments by namespace, for the policy's label check: kept current from the
// Tenant watch, one entry per Tenant (replaced on every event, dropped when the Tenant goes), so a
// reconcile reads only its own namespace's entries instead of scanning every Tenant.
import type { Tenant } from '../api/tenant.js';
import { keepsChildren, stateOf } from './lifecycle.js';
import { createdAt, neighbourOf, type Neighbour, type Neighbours } from './policy/index.js';

/**
 * Whether a Tenant's Deployment goes into a namespace of its own (PerTenant) rather than the one its
 * manifest names. By default what its status says: the operator records the namespace it made.
 */
export type OwnNamespace = (tenant: Tenant) => boolean;

const recordedOwnNamespace: OwnNamespace = (tenant) => tenant.status?.namespace !== undefined;

export class NeighbourIndex implements Neighbours {
  constructor(private readonly ownNamespace: OwnNamespace = recordedOwnNamespace) {}

  /** namespace → tenant name → its Deployment */
  private readonly byNamespace = new Map<string, Map<string, Neighbour>>();
  /** tenant name → the namespace it is indexed under */
  private readonly namespaceOf = new Map<string, string>();

  inNamespace(namespace: string): readonly Neighbour[] {
    return [...(this.byNamespace.get(namespace)?.values() ?? [])];
  }

  /** Tenants whose Deployment is in the namespace. */
  tenantsIn(namespace: string): string[] {
    return [...(this.byNamespace.get(namespace)?.keys() ?? [])];
  }

  namespace(tenant: string): string | undefined {
    return this.namespaceOf.get(tenant);
  }

  /**
   * A Tenant that keeps no children (archived, purged, going) holds no labels; nor, in a shared
   * namespace, does a PerTenant one, whose Deployment is in its own namespace whatever its manifest
   * says (asked of its class, so a new one is left out before its first status names the namespace).
   */
  tenantChanged(tenant: Tenant): void {
    const name = tenant.metadata.name ?? '';
    this.tenantGone(name);
    if (tenant.metadata.deletionTimestamp !== undefined || !keepsChildren(stateOf(tenant))) return;
    if (this.ownNamespace(tenant)) return;
    const self = { tenant: name, createdAt: createdAt(tenant.metadata.creationTimestamp) };
    const made = neighbourOf(self, tenant.spec?.deployment);
    if (made === undefined) return;
    const tenants = this.byNamespace.get(made.namespace) ?? new Map<string, Neighbour>();
    this.byNamespace.set(made.namespace, tenants.set(name, made.neighbour));
    this.namespaceOf.set(name, made.namespace);
  }

  tenantGone(tenant: string): void {
    const namespace = this.namespaceOf.get(tenant);
    if (namespace === undefined) return;
    const tenants = this.byNamespace.get(namespace);
    tenants?.delete(tenant);
    if (tenants?.size === 0) this.byNamespace.delete(namespace);
    this.namespaceOf.delete(tenant);
  }
}
