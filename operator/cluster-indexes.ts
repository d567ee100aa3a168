// What a reconcile knows of the rest of the cluster (facets/contract.ts, ClusterView): the other
// Tenants' Deployments by label, and each facet's own slice, the index it keeps of the objects it
// watches beyond its children (the exposure facet's host holders, the secrets facet's sources). Fed
// one object at a time, by the operator's watches (observed.ts) and by `landlord plan`'s listing
// (indexesOf), so a plan reads the cluster through the very indexes and rules a reconcile reads it
// through, and can never decide a conflict differently.
import type { KubernetesObject } from '@kubernetes/client-node';
import type { Tenant } from '../api/tenant.js';
import type { ClassPolicy, TenantClass } from '../api/tenantclass.js';
import type { ClusterView, Facet, FacetIndex, IndexContext, ServedApis, Wakes } from './facets/contract.js';
import { FACETS } from './facets/list.js';
import { NeighbourIndex } from './neighbour-index.js';
import { resolveClass } from './tenancy/resolve-class.js';

/** What the indexes read: as a facet's index context, but a watched object is read by its facet. */
export interface IndexSources extends Omit<IndexContext, 'read'> {
  read(facet: Facet<unknown>, kind: string, namespace: string, name: string): KubernetesObject | undefined;
}

const NOBODY: Wakes = { tenants: () => [] };

export class ClusterIndexes {
  /** The Tenants' Deployments by namespace, for the policy's label check. */
  readonly neighbours: NeighbourIndex;
  /** Each facet that watches objects beyond its children → its index of them. */
  private readonly slices = new Map<Facet<unknown>, FacetIndex<unknown>>();

  constructor(
    private readonly sources: IndexSources,
    facets: readonly Facet<unknown>[] = FACETS,
  ) {
    this.neighbours = new NeighbourIndex((tenant) => this.inOwnNamespace(tenant));
    for (const facet of facets) {
      const read = (kind: string, namespace: string, name: string): KubernetesObject | undefined =>
        sources.read(facet, kind, namespace, name);
      const index = facet.watches?.index({ ...sources, read });
      if (index !== undefined) this.slices.set(facet, index);
    }
  }

  /** What a reconcile's desiredState reads of the cluster, with what no facet owns (the upgrade budget). */
  view(shared: Omit<ClusterView, 'of' | 'neighbours'> = {}): ClusterView {
    const slices = this.slices;
    return {
      ...shared,
      neighbours: this.neighbours,
      // A slice is stored under the facet that keeps it, so it has that facet's type.
      of: <V>(facet: Facet<unknown, V>) => slices.get(facet)?.view as V | undefined,
    };
  }

  /**
   * A Tenant came or changed (not its deletion): its labels, and each facet's index of it.
   * Returns the other Tenants whose decision this may move (the rivals over a host).
   */
  tenantChanged(tenant: Tenant): string[] {
    this.neighbours.tenantChanged(tenant);
    return this.each((index) => index.tenantChanged?.(tenant));
  }

  /** The Tenant went; returns the other Tenants whose decision this may move. */
  tenantGone(tenant: string): string[] {
    this.neighbours.tenantGone(tenant);
    return this.each((index) => index.tenantGone?.(tenant));
  }

  /** A TenantClass changed: returns the Tenants whose decision it may move, in each facet's index. */
  classesChanged(tenants: readonly Tenant[]): string[] {
    return this.each((index) => index.classesChanged?.(tenants));
  }

  /** An object a facet watches beyond its children, as its cache keeps it: whom it concerns. */
  watchedChanged(facet: Facet<unknown>, kind: string, object: KubernetesObject, deleted: boolean): Wakes {
    return this.slices.get(facet)?.changed(kind, object, deleted) ?? NOBODY;
  }

  /** Asks every facet's index, and returns the Tenants they name, each once. */
  private each(ask: (index: FacetIndex<unknown>) => readonly string[] | undefined): string[] {
    const names = [...this.slices.values()].flatMap((index) => ask(index) ?? []);
    return [...new Set(names)];
  }

  /**
   * A Tenant under a PerTenant class has its own namespace. Its class decides, not its status, which
   * names the namespace only after the first reconcile; a class that cannot be resolved yet (or
   * whose watch has not listed) leaves it to the status.
   */
  private inOwnNamespace(tenant: Tenant): boolean {
    const resolved = resolveClass(tenant, this.sources.classes(), this.sources.builtInClass);
    if (resolved.ok) return resolved.policy.mode === 'PerTenant';
    return tenant.status?.namespace !== undefined;
  }
}

/** One object a facet watches beyond its children, as listed and shaped as its watch caches it. */
export interface WatchedObject {
  facet: Facet<unknown>;
  kind: string;
  object: KubernetesObject;
}

/** What a listing of the cluster holds, for indexes a reconcile would have built from its watches. */
export interface ClusterListing {
  tenants: readonly Tenant[];
  classes: readonly TenantClass[];
  builtInClass: ClassPolicy | undefined;
  apis: ServedApis;
  /** Every object the facets watch beyond their children (kinds.ts, servedWatches). */
  watched: readonly WatchedObject[];
  /** The facets whose indexes to build; absent: the operator's (list.ts). */
  facets?: readonly Facet<unknown>[];
}

const watchedKey = (facet: Facet<unknown>, kind: string, namespace: string, name: string): string =>
  `${facet.name}/${kind}/${namespace}/${name}`;

/**
 * The indexes of a listing: every Tenant and watched object fed in as its watch event would have
 * been, after the classes (a watch that has settled has seen them all).
 */
export function indexesOf(listing: ClusterListing): ClusterIndexes {
  const { tenants, classes, builtInClass, apis, watched } = listing;
  const byKey = new Map(
    watched.map(({ facet, kind, object }) => [
      watchedKey(facet, kind, object.metadata?.namespace ?? '', object.metadata?.name ?? ''),
      object,
    ]),
  );
  const indexes = new ClusterIndexes(
    {
      tenants: () => tenants,
      classes: () => classes,
      builtInClass,
      apis,
      read: (facet, kind, namespace, name) => byKey.get(watchedKey(facet, kind, namespace, name)),
    },
    listing.facets,
  );
  for (const tenant of tenants) indexes.tenantChanged(tenant);
  for (const { facet, kind, object } of watched) indexes.watchedChanged(facet, kind, object, false);
  return indexes;
}
