// The other Tenants' Deployments by namespace, for the policy's label check: kept current from the
// Tenant watch, one entry per Tenant (replaced on every event, dropped when the Tenant goes). Within
// a namespace the entries are indexed by label, so a reconcile compares itself only with the few
// Deployments that could share its labels: with every tenant in one shared namespace, comparing
// with all of them made each reconcile linear in the tenants and a resync pass quadratic (10,000
// Tenants: 2.7 ms of CPU per reconcile, mostly in this comparison).
import type { Tenant } from '../api/tenant.js';
import { keepsChildren, requestedState } from './lifecycle.js';
import { createdAt, neighbourOf, type LabelProbe, type Neighbour, type Neighbours } from './policy/index.js';

/**
 * Whether a Tenant's Deployment goes into a namespace of its own (PerTenant) rather than the one its
 * manifest names. By default what its status says: the operator records the namespace it made.
 */
export type OwnNamespace = (tenant: Tenant) => boolean;

const recordedOwnNamespace: OwnNamespace = (tenant) => tenant.status?.namespace !== undefined;

/**
 * Label pair → tenant names. Most pairs are one tenant's own (its name as a label value), so a lone
 * tenant is held as its name and a Set made only once a second shares the pair: a Set per pair
 * cost the operator ~0.4 KB per tenant.
 */
class TenantsByPair {
  private readonly map = new Map<string, string | Set<string>>();

  add(pair: string, tenant: string): void {
    const held = this.map.get(pair);
    if (held === undefined) this.map.set(pair, tenant);
    else if (typeof held !== 'string') held.add(tenant);
    else if (held !== tenant) this.map.set(pair, new Set([held, tenant]));
  }

  remove(pair: string, tenant: string): void {
    const held = this.map.get(pair);
    if (held === tenant) this.map.delete(pair);
    if (typeof held !== 'object') return;
    held.delete(tenant);
    if (held.size === 1) this.map.set(pair, held.values().next().value!);
  }

  tenants(pair: string): Iterable<string> {
    const held = this.map.get(pair);
    return held === undefined ? [] : typeof held === 'string' ? [held] : held;
  }

  count(pair: string): number {
    const held = this.map.get(pair);
    return held === undefined ? 0 : typeof held === 'string' ? 1 : held.size;
  }
}

/** One namespace's Deployments, and two label indexes over them (tenant names as values). */
class Bucket {
  readonly all = new Map<string, Neighbour>();
  /** "key=value" → the tenants whose pods carry that label. */
  private readonly byPodLabel = new TenantsByPair();
  /**
   * "key=value" → the tenants whose selector requires it (one matchLabels pair per selector: a
   * selector matches only labels that include each of its pairs, so any one pair finds it).
   */
  private readonly bySelectorPair = new TenantsByPair();
  /** Tenants whose selector has no usable matchLabels pair: they may match any pods. */
  private readonly openSelectors = new Set<string>();

  /**
   * Takes the Tenant's new Neighbour in place of the one held when both file it under the same
   * labels, and says whether it did: most Tenant events are status writes, and removing and adding
   * the entry again left a hole in each of four hash tables every time, doubling them at 20,000.
   */
  replace(n: Neighbour): boolean {
    const held = this.all.get(n.tenant);
    if (held === undefined || !sameIndexKeys(held, n)) return false;
    this.all.set(n.tenant, n);
    return true;
  }

  add(n: Neighbour): void {
    this.all.set(n.tenant, n);
    for (const pair of labelPairs(n.podLabels)) this.byPodLabel.add(pair, n.tenant);
    const first = selectorPairs(n.selector)[0];
    if (first === undefined) this.openSelectors.add(n.tenant);
    else this.bySelectorPair.add(first, n.tenant);
  }

  remove(tenant: string): void {
    const n = this.all.get(tenant);
    if (n === undefined) return;
    this.all.delete(tenant);
    for (const pair of labelPairs(n.podLabels)) this.byPodLabel.remove(pair, tenant);
    const first = selectorPairs(n.selector)[0];
    if (first === undefined) this.openSelectors.delete(tenant);
    else this.bySelectorPair.remove(first, tenant);
  }

  /**
   * Those whose selector may match the probe's pods, and those whose pods the probe's selector may
   * match. A probe selector without matchLabels could match any pods: then everyone.
   */
  candidates(probe: LabelProbe): Neighbour[] {
    const wanted = selectorPairs(probe.selector);
    if (wanted.length === 0) return [...this.all.values()];
    const names = new Set(this.openSelectors);
    for (const pair of labelPairs(probe.podLabels)) {
      for (const t of this.bySelectorPair.tenants(pair)) names.add(t);
    }
    // Pods the probe selects carry every one of its pairs: the rarest pair's tenants are enough.
    const rarest = wanted.reduce((a, b) => (this.byPodLabel.count(b) < this.byPodLabel.count(a) ? b : a));
    for (const t of this.byPodLabel.tenants(rarest)) names.add(t);
    return [...names].map((t) => this.all.get(t)!);
  }
}

/** Label keys cannot hold a NUL, so "key\0value" names one pair unambiguously. */
const pairKey = (key: string, value: string): string => `${key}\u0000${value}`;

function labelPairs(labels: Readonly<Record<string, string>>): string[] {
  return Object.entries(labels).map(([k, v]) => pairKey(k, v));
}

/** Whether two Neighbours are filed under the same label pairs: their pods' and their selector's first. */
function sameIndexKeys(a: Neighbour, b: Neighbour): boolean {
  const pods = (n: Neighbour): string => labelPairs(n.podLabels).join('\u0001');
  return pods(a) === pods(b) && selectorPairs(a.selector)[0] === selectorPairs(b.selector)[0];
}

/** The selector's matchLabels pairs whose value is a string (no other value matches a label), by key. */
function selectorPairs(selector: LabelProbe['selector']): string[] {
  const pairs: unknown = selector.matchLabels;
  if (typeof pairs !== 'object' || pairs === null) return [];
  return Object.entries(pairs)
    .filter((e): e is [string, string] => typeof e[1] === 'string')
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([k, v]) => pairKey(k, v));
}

export class NeighbourIndex implements Neighbours {
  constructor(private readonly ownNamespace: OwnNamespace = recordedOwnNamespace) {}

  private readonly byNamespace = new Map<string, Bucket>();
  /** tenant name → the namespace it is indexed under */
  private readonly namespaceOf = new Map<string, string>();

  candidates(namespace: string, probe: LabelProbe): Neighbour[] {
    return this.byNamespace.get(namespace)?.candidates(probe) ?? [];
  }

  /** Every Deployment indexed under the namespace. */
  inNamespace(namespace: string): Neighbour[] {
    return [...(this.byNamespace.get(namespace)?.all.values() ?? [])];
  }

  /** Tenants whose Deployment is in the namespace. */
  tenantsIn(namespace: string): string[] {
    return [...(this.byNamespace.get(namespace)?.all.keys() ?? [])];
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
    const made = this.neighbourFor(tenant);
    const held = this.namespaceOf.get(name);
    if (made !== undefined && made.namespace === held && this.byNamespace.get(held)?.replace(made.neighbour))
      return;
    this.tenantGone(name);
    if (made === undefined) return;
    const bucket = this.byNamespace.get(made.namespace) ?? new Bucket();
    bucket.add(made.neighbour);
    this.byNamespace.set(made.namespace, bucket);
    this.namespaceOf.set(name, made.namespace);
  }

  /** The Neighbour the Tenant's Deployment makes in a shared namespace; undefined when it holds no labels. */
  private neighbourFor(tenant: Tenant): ReturnType<typeof neighbourOf> {
    if (tenant.metadata.deletionTimestamp !== undefined || !keepsChildren(requestedState(tenant)))
      return undefined;
    if (this.ownNamespace(tenant)) return undefined;
    const self = {
      tenant: tenant.metadata.name ?? '',
      createdAt: createdAt(tenant.metadata.creationTimestamp),
    };
    return neighbourOf(self, tenant.spec?.deployment);
  }

  tenantGone(tenant: string): void {
    const namespace = this.namespaceOf.get(tenant);
    if (namespace === undefined) return;
    const bucket = this.byNamespace.get(namespace);
    bucket?.remove(tenant);
    if (bucket?.all.size === 0) this.byNamespace.delete(namespace);
    this.namespaceOf.delete(tenant);
  }
}
