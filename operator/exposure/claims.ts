// Who holds a host, cluster-wide (docs/exposure.md). A templated host is its tenant name's, before
// and after that Tenant exists: a row's custom hosts never reach into the classes' templated space
// (templates.ts), so no Tenant claims another name's templated host. Among the claims that remain
// (custom hosts, and templated hosts of classes whose templates overlap), a route outside every
// tenant namespace that landlord did not make (the platform's own) holds its hosts first; then the
// Tenant created earliest, or as early and named first, as labels are decided between Tenants of a
// shared namespace (policy/neighbours.ts). A route made by hand in a tenant namespace holds nothing.
// Kept from the Tenant watch, so a reconcile asks about its own few hosts instead of scanning every
// Tenant; a change of a Tenant's claims names the other claimants of those hosts, which may win or
// lose them by it.
import { isOlder, type Self } from '../policy/neighbours.js';
import type { ForeignRoutes, HandMadeRoute } from './foreign-routes.js';

/** What a reconcile (and `landlord plan`, through the same indexes) asks about hosts. */
export interface HostHolders {
  /**
   * Who holds `host` ahead of `self`, described ("Tenant a", "Ingress ns/x (not made by
   * landlord)"); undefined: `self` may hold it.
   */
  holderBefore(host: string, self: Self): string | undefined;
  /** The tenant names the classes' `expose.host` templates give `host` to (templates.ts). */
  templatedNames(host: string): string[];
  /** The routes not made by landlord in a tenant's namespace, with the hosts each serves. */
  handMadeIn(namespace: string): HandMadeRoute[];
  /** The Tenants that claim `host` now, sorted. */
  claimants(host: string): string[];
  /** A Tenant's namespace, as its status names it; undefined: none yet, or not known here. */
  namespaceOf(tenant: string): string | undefined;
}

export const NO_HOST_HOLDERS: HostHolders = {
  holderBefore: () => undefined,
  templatedNames: () => [],
  handMadeIn: () => [],
  claimants: () => [],
  namespaceOf: () => undefined,
};

interface Claim {
  createdAt: string | undefined;
  hosts: readonly string[];
}

const sameHosts = (a: readonly string[], b: readonly string[]): boolean =>
  a.length === b.length && a.every((h, i) => h === b[i]);

export class HostClaims {
  /** host → the Tenants that claim it */
  private readonly byHost = new Map<string, Set<string>>();
  private readonly byTenant = new Map<string, Claim>();

  /**
   * The Tenant now claims exactly `hosts` (sorted; none: it is dropped). Returns the other Tenants
   * that claim a host it claimed before or claims now, when its claims changed: the ones whose hold
   * on those hosts this may change (a holder that loses one, a claimant that wins one).
   */
  set(tenant: string, createdAt: string | undefined, hosts: readonly string[]): string[] {
    const before = this.byTenant.get(tenant);
    if (before !== undefined && before.createdAt === createdAt && sameHosts(before.hosts, hosts)) return [];
    const touched = new Set([...(before?.hosts ?? []), ...hosts]);
    this.gone(tenant);
    if (hosts.length > 0) {
      this.byTenant.set(tenant, { createdAt, hosts });
      for (const host of hosts)
        this.byHost.set(host, (this.byHost.get(host) ?? new Set<string>()).add(tenant));
    }
    return this.others(touched, tenant);
  }

  /** The Tenant claims nothing any more; returns the other claimants of what it claimed. */
  gone(tenant: string): string[] {
    const held = this.byTenant.get(tenant);
    if (held === undefined) return [];
    this.byTenant.delete(tenant);
    for (const host of held.hosts) {
      const claimants = this.byHost.get(host);
      claimants?.delete(tenant);
      if (claimants?.size === 0) this.byHost.delete(host);
    }
    return this.others(held.hosts, tenant);
  }

  /** The hosts the Tenant claims now, sorted. */
  hostsOf(tenant: string): readonly string[] {
    return this.byTenant.get(tenant)?.hosts ?? [];
  }

  claimants(host: string): string[] {
    return [...(this.byHost.get(host) ?? [])].sort();
  }

  /** Every Tenant that claims one of `hosts`, but `except`, sorted. */
  others(hosts: Iterable<string>, except = ''): string[] {
    const names = new Set<string>();
    for (const host of hosts) for (const tenant of this.byHost.get(host) ?? []) names.add(tenant);
    names.delete(except);
    return [...names].sort();
  }

  /** The earliest Tenant but `self` that claims the host, when it is earlier than `self`. */
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

/** What the cluster's host answers are made of (cluster-indexes.ts keeps each current). */
export interface HostSources {
  claims: HostClaims;
  foreign: ForeignRoutes;
  /** Every class's expose.host, as last seen. */
  templatedNames: (host: string) => string[];
  /** Tenant ↔ namespace, from the Tenants' status. */
  namespaceOf: (tenant: string) => string | undefined;
  isTenantNamespace: (namespace: string) => boolean;
}

/** A platform route (not made by landlord, outside tenant namespaces) first; then the earliest claim. */
export function hostHolders(sources: HostSources): HostHolders {
  const { claims, foreign } = sources;
  return {
    holderBefore: (host, self) =>
      foreign.platformHolder(host, sources.isTenantNamespace) ?? claims.holderBefore(host, self),
    templatedNames: sources.templatedNames,
    handMadeIn: (namespace) => foreign.inNamespace(namespace),
    claimants: (host) => claims.claimants(host),
    namespaceOf: sources.namespaceOf,
  };
}
