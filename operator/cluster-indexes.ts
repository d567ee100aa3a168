// What a reconcile knows of the rest of the cluster (lifecycle.ts's ClusterView, but for the
// secret sources): the other Tenants' Deployments by label, the hosts each Tenant claims, and the
// routes landlord did not make. Fed one object at a time, by the operator's watches (observed.ts)
// and by `landlord plan`'s listing (indexesOf), so a plan reads the cluster through the very
// indexes and rules a reconcile reads it through, and can never decide a conflict differently.
import type { KubernetesObject } from '@kubernetes/client-node';
import type { Tenant } from '../api/tenant.js';
import type { ClassPolicy, TenantClass } from '../api/tenantclass.js';
import { HostClaims, hostHolders, type HostHolders } from './exposure/claims.js';
import { claimedHosts } from './exposure/exposure.js';
import { ForeignRoutes, listedRoute, type RouteKind } from './exposure/foreign-routes.js';
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
  /** Who holds each host: a foreign route, else the first Tenant to claim it. */
  readonly hostHolders: HostHolders;

  constructor(
    /** Every TenantClass, as last seen. */
    private readonly classes: () => readonly TenantClass[],
    /** The class of a Tenant when no TenantClass is the default; undefined: it waits (NoDefaultClass). */
    private readonly builtInClass: ClassPolicy | undefined,
  ) {
    this.neighbours = new NeighbourIndex((tenant) => this.inOwnNamespace(tenant));
    this.hostHolders = hostHolders(this.hostClaims, this.foreignRoutes);
  }

  /** What a reconcile's desiredState reads of the cluster, with the secret sources as given. */
  view(sources: SecretSources | undefined): ClusterView {
    const view = { neighbours: this.neighbours, holders: this.hostHolders };
    return sources === undefined ? view : { ...view, sources };
  }

  /** A Tenant came or changed (not its deletion): its labels and hosts as it now asks. */
  tenantChanged(tenant: Tenant): void {
    this.neighbours.tenantChanged(tenant);
    this.claimHosts(tenant);
  }

  tenantGone(tenant: string): void {
    this.neighbours.tenantGone(tenant);
    this.hostClaims.gone(tenant);
  }

  /** A route as its watch caches it (metadata and hosts); true when the hosts foreign routes serve changed. */
  routeChanged(kind: RouteKind, object: KubernetesObject, deleted: boolean): boolean {
    return this.foreignRoutes.changed(kind, object, deleted);
  }

  /** A TenantClass changed: the templated hosts its Tenants claim may have too. */
  classesChanged(tenants: readonly Tenant[]): void {
    for (const tenant of tenants) this.claimHosts(tenant);
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
   * while it is going, or while its class cannot be resolved.
   */
  private claimHosts(tenant: Tenant): void {
    const name = tenant.metadata.name ?? '';
    if (tenant.metadata.deletionTimestamp !== undefined || !keepsChildren(requestedState(tenant))) {
      this.hostClaims.gone(name);
      return;
    }
    const resolved = resolveClass(tenant, this.classes(), this.builtInClass);
    const hosts = resolved.ok ? claimedHosts(tenant, resolved.policy) : [];
    this.hostClaims.set(name, createdAt(tenant.metadata.creationTimestamp), hosts);
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
