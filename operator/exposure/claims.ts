// Which Tenant holds a host, cluster-wide: every Tenant that would route a host (its class's
// templated host and its row's hosts, while its state keeps a route) claims it, and the first to
// claim it keeps it: the Tenant created earliest, then the one named first, as labels are decided
// between Tenants of a shared namespace (policy/neighbours.ts). Kept from the Tenant watch, so a
// reconcile asks about its own few hosts instead of scanning every Tenant.
import { isOlder, type Self } from '../policy/neighbours.js';
import type { ForeignRoutes } from './foreign-routes.js';

/** What a reconcile asks: who holds a host before this Tenant. */
export interface HostHolders {
  /**
   * Who holds `host` ahead of `self`, described ("Tenant a", "Ingress ns/x (not made by
   * landlord)"); undefined: `self` may hold it. `namespace`: the tenant's own, whose hand-made
   * routes are its own.
   */
  holderBefore(host: string, self: Self, namespace?: string): string | undefined;
}

export const NO_HOST_HOLDERS: HostHolders = { holderBefore: () => undefined };

interface Claim {
  createdAt: string | undefined;
  hosts: readonly string[];
}

export class HostClaims implements HostHolders {
  /** host → the Tenants that claim it */
  private readonly byHost = new Map<string, Set<string>>();
  private readonly byTenant = new Map<string, Claim>();

  /** The Tenant now claims exactly `hosts` (none: it is dropped). */
  set(tenant: string, createdAt: string | undefined, hosts: readonly string[]): void {
    this.gone(tenant);
    if (hosts.length === 0) return;
    this.byTenant.set(tenant, { createdAt, hosts });
    for (const host of hosts) this.byHost.set(host, (this.byHost.get(host) ?? new Set<string>()).add(tenant));
  }

  gone(tenant: string): void {
    const held = this.byTenant.get(tenant);
    if (held === undefined) return;
    this.byTenant.delete(tenant);
    for (const host of held.hosts) {
      const claimants = this.byHost.get(host);
      claimants?.delete(tenant);
      if (claimants?.size === 0) this.byHost.delete(host);
    }
  }

  holderBefore(host: string, self: Self): string | undefined {
    let first: Self | undefined;
    for (const tenant of this.byHost.get(host) ?? []) {
      if (tenant === self.tenant) continue;
      const other = { tenant, createdAt: this.byTenant.get(tenant)?.createdAt };
      if (isOlder(other, self) && (first === undefined || isOlder(other, first))) first = other;
    }
    return first === undefined ? undefined : `Tenant ${first.tenant}`;
  }
}

/** A route landlord did not make holds its hosts before any Tenant; then the first Tenant to claim. */
export function hostHolders(claims: HostClaims, foreign: ForeignRoutes): HostHolders {
  return {
    holderBefore: (host, self, namespace) =>
      foreign.holderOutside(host, namespace) ?? claims.holderBefore(host, self),
  };
}
