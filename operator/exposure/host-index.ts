// What the exposure facet watches beyond its children, and its slice of the cluster view: every
// Ingress and HTTPRoute, labelled or not (cached as a stub and its hosts; landlord's own as only
// what tells them apart), for the hosts the routes landlord did not make hold; the hosts each Tenant claims under its class; every class's
// templated hosts; the Tenants' namespaces. Fed one object at a time by the operator's watches, and
// by `landlord plan`'s listing, so a plan decides a host conflict exactly as a reconcile does.
import type { KubernetesObject } from '@kubernetes/client-node';
import { LABEL, type Tenant } from '../../api/tenant.js';
import { CHILD_API_VERSION } from '../child-ref.js';
import type { FacetIndex, FacetWatch, IndexContext, Wakes } from '../facets/contract.js';
import { keepsChildren, requestedState } from '../lifecycle.js';
import { stubOf } from '../foreign-objects.js';
import { createdAt } from '../policy/index.js';
import { resolveClass } from '../tenancy/resolve-class.js';
import { HostClaims, hostHolders, type HostHolders } from './claims.js';
import { claimedHosts } from './exposure.js';
import { ForeignRoutes, isLandlords, keepHostsOf, type RouteKind } from './foreign-routes.js';
import { templatedNames } from './templates.js';

/**
 * Every route as its stub and hosts; one of landlord's own as what tells it apart (its name, labels
 * and version), since it holds no host here (its children's caches hold it whole). Those are most
 * of the routes: a whole stub of each cost 0.8 KB per exposed tenant, twice the child cache's copy.
 */
const routeStub =
  (kind: RouteKind) =>
  (object: KubernetesObject): KubernetesObject => {
    if (isLandlords(object)) return landlordsRoute(object);
    const stub: KubernetesObject & { spec?: unknown } = { ...stubOf(object) };
    stub.spec = keepHostsOf(kind)((object as { spec?: unknown }).spec);
    return stub;
  };

function landlordsRoute(object: KubernetesObject): KubernetesObject {
  const { name, namespace, resourceVersion, labels = {} } = object.metadata ?? {};
  const told = { [LABEL.managedBy]: labels[LABEL.managedBy]!, [LABEL.tenant]: labels[LABEL.tenant]! };
  return {
    apiVersion: object.apiVersion,
    kind: object.kind,
    metadata: { name, namespace, resourceVersion, labels: told },
  };
}

export const ROUTE_WATCHES: readonly FacetWatch[] = [
  {
    apiVersion: CHILD_API_VERSION.Ingress,
    kind: 'Ingress',
    scope: 'cluster',
    unread: { dropStatus: true, keepOfSpec: keepHostsOf('Ingress') },
    stubOf: routeStub('Ingress'),
  },
  {
    apiVersion: CHILD_API_VERSION.HTTPRoute,
    kind: 'HTTPRoute',
    scope: 'cluster',
    needs: 'gatewayApi',
    unread: { dropStatus: true, keepOfSpec: keepHostsOf('HTTPRoute') },
    stubOf: routeStub('HTTPRoute'),
  },
];

export class HostIndex implements FacetIndex<HostHolders> {
  /** Who holds each host: a platform route, else the first Tenant to claim it (claims.ts). */
  readonly view: HostHolders;
  /** The hosts each Tenant claims, cluster-wide. */
  private readonly hostClaims = new HostClaims();
  /** Routes landlord did not make: each holds the hosts it serves (foreign-routes.ts). */
  private readonly foreignRoutes = new ForeignRoutes();
  /** Tenant → its namespace and back, from the Tenants' status: whose namespace a route is in. */
  private readonly namespaceOf = new Map<string, string>();
  private readonly tenantOf = new Map<string, string>();
  /** Every class's expose.host, read from the classes when first asked after a class changed. */
  private hostTemplates: readonly string[] | undefined;

  constructor(private readonly context: IndexContext) {
    this.view = hostHolders({
      claims: this.hostClaims,
      foreign: this.foreignRoutes,
      templatedNames: (host) => this.templatedNames(host),
      namespaceOf: (tenant) => this.namespaceOf.get(tenant),
      isTenantNamespace: (namespace) => this.tenantOf.has(namespace),
    });
  }

  /**
   * A route as its watch caches it (metadata and hosts). When the hosts it serves changed, the
   * Tenants that claim one of them look again, and so does the Tenant whose namespace it is in (it
   * reports a stray route).
   */
  changed(kind: string, object: KubernetesObject, deleted: boolean): Wakes {
    const change = this.foreignRoutes.changed(kind as RouteKind, object, deleted);
    if (change === undefined) return { tenants: () => [] };
    const owner = this.tenantOf.get(change.namespace);
    const names = new Set([...this.hostClaims.others(change.hosts), ...(owner === undefined ? [] : [owner])]);
    const sorted = [...names].sort();
    return { tenants: () => sorted };
  }

  /** A Tenant came or changed (not its deletion): its hosts and namespace as it now asks. */
  tenantChanged(tenant: Tenant): string[] {
    this.placed(tenant.metadata.name ?? '', tenant.status?.namespace);
    return this.claimHosts(tenant);
  }

  /** The Tenant went; returns the other Tenants that claimed one of its hosts. */
  tenantGone(tenant: string): string[] {
    this.placed(tenant, undefined);
    return this.hostClaims.gone(tenant);
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
   * The hosts the Tenant's route would serve under its class; none while its state keeps no route,
   * while it is going, or while its class cannot be resolved. Returns the other claimants whose
   * hold this may change.
   */
  private claimHosts(tenant: Tenant): string[] {
    const name = tenant.metadata.name ?? '';
    if (tenant.metadata.deletionTimestamp !== undefined || !keepsChildren(requestedState(tenant)))
      return this.hostClaims.gone(name);
    const resolved = resolveClass(tenant, this.context.classes(), this.context.builtInClass);
    const templated = (host: string): string[] => this.templatedNames(host);
    const hosts = resolved.ok ? claimedHosts(tenant, resolved.policy, templated) : [];
    return this.hostClaims.set(name, createdAt(tenant.metadata.creationTimestamp), hosts);
  }

  /** The tenant names the classes' templates give a host (templates.ts). */
  private templatedNames(host: string): string[] {
    this.hostTemplates ??= this.templates();
    return templatedNames(host, this.hostTemplates);
  }

  /** Every class's expose.host (the built-in class's too): the templated space of tenant names. */
  private templates(): string[] {
    const hosts = this.context
      .classes()
      .flatMap((c) => (c.spec?.expose?.host === undefined ? [] : [c.spec.expose.host]));
    const builtIn = this.context.builtInClass?.expose?.host;
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
