// Which Tenant each watched child belongs to (by its tenant label), and which Tenants were refused
// because a child belonged to someone else. Pure bookkeeping, fed by the child watch events: it
// answers which Tenants an event concerns, so the watch handler reaches into nothing else.
import type { KubernetesObject } from '@kubernetes/client-node';
import { LABEL } from '../api/tenant.js';
import { intern } from '../util/intern.js';
import { childKey, childRef, refOfKey, type ChildKind, type ChildRef } from './child-ref.js';

export class ChildIndex {
  /**
   * tenant name → its children's keys. An array, not a Map by child key: a Tenant has a few
   * children, and a Map each cost ~0.3 KB per Tenant. Keys, not ChildRefs: the key is held anyway
   * (tenantOf), and a ref of its own per child cost ~60 bytes more (0.5 KB per PerTenant tenant).
   */
  private readonly byTenant = new Map<string, string[]>();
  /** child key → the tenant it is indexed under, to move it when its label changes */
  private readonly tenantOf = new Map<string, string>();
  /** child key → Tenants refused because another owner holds that child */
  private readonly refusedOver = new Map<string, Set<string>>();
  /** tenant → the child keys it waits on, so a deleted Tenant's entries go with it */
  private readonly waitsOn = new Map<string, Set<string>>();

  /** Number of Tenants with an entry (for tests: a Tenant whose children all went has none). */
  get tenants(): number {
    return this.byTenant.size;
  }

  /** Every child labelled as belonging to the tenant. */
  childrenOf(tenant: string): ChildRef[] {
    return (this.byTenant.get(tenant) ?? []).map(refOfKey);
  }

  /** The tenant was refused because another owner holds this child: its deletion wakes the tenant. */
  refused(tenant: string, ref: ChildRef): void {
    const key = childKey(ref);
    this.refusedOver.set(key, (this.refusedOver.get(key) ?? new Set<string>()).add(tenant));
    this.waitsOn.set(tenant, (this.waitsOn.get(tenant) ?? new Set<string>()).add(key));
  }

  /** The Tenant is gone: what it waited on is dropped with it, so memory follows the Tenants there are. */
  tenantGone(tenant: string): void {
    for (const key of this.waitsOn.get(tenant) ?? []) {
      const waiting = this.refusedOver.get(key);
      waiting?.delete(tenant);
      if (waiting?.size === 0) this.refusedOver.delete(key);
    }
    this.waitsOn.delete(tenant);
  }

  /**
   * Keeps the index current for one child watch event, and names the Tenants to look at: the one
   * the child is (or was) labelled for and, when the child is gone, those refused over it.
   */
  childChanged(kind: ChildKind, object: KubernetesObject, deleted: boolean): string[] {
    const meta = object.metadata ?? {};
    const ref = childRef(kind, meta.namespace ?? '', meta.name ?? '');
    // One flat copy: a key built by concatenation is a tree of pieces, ~3 times its size.
    const key = intern(childKey(ref));
    const labelled = this.index(key, deleted ? undefined : meta.labels?.[LABEL.tenant]);
    const tenants = labelled === undefined ? [] : [labelled];
    if (deleted) tenants.push(...this.takeRefused(key));
    return tenants;
  }

  /** Moves the child under its current label; returns that tenant, or the one it was under. */
  private index(key: string, tenant: string | undefined): string | undefined {
    const previous = this.tenantOf.get(key);
    if (previous !== undefined && previous !== tenant) {
      const children = (this.byTenant.get(previous) ?? []).filter((child) => child !== key);
      // A Tenant whose last child went leaves no empty entry behind: memory follows the Tenants there are.
      if (children.length === 0) this.byTenant.delete(previous);
      else this.byTenant.set(previous, children);
      this.tenantOf.delete(key);
    }
    if (tenant !== undefined) this.add(tenant, key);
    return tenant ?? previous;
  }

  private takeRefused(key: string): string[] {
    const tenants = [...(this.refusedOver.get(key) ?? [])];
    this.refusedOver.delete(key);
    for (const tenant of tenants) {
      const keys = this.waitsOn.get(tenant);
      keys?.delete(key);
      if (keys?.size === 0) this.waitsOn.delete(tenant);
    }
    return tenants;
  }

  private add(tenant: string, key: string): void {
    const children = this.byTenant.get(tenant) ?? [];
    // A new array of exactly the children: one grown by push keeps room for 17.
    if (!children.includes(key)) this.byTenant.set(tenant, [...children, key]);
    this.tenantOf.set(key, tenant);
  }
}
