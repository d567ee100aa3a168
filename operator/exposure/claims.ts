// Which Tenant holds a host, cluster-wide: every Tenant that would route a host (its class's
// templated host and its row's hosts, while its state keeps a route) claims it, and the first to
// claim it keeps it: the Tenant created earliest, then the one named first, as labels are decided
// between Tenants of a shared namespace (policy/neighbours.ts). Kept from the Tenant watch, so a
// reconcile asks about its own few hosts instead of scanning every Tenant.
import { isOlder, type Self } from '../policy/neighbours.js';

/** What a reconcile asks: who holds a host before this Tenant. */
export interface HostHolders {
  /** The Tenant that holds `host` ahead of `self`; undefined: `self` may hold it. */
  holderBefore(host: string, self: Self): string | undefined;
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
    return first?.tenant;
  }
}
