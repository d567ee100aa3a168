// The operator's watches, made by its wiring from the runtime's informers, as sync's and the
// purger's are (runtime/kube/informer.ts: resumes from its resourceVersion, relists on 410 Gone,
// retries errors with backoff, never exits the process; docs/adr/0001-watching.md): every Tenant,
// into the Tenant cache; every TenantClass; and the children labelled with a Tenant, Deployments
// and ConfigMaps in each watched namespace, the tenancy and exposure kinds cluster-wide (a PerTenant
// namespace is made when its Tenant comes; HTTPRoutes only where the cluster serves them); what each
// facet watches beyond its children, where it says (facets/contract.ts, FacetWatch); and warm pool
// members. What anyone may label like landlord's (a child's look-alike, a route, a pool Deployment
// outside a member) is cached as a stub (foreign-objects.ts). Handlers only update indexes and name
// Tenants to the work queue.
import type { KubernetesObject, V1Deployment } from '@kubernetes/client-node';
import { LABEL, type Tenant } from '../api/tenant.js';
import { CLASS_API_VERSION, CLASS_KIND, type TenantClass } from '../api/tenantclass.js';
import type { KubeApi } from '../runtime/kube/api.js';
import { Informer, type Change, type InformerOptions } from '../runtime/kube/informer.js';
import { apiPath, pluralOf } from '../runtime/kube/paths.js';
import { watchTenants, type TenantCache } from '../runtime/kube/tenant-cache.js';
import type { Logger } from '../runtime/logger.js';
import { CHILD_API_VERSION, type ChildKind } from './child-ref.js';
import type { Facet, ServedApis } from './facets/contract.js';
import { servedKinds, servedWatches, unreadOf, valuesAreRead, watchNamespaces } from './facets/kinds.js';
import { childStub, stubOf } from './foreign-objects.js';
import type { PolicyConfig } from './policy/index.js';

/** What the operator found the cluster serves, and the policy whose settings place facets' watches. */
export interface WatchedFeatures {
  /** The optional APIs served (HTTPRoutes, ExternalSecrets): only then are their kinds watched. */
  apis: ServedApis;
  /** The secret source namespaces, say, where the secrets facet watches its sources. */
  policy: PolicyConfig;
}

/** Where the watch events go (routing/event-router.ts). */
export interface WatchHandlers {
  tenant(tenant: Tenant, change: Change, deleted: boolean): void;
  tenantClass(tenantClass: TenantClass, deleted: boolean): void;
  child(kind: ChildKind, object: KubernetesObject, deleted: boolean): void;
  /** An object a facet watches beyond its children (a source Secret, any route), as its cache keeps it. */
  watched(facet: Facet<unknown>, kind: string, object: KubernetesObject, deleted: boolean): void;
  /** A warm pool member (its Namespace or its Deployment) changed: the pool controller looks again. */
  pool(): void;
  /** The Tenant watch reconnected after failing: the API server answers again. */
  recovered(): void;
}

/** What the operator reads of its caches (ObservedState). */
export interface WatchedCaches {
  readonly tenants: TenantCache;
  readonly classes: { list(): readonly TenantClass[] };
  /** The cache of one child kind in one watched namespace (undefined: the cluster-wide one). */
  child(kind: ChildKind, namespace: string | undefined): Informer<KubernetesObject> | undefined;
  /** An object a facet watches beyond its children, as its cache holds it. */
  watched(facet: Facet<unknown>, kind: string, namespace: string, name: string): KubernetesObject | undefined;
  /** The optional APIs served at start-up (whether ExternalSecrets are watched, say). */
  readonly apis: ServedApis;
  readonly pool: PoolCaches;
}

/** Warm pool members (pool/): the Namespaces and Deployments labelled with a class, cluster-wide. */
export interface PoolCaches {
  readonly namespaces: { list(): readonly KubernetesObject[] };
  /** Undefined when the operator watches listed namespaces only: then it keeps no warm pool. */
  readonly deployments: { list(namespace?: string): readonly V1Deployment[] } | undefined;
}

/** The copies of children the operator's writes returned (ObservedState), lightened as its caches lighten. */
export interface HeldChildren {
  heldChild(kind: ChildKind, object: KubernetesObject): KubernetesObject | undefined;
}

/** One watch, started in turn: what its log line says of it. */
interface Watch {
  readonly cache: { start(): Promise<void>; stop(): Promise<void> };
  readonly resource: string;
  readonly namespace?: string;
  readonly labelSelector?: string;
}

/**
 * Objects in the first page of a cache that stubs what others make: 100 objects of 1.5 MB would be
 * a page of 150 MB before the first was stubbed (runtime/kube/list.ts, nextPageSize).
 */
const FIRST_PAGE = 16;

type Deliver<T> = (object: T, change: Change, deleted: boolean) => void;

/** Every event of an informer to one handler, which is told whether it was a deletion. */
function onEvery<T extends KubernetesObject>(cache: { on: Informer<T>['on'] }, deliver: Deliver<T>): void {
  cache.on('add', (object, change) => deliver(object, change, false));
  cache.on('update', (object, change) => deliver(object, change, false));
  cache.on('delete', (object, change) => deliver(object, change, true));
}

export class OperatorWatches implements WatchedCaches {
  readonly tenants: TenantCache;
  readonly classes: Informer<TenantClass>;
  readonly apis: ServedApis;
  readonly pool: PoolCaches;
  private readonly children = new Map<string, Informer<KubernetesObject>>();
  /** "facet/kind/namespace" ('' cluster-wide) → the cache of what a facet watches beyond its children. */
  private readonly facetWatches = new Map<string, Informer<KubernetesObject>>();
  private readonly watches: Watch[] = [];

  /** Where events go; set before start (routeTo), since the router reads these caches. */
  private handlers: WatchHandlers | undefined;
  /** The children the operator's own writes returned (heldFrom), which their echoes reuse. */
  private held: HeldChildren | undefined;

  constructor(
    private readonly api: KubeApi,
    /** One entry per watched namespace; [undefined] when children are watched cluster-wide. */
    scopes: readonly (string | undefined)[],
    private readonly logger: Logger,
    features: WatchedFeatures,
  ) {
    const { apis, policy } = features;
    this.apis = apis;
    // The operator's copy of each Tenant is lightened (no managedFields), and an update that changed
    // only the status is marked: the operator's own status write, sync's Synced, the purger's.
    const onRecovered = (): void => this.handlers?.recovered();
    this.tenants = watchTenants(api, { logger, markStatusOnly: true, onRecovered });
    onEvery(this.tenants, (tenant, change, deleted) => this.handlers?.tenant(tenant, change, deleted));
    this.watches.push({ cache: this.tenants, resource: 'tenants' });
    this.classes = this.informer<TenantClass>({ apiVersion: CLASS_API_VERSION, kind: CLASS_KIND });
    onEvery(this.classes, (tenantClass, _change, deleted) =>
      this.handlers?.tenantClass(tenantClass, deleted),
    );
    // Each facet's kinds where the cluster serves them: the workload in each watched namespace (a
    // Shared class puts it there), the rest cluster-wide, as a PerTenant namespace comes with its Tenant.
    for (const { kind, scope } of servedKinds(apis)) {
      if (scope === 'tenantNamespaces') scopes.forEach((namespace) => this.watchChild(kind, namespace));
      else this.watchChild(kind, undefined);
    }
    this.watchFacets(policy);
    // Members' Deployments live in namespaces made on the fly: watched only where the operator may
    // read Deployments cluster-wide. Confined to listed namespaces, it keeps no pool (docs/warm-pool.md).
    // Only a member's own Deployment is kept whole: one labelled with a pool elsewhere (by a tenant
    // team, or a claimed member's leftover) is a stub, which names it for deletion all the same.
    const clusterWide = scopes.includes(undefined);
    const namespaces = this.poolInformer('Namespace');
    const inMember = (object: KubernetesObject): boolean =>
      namespaces.get(object.metadata?.namespace ?? '') !== undefined;
    this.pool = {
      namespaces,
      deployments: clusterWide
        ? this.poolInformer<V1Deployment>('Deployment', (o) => (inMember(o) ? undefined : stubOf(o)))
        : undefined,
    };
  }

  /** What each facet watches beyond its children, where its scope says, cached as it declares. */
  private watchFacets(policy: PolicyConfig): void {
    for (const { facet, watch } of servedWatches(this.apis)) {
      const { apiVersion, kind } = watch;
      for (const namespace of watchNamespaces(watch, policy)) {
        const shape = { ...watch.unread, ...(watch.stubOf === undefined ? {} : { stubOf: watch.stubOf }) };
        const informer = this.informer<KubernetesObject>({ apiVersion, kind, namespace }, shape);
        onEvery(informer, (object, _change, deleted) => this.handlers?.watched(facet, kind, object, deleted));
        this.facetWatches.set(`${facet.name}/${kind}/${namespace ?? ''}`, informer);
      }
    }
  }

  watched(
    facet: Facet<unknown>,
    kind: string,
    namespace: string,
    name: string,
  ): KubernetesObject | undefined {
    const inNamespace = this.facetWatches.get(`${facet.name}/${kind}/${namespace}`);
    const cache = inNamespace ?? this.facetWatches.get(`${facet.name}/${kind}/`);
    return cache?.get(name, namespace);
  }

  /** Pool members and their Deployments, cluster-wide: a member's name is random, made by the operator. */
  private poolInformer<T extends KubernetesObject>(
    kind: 'Namespace' | 'Deployment',
    stub?: InformerOptions['stubOf'],
  ): Informer<T> {
    const informer = this.informer<T>(
      { apiVersion: CHILD_API_VERSION[kind], kind },
      { labelSelector: LABEL.pool, ...unreadOf(kind), ...(stub === undefined ? {} : { stubOf: stub }) },
    );
    onEvery(informer, () => this.handlers?.pool());
    return informer;
  }

  /** A child's event at a version its write returned is cached as that copy, not lightened again. */
  heldFrom(held: HeldChildren): void {
    this.held = held;
  }

  /** Every event from now on goes to these handlers. */
  routeTo(handlers: WatchHandlers): void {
    this.handlers = handlers;
  }

  child(kind: ChildKind, namespace: string | undefined): Informer<KubernetesObject> | undefined {
    return this.children.get(`${kind}/${namespace ?? ''}`);
  }

  /** Lists and watches each in turn; resolves once every cache holds a complete list. */
  async start(): Promise<void> {
    for (const { cache, resource, namespace, labelSelector } of this.watches) {
      await cache.start();
      this.logger.info('watching', { resource, namespace: namespace ?? '*', labelSelector });
    }
  }

  stop(): void {
    for (const { cache } of this.watches) void cache.stop();
  }

  private watchChild(kind: ChildKind, namespace: string | undefined): void {
    const informer = this.informer<KubernetesObject>(
      { apiVersion: CHILD_API_VERSION[kind], kind, namespace },
      // A copy of a class's Secret is watched by metadata alone: its values never reach the operator.
      // An object labelled like a child but not made for a Tenant is kept as a stub (foreign-objects.ts).
      {
        labelSelector: LABEL.tenant,
        ...unreadOf(kind),
        metadataOnly: !valuesAreRead(kind),
        known: (object) => this.held?.heldChild(kind, object),
        stubOf: childStub,
      },
    );
    onEvery(informer, (object, _change, deleted) => this.handlers?.child(kind, object, deleted));
    this.children.set(`${kind}/${namespace ?? ''}`, informer);
  }

  /** An informer of one kind (in one namespace), registered to be started in turn. */
  private informer<T extends KubernetesObject>(
    target: { apiVersion: string; kind: string; namespace?: string },
    options: Pick<
      InformerOptions,
      | 'labelSelector'
      | 'dropStatus'
      | 'keepOfSpec'
      | 'dropValues'
      | 'keepUpdaters'
      | 'metadataOnly'
      | 'known'
      | 'stubOf'
    > = {},
  ): Informer<T> {
    const { apiVersion, kind, namespace } = target;
    const informer = new Informer<T>(this.api, {
      path: apiPath({ apiVersion, kind, namespace }),
      apiVersion,
      kind,
      logger: this.logger,
      // What anyone may fill is listed from a small first page, which grows while pages stay small.
      ...(options.stubOf === undefined ? {} : { firstPageSize: FIRST_PAGE }),
      ...options,
    });
    const resource = pluralOf(apiVersion, kind);
    this.watches.push({ cache: informer, resource, namespace, labelSelector: options.labelSelector });
    return informer;
  }
}
