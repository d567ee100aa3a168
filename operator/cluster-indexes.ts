// What a reconcile knows of the rest of the cluster (lifecycle.ts's ClusterView, but for the
// secret sources): the other Tenants' Deployments by label, the hosts each Tenant claims, every
// class's templated hosts, the Tenants' namespaces, and the routes landlord did not make. Fed one object at a time, by the operator's watches (observed.ts)
// and by `landlord plan`'s listing (indexesOf), so a plan reads the cluster through the very
// indexes and rules a reconcile reads it through, and can never decide a conflict differently.
import type { KubernetesObject } from '@kubernetes/client-node';
import type { Tenant } from '../api/tenant.js';
import type { ClassPolicy, TenantClass } from '../api/tenantclass.js';
import { HostClaims, hostHolders, type HostHolders } from './exposure/claims.js';
import { claimedHosts } from './exposure/exposure.js';
import { ForeignRoutes, listedRoute, type RouteKind } from './exposure/foreign-routes.js';
import { templatedNames } from './exposure/templates.js';
import type { ClusterView } from './facets/contract.js';
import { keepsChildren, requestedState } from './lifecycle.js';
import { NeighbourIndex } from './neighbour-index.js';
import { createdAt } from './policy/index.js';
import type { SecretSources } from './secrets/sources.js';
import { resolveClass } from './tenancy/resolve-class.js';

export class ClusterIndexes {
  /** The Tenants' Deployments by namespace, for the policy's label check. */
  readonly neighbours: NeighbourIndex;
  /** The hosts each Tenant claims, cluster-wide: who holds a host (exposure/claims.ts). */
  private readonly hostClaims = new HostClaims();
  /** Routes landlord did not make: each holds the hosts it serves (exposure/foreign-routes.ts). */
  private readonly foreignRoutes = new ForeignRoutes();
  /** Who holds each host: a platform route, else the first Tenant to claim it (exposure/claims.ts). */
  readonly hostHolders: HostHolders;
  /** Tenant → its namespace and back, from the Tenants' status: whose namespace a route is in. */
  private readonly namespaceOf = new Map<string, string>();
  private readonly tenantOf = new Map<string, string>();
  /** Every class's expose.host, read from the classes when first asked after a class changed. */
  private hostTemplates: readonly string[] | undefined;

  constructor(
    /** Every TenantClass, as last seen. */
    private readonly classes: () => readonly TenantClass[],
    /** The class of a Tenant when no TenantClass is the default; undefined: it waits (NoDefaultClass). */
    private readonly builtInClass: ClassPolicy | undefined,
  ) {
    this.neighbours = new NeighbourIndex((tenant) => this.inOwnNamespace(tenant));
    this.hostHolders = hostHolders({
      claims: this.hostClaims,
      foreign: this.foreignRoutes,
      templatedNames: (host) => this.templatedNames(host),
      namespaceOf: (tenant) => this.namespaceOf.get(tenant),
      isTenantNamespace: (namespace) => this.tenantOf.has(namespace),
    });
  }

  /** What a reconcile's desiredState reads of the cluster, with the secret sources as given. */
  view(sources: SecretSources | undefined): ClusterView {
    const view = { neighbours: this.neighbours, holders: this.hostHolders };
    return sources === undefined ? view : { ...view, sources };
  }

  /**
   * A Tenant came or changed (not its deletion): its labels, hosts and namespace as it now asks.
   * Returns the other Tenants whose hold on a host this may change (claims.ts).
   */
  tenantChanged(tenant: Tenant): string[] {
    this.neighbours.tenantChanged(tenant);
    this.placed(tenant.metadata.name ?? '', tenant.status?.namespace);
    return this.claimHosts(tenant);
  }

  /** The Tenant went; returns the other Tenants that claimed one of its hosts. */
  tenantGone(tenant: string): string[] {
    this.neighbours.tenantGone(tenant);
    this.placed(tenant, undefined);
    return this.hostClaims.gone(tenant);
  }

  /**
   * A route as its watch caches it (metadata and hosts). Returns the Tenants to look again when the
   * hosts it serves changed: those that claim one of them, and the Tenant whose namespace it is in.
   */
  routeChanged(kind: RouteKind, object: KubernetesObject, deleted: boolean): string[] {
    const change = this.foreignRoutes.changed(kind, object, deleted);
    if (change === undefined) return [];
    const owner = this.tenantOf.get(change.namespace);
    const names = new Set([...this.hostClaims.others(change.hosts), ...(owner === undefined ? [] : [owner])]);
    return [...names].sort();
  }

  /**
   * A TenantClass changed: the templated hosts its Tenants claim may have too, and so may which
   * custom hosts reach into a templated space. Returns every Tenant whose claims changed, and the
   * other claimants of those hosts.
   */
  classesChanged(tenants: readonly Tenant[]): string[] {
    this.hostTemplates = undefined;
    const names = new Set<string>();
    for (const tenant of tenants) {
      const name = tenant.metadata.name ?? '';
      const before = this.hostClaims.hostsOf(name).join(',');
      const others = this.claimHosts(tenant);
      // Its own claims changed: its route must follow, whether or not anyone else claims them.
      if (this.hostClaims.hostsOf(name).join(',') !== before) names.add(name);
      for (const other of others) names.add(other);
    }
    return [...names].sort();
  }

  /**
   * A Tenant under a PerTenant class has its own namespace. Its class decides, not its status, which
   * names the namespace only after the first reconcile; a class that cannot be resolved yet (or
   * whose watch has not listed) leaves it to the status.
   */
  private inOwnNamespace(tenant: Tenant): boolean {
    const resolved = resolveClass(tenant, this.classes(), this.builtInClass);
    if (resolved.ok) return resolved.policy.mode === 'PerTenant';
    return tenant.status?.namespace !== undefined;
  }

  /**
   * The hosts the Tenant's route would serve under its class; none while its state keeps no route,
   * while it is going, or while its class cannot be resolved. Returns the other claimants whose
   * hold this may change.
   */
  private claimHosts(tenant: Tenant): string[] {
    const name = tenant.metadata.name ?? '';
    if (tenant.metadata.deletionTimestamp !== undefined || !keepsChildren(requestedState(tenant)))
      return this.hostClaims.gone(name);
    const resolved = resolveClass(tenant, this.classes(), this.builtInClass);
    const templated = (host: string): string[] => this.templatedNames(host);
    const hosts = resolved.ok ? claimedHosts(tenant, resolved.policy, templated) : [];
    return this.hostClaims.set(name, createdAt(tenant.metadata.creationTimestamp), hosts);
  }

  /** The tenant names the classes' templates give a host (exposure/templates.ts). */
  private templatedNames(host: string): string[] {
    this.hostTemplates ??= this.templates();
    return templatedNames(host, this.hostTemplates);
  }

  /** Every class's expose.host (the built-in class's too): the templated space of tenant names. */
  private templates(): string[] {
    const hosts = this.classes().flatMap((c) =>
      c.spec?.expose?.host === undefined ? [] : [c.spec.expose.host],
    );
    const builtIn = this.builtInClass?.expose?.host;
    return [...new Set(builtIn === undefined ? hosts : [...hosts, builtIn])].sort();
  }

  /** Records where a Tenant's namespace is (undefined: none, or gone). */
  private placed(tenant: string, namespace: string | undefined): void {
    const before = this.namespaceOf.get(tenant);
    if (before === namespace) return;
    if (before !== undefined && this.tenantOf.get(before) === tenant) this.tenantOf.delete(before);
    if (namespace === undefined) this.namespaceOf.delete(tenant);
    else {
      this.namespaceOf.set(tenant, namespace);
      this.tenantOf.set(namespace, tenant);
    }
  }
}

/** What a listing of the cluster holds, for indexes a reconcile would have built from its watches. */
export interface ClusterListing {
  tenants: readonly Tenant[];
  classes: readonly TenantClass[];
  builtInClass: ClassPolicy | undefined;
  /** Every Ingress and HTTPRoute, labelled or not, as listed. */
  routes: readonly { kind: RouteKind; object: KubernetesObject }[];
}

/**
 * The indexes of a listing: every Tenant and route fed in as its watch event would have been, after
 * the classes (a watch that has settled has seen them all).
 */
export function indexesOf(listing: ClusterListing): ClusterIndexes {
  const { classes } = listing;
  const indexes = new ClusterIndexes(() => classes, listing.builtInClass);
  for (const tenant of listing.tenants) indexes.tenantChanged(tenant);
  for (const { kind, object } of listing.routes) indexes.routeChanged(kind, listedRoute(kind, object), false);
  return indexes;
}
