// What the operator sees of the cluster, from its watch caches: Tenants, TenantClasses, and the
// children that carry a Tenant's label (Deployments, ConfigMaps and, for PerTenant classes, the
// tenant's Namespace and what the operator puts in it), indexed by Tenant so a reconcile never
// scans them all; and the cluster view a reconcile decides from (cluster-indexes.ts), each facet's
// slice fed by what that facet watches.
// A Tenant whose status the operator just wrote is seen as the write returned it until the watch
// delivers that version (the Tenant cache, runtime/kube/tenant-cache.ts): a reconcile that follows
// at once (its own apply's child event) must not take the old status for the current one, write it
// again and announce a transition twice. Children the operator just applied are seen the same way,
// so a reconcile that follows before the child's watch event does not apply it again.
import type { KubernetesObject, V1ConfigMap, V1Deployment } from '@kubernetes/client-node';
import type { Tenant } from '../api/tenant.js';
import type { ClassPolicy, TenantClass } from '../api/tenantclass.js';
import { lighten } from '../runtime/kube/informer.js';
import { isNewer, sameVersion } from '../runtime/kube/resource-version.js';
import { ChildIndex } from './child-index.js';
import { childKey, childRef, type ChildKind, type ChildRef } from './child-ref.js';
import { ClusterIndexes } from './cluster-indexes.js';
import type { ClusterView, Facet, Wakes } from './facets/contract.js';
import { unreadOf, watchedPerNamespace } from './facets/kinds.js';
import type { NeighbourIndex } from './neighbour-index.js';
import { readThroughBump, sameSpecBump, type SameSpecBump } from './same-spec-generation.js';
import type { HeldChildren, WatchedCaches } from './watches.js';

/**
 * How long an applied child is overlaid on the cache at most: its watch event comes within
 * moments, but one created and deleted while the watch was re-listing never comes at all.
 */
const APPLIED_TTL_MS = 60_000;

/**
 * Same-spec bumps remembered at most (same-spec-generation.ts): each is spent at the first read after
 * the Deployment controller catches up, so only those of Deployments never read again stay, oldest
 * dropped first. A dropped one costs its tenant the wait it saved, nothing else.
 */
const MAX_BUMPS = 4_096;

const versioned = (resourceVersion: string): KubernetesObject => ({ metadata: { resourceVersion } });

export class ObservedState implements HeldChildren {
  private readonly index = new ChildIndex();
  /** The other Tenants' labels and each facet's slice, kept as `landlord plan` builds them. */
  private readonly indexes: ClusterIndexes;
  /** The Tenants' Deployments by namespace, for the policy's label check. */
  readonly neighbours: NeighbourIndex;
  /** Children as the operator's applies returned them, until the cache holds that version. */
  private readonly applied = new Map<string, { object: KubernetesObject; at: number }>();
  /**
   * Children a reconcile is converging now → its Tenant, and the newest version their watch
   * delivered meanwhile ('' for none). Their events are held here rather than waking the Tenant:
   * most are the echo of the apply under way, which the reconcile reports from; convergeEnded says
   * which were not.
   */
  private readonly converging = new Map<string, { tenant: string; seen: string }>();
  /** Deployments whose generation the operator's own write raised without changing their spec. */
  private readonly bumps = new Map<string, SameSpecBump>();

  constructor(
    private readonly caches: WatchedCaches,
    /** One entry per watched namespace; [undefined] when children are watched cluster-wide. */
    private readonly childNamespaces: readonly (string | undefined)[],
    /** The class of a Tenant when no TenantClass is the default; undefined: it waits (NoDefaultClass). */
    builtInClass: ClassPolicy | undefined,
  ) {
    this.indexes = new ClusterIndexes({
      tenants: () => this.tenants(),
      classes: () => this.tenantClasses(),
      builtInClass,
      apis: caches.apis,
      read: (facet, kind, namespace, name) => caches.watched(facet, kind, namespace, name),
    });
    this.neighbours = this.indexes.neighbours;
  }

  /** What a reconcile decides from, reading the caches as they are when it asks. */
  view(shared: Omit<ClusterView, 'of' | 'neighbours'> = {}): ClusterView {
    return this.indexes.view(shared);
  }

  /** The Tenant as fresh as the operator knows it: the watch's copy, or what its status write returned. */
  tenant(name: string): Tenant | undefined {
    return this.caches.tenants.get(name);
  }

  tenants(): readonly Tenant[] {
    return this.caches.tenants.list();
  }

  /** Every TenantClass, as the watch last saw it. */
  tenantClasses(): readonly TenantClass[] {
    return this.caches.classes.list();
  }

  /**
   * The child as last seen, or undefined when it is not in the cache (absent, or not labelled).
   * Only Deployments and ConfigMaps may be watched per namespace; the tenancy kinds are watched
   * cluster-wide, since a PerTenant namespace is made when its Tenant comes.
   */
  child<T extends KubernetesObject = V1Deployment | V1ConfigMap>(ref: ChildRef): T | undefined {
    const key = childKey(ref);
    const latest = this.latestChild(ref, key);
    return latest === undefined ? undefined : (this.readThroughBump(key, latest) as T);
  }

  /**
   * A copy of the child as a rollout is judged: a Deployment whose generation the operator's own
   * write raised without changing its spec reads as seen once the generation before it was
   * (same-spec-generation.ts); any other copy as it is.
   */
  throughBump<T extends KubernetesObject>(ref: ChildRef, copy: T): T {
    return this.readThroughBump(childKey(ref), copy);
  }

  private readThroughBump<T extends KubernetesObject>(key: string, copy: T): T {
    const bump = this.bumps.get(key);
    if (bump === undefined) return copy;
    const reading = readThroughBump(copy, bump);
    if (reading.kind === 'spent') this.bumps.delete(key);
    return reading.kind === 'lifted' ? (reading.deployment as T) : copy;
  }

  /** The child as the cache or the operator's last apply has it, whichever is newer. */
  private latestChild(ref: ChildRef, key: string): KubernetesObject | undefined {
    const cached = this.cachedChild(ref);
    const applied = this.applied.get(key);
    if (applied === undefined) return cached;
    const fresh = Date.now() - applied.at < APPLIED_TTL_MS;
    if (fresh && (cached === undefined || isNewer(applied.object, cached))) return applied.object;
    this.applied.delete(key);
    return cached;
  }

  /** The child as its watch cache holds it, without what the operator's applies returned since. */
  private cachedChild(ref: ChildRef): KubernetesObject | undefined {
    const perNamespace = watchedPerNamespace(ref.kind) && this.childNamespaces.includes(ref.namespace);
    const scope = perNamespace ? ref.namespace : undefined;
    return this.caches.child(ref.kind, scope)?.get(ref.name, ref.namespace);
  }

  /** A child as an apply returned it (or found it): fresher than the cache until the watch catches up. */
  childApplied(ref: ChildRef, object: KubernetesObject, before?: KubernetesObject): void {
    const key = childKey(ref);
    if (ref.kind === 'Deployment') this.noteBump(key, sameSpecBump(before, object));
    // Its echo usually comes first: the cache already holds this version, lightened.
    if (sameVersion(this.cachedChild(ref) ?? {}, object)) {
      this.applied.delete(key);
      return;
    }
    // Kept as light as the cache's copies (no managedFields; no status but a Deployment's): under a
    // burst of applies the watch falls behind, and these copies were an eighth of the heap.
    const lean = lighten(object, unreadOf(ref.kind), this.child(ref));
    const now = Date.now();
    // Re-inserted, so the map stays in the order of the applies and the expired ones are at its front.
    this.applied.delete(key);
    this.applied.set(key, { object: lean, at: now });
    this.dropExpired(now);
  }

  /** A write that changed the spec (or made the Deployment) supersedes an earlier same-spec bump. */
  private noteBump(key: string, bump: SameSpecBump | undefined): void {
    this.bumps.delete(key);
    if (bump === undefined) return;
    this.bumps.set(key, bump);
    if (this.bumps.size > MAX_BUMPS) this.bumps.delete(this.bumps.keys().next().value!);
  }

  /** The copy of this child its apply returned, when the watch brings that very version (its echo). */
  heldChild(kind: ChildKind, object: KubernetesObject): KubernetesObject | undefined {
    const { namespace = '', name = '' } = object.metadata ?? {};
    const applied = this.applied.get(childKey(childRef(kind, namespace, name)));
    return applied !== undefined && sameVersion(applied.object, object) ? applied.object : undefined;
  }

  /**
   * An entry whose child is never looked up again, and whose watch event is late (the watches fall
   * behind in a burst), would otherwise stay until that event: bounded by the TTL instead.
   */
  private dropExpired(now: number): void {
    for (const [key, entry] of this.applied) {
      if (now - entry.at < APPLIED_TTL_MS) return;
      this.applied.delete(key);
    }
  }

  /** Every cached child labelled as belonging to the tenant. */
  childrenOf(tenant: string): ChildRef[] {
    return this.index.childrenOf(tenant);
  }

  /** The tenant was refused because another owner holds this child: its deletion wakes the tenant. */
  refusedOverChild(ref: ChildRef, tenant: string): void {
    this.index.refused(tenant, ref);
  }

  /**
   * Called for every Tenant watch event but deletion: keeps the neighbours and host claims current.
   * Returns the other Tenants whose hold on a host this may change.
   */
  tenantChanged(tenant: Tenant): string[] {
    return this.indexes.tenantChanged(tenant);
  }

  /** An event of an object a facet watches beyond its children: its index's, and whom it concerns. */
  watchedChanged(facet: Facet<unknown>, kind: string, object: KubernetesObject, deleted: boolean): Wakes {
    return this.indexes.watchedChanged(facet, kind, object, deleted);
  }

  /** A TenantClass changed: returns the Tenants whose host claims changed with it, and their rivals. */
  classesChanged(): string[] {
    return this.indexes.classesChanged(this.tenants());
  }

  /** The Tenant was deleted: forget what it waited on, its place among the neighbours and its hosts. */
  tenantGone(tenant: string): string[] {
    this.index.tenantGone(tenant);
    return this.indexes.tenantGone(tenant);
  }

  /**
   * Called for every child watch event: keeps the index current, and names the Tenants to look at.
   * None for the echo of the operator's own apply (the version the apply returned), nor for a
   * child being converged now: the reconcile reports from the object its apply returned, so
   * another would find nothing new.
   */
  childChanged(kind: ChildKind, object: KubernetesObject, deleted: boolean): string[] {
    const key = childKey(childRef(kind, object.metadata?.namespace ?? '', object.metadata?.name ?? ''));
    const echo = this.settleApplied(key, object, deleted);
    const tenants = this.index.childChanged(kind, object, deleted);
    if (deleted) return tenants;
    return this.heldWhileConverging(key, object, tenants) || echo ? [] : tenants;
  }

  /** Drops the applied copy once the watch has caught up with it; true for the event that is its echo. */
  private settleApplied(key: string, object: KubernetesObject, deleted: boolean): boolean {
    const applied = this.applied.get(key);
    if (applied === undefined) return false;
    if (deleted || !isNewer(applied.object, object)) this.applied.delete(key);
    return !deleted && sameVersion(applied.object, object);
  }

  /**
   * A child its own Tenant is converging: the event wakes nobody, and its version is kept for
   * convergeEnded. An event that concerns another Tenant wakes it as usual.
   */
  private heldWhileConverging(key: string, object: KubernetesObject, tenants: string[]): boolean {
    const held = this.converging.get(key);
    if (held === undefined || tenants.length !== 1 || tenants[0] !== held.tenant) return false;
    if (held.seen === '' || isNewer(object, versioned(held.seen)))
      held.seen = object.metadata?.resourceVersion ?? '';
    return true;
  }

  /** The Tenant's reconcile starts converging these children (under their locks: one at a time per child). */
  convergeStarted(tenant: string, refs: readonly ChildRef[]): void {
    for (const ref of refs) this.converging.set(childKey(ref), { tenant, seen: '' });
  }

  /**
   * The reconcile is done with the child, and reported from `object` (what its apply returned, or
   * the cached copy it left alone; undefined when it failed). True when the watch delivered a
   * version it did not see meanwhile: the Tenant must be looked at again.
   */
  convergeEnded(ref: ChildRef, object: KubernetesObject | undefined): boolean {
    const key = childKey(ref);
    const held = this.converging.get(key);
    this.converging.delete(key);
    if (held === undefined || held.seen === '') return false;
    const seen = versioned(held.seen);
    return object === undefined || !(sameVersion(seen, object) || isNewer(object, seen));
  }
}
