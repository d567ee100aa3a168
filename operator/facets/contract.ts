// The contract every tenant feature of the operator implements (docs/adr/0010-facets.md). A facet
// is one feature's part of a tenant: the kinds of child it makes, when they are applied, and two
// pure steps from the tenant, its class and the operator's view of the cluster to those children.
// The desired-state engine (engine.ts) walks the ordered list (list.ts) for a reconcile, for
// `landlord plan` and for `landlord validate`, so none of them can decide differently; the
// reconciler asks each facet for its condition once the children are applied, and writes status
// once. A new feature is a folder with a facet and a line in the list, never a new field here.
import type { KubernetesObject } from '@kubernetes/client-node';
import type { ConditionInput } from '../../api/conditions.js';
import type { KubeApi } from '../../runtime/kube/api.js';
import type { Unread } from '../../runtime/kube/informer.js';
import type { Tenant, TenantState, TenantStatus } from '../../api/tenant.js';
import type { ClassPolicy, TenantClass } from '../../api/tenantclass.js';
import type { ChildKind, ChildRef } from '../child-ref.js';
import type { DesiredChild } from '../desired.js';
import type { Neighbours, PolicyConfig, Refusal } from '../policy/index.js';
import type { TemplateUpgrades } from '../rollout-budget.js';

/** What the operator knows beyond the one Tenant, which `landlord validate` (offline) does not. */
export interface ClusterView {
  /** The other Tenants' Deployments. */
  neighbours?: Neighbours;
  /** The leader's upgrade budget (rollout-budget.ts); absent (plan, validate): the newest revision. */
  templateUpgrades?: TemplateUpgrades;
  /**
   * What a facet's own index (Facet.watches) holds of the objects it watches, read by the facet
   * itself (`cluster.of(secretsFacet)`); undefined where nothing is watched (`landlord validate`).
   */
  of<V>(facet: Facet<unknown, V>): V | undefined;
}

/** What every facet is given: one Tenant under its resolved class, placed, in the state it asks for. */
export interface FacetInput {
  readonly tenant: Tenant;
  /** The operator's policy with the Tenant's class (and, for "{id}" classes, its namespace id). */
  readonly policy: PolicyConfig;
  readonly state: TenantState;
  /** PerTenant: the tenant's own namespace, where every child goes; Shared: undefined. */
  readonly namespace: string | undefined;
  readonly cluster: ClusterView;
}

type Decided<D> = { ok: true; decision: D } | { ok: false; refusal: Refusal };

type Made =
  | {
      ok: true;
      /** To apply, in the order they are announced; each is written only when it differs. */
      children: readonly DesiredChild[];
      /** Children kept as they are, neither applied nor pruned (a copy whose source went missing). */
      retained?: readonly ChildRef[];
    }
  | { ok: false; refusal: Refusal };

/** What every facet is given to say what a warm pool member of a class holds: no tenant yet. */
export interface MemberInput {
  /** The operator's policy with the pooled class. */
  readonly policy: PolicyConfig;
  readonly cluster: ClusterView;
}

/** One object of a warm pool member, in namespace '' until a member's name is chosen. */
export interface MemberObject {
  ref: ChildRef;
  manifest: KubernetesObject;
}

type MemberMade = { ok: true; objects: readonly MemberObject[] } | { ok: false; refusal: Refusal };

/** The decisions of every facet of a reconcile, for a facet whose children follow another's. */
export interface Decisions {
  of<D>(facet: Facet<D>): D | undefined;
}

/** The freshest copy of a child the reconcile applied: the apply's response, else the cache's. */
export type ReadChild = (ref: ChildRef) => KubernetesObject | undefined;

/**
 * What a facet's `act` may reach beyond the tenant: the children as the caches hold them, and the
 * API for reads in the operator's own namespace (a database server's admin Secret).
 */
export interface Effects {
  read: ReadChild;
  api: KubeApi;
  /** The operator's own namespace. */
  namespace: string;
}

/**
 * What `act` did: the decision as its effects left it (for `condition`), the children they made,
 * and, when one failed in a way that may pass, why the tenant should be looked at again soon.
 */
export interface Acted<D> {
  decision: D;
  children: readonly DesiredChild[];
  retry?: { reason: string; message: string };
}

/** The fields of status a facet may fill, besides its condition. */
export type FacetStatus = Pick<TenantStatus, 'url'>;

/** One kind of child a facet makes, and how the operator watches and applies it. */
export interface FacetKind {
  kind: ChildKind;
  /**
   * Applying goes wave by wave, each at once: 0 is the tenant's Namespace, 1 what lives in it
   * beside the workload, 2 the workload, which waits until the tenant's quota is enforced.
   */
  wave: 0 | 1 | 2;
  /**
   * `tenantNamespaces`: watched in each namespace the operator manages (a Shared class puts these
   * there); `cluster`: watched cluster-wide, as the kinds only a PerTenant namespace holds.
   */
  scope: 'tenantNamespaces' | 'cluster';
  /** Watched and applied only where the cluster serves it (the Gateway API, ESO); absent: always. */
  needs?: keyof ServedApis;
  /**
   * What of its status the operator reads, and so caches: `whole`, or the part a function keeps
   * (a Deployment's rollout, whether a quota is enforced yet); absent: none (a namespace's phase).
   */
  readsStatus?: 'whole' | ((status: unknown) => unknown);
  /**
   * false: its values are never read, cached or kept (a Secret copy, cached by metadata alone; the
   * hash annotation says which source version it holds). Absent: read.
   */
  readsValues?: false;
}

/**
 * A kind a facet watches that is none of its children: the sources it copies from, the routes
 * landlord did not make. The operator watches it for the facet's index, and `landlord plan` lists it
 * in the same scope and shape, so both build that index alike.
 */
export interface FacetWatch {
  apiVersion: string;
  kind: string;
  /** `cluster`: cluster-wide; else the namespaces the operator's policy names (the secret sources). */
  scope: 'cluster' | ((policy: PolicyConfig) => readonly string[]);
  /** Watched only where the cluster serves it; absent: always. */
  needs?: keyof ServedApis;
  /** What its cache leaves out (a route's status, all of its spec but its hosts); absent: nothing. */
  unread?: Pick<Unread, 'dropStatus' | 'keepOfSpec'>;
  /**
   * What its cache keeps instead, when anyone may make such an object (foreign-objects.ts): a route
   * a tenant team made is a stub and its hosts, whatever it carries. `landlord plan` reads the
   * lightened copy (`unread`), which holds the same fields the index reads.
   */
  stubOf?: (object: KubernetesObject) => KubernetesObject | undefined;
}

/** Whom an event of a watched object concerns. */
export interface Wakes {
  /** The Tenants to look at again; asked only on the Lease holder (it may walk every Tenant). */
  tenants(): readonly string[];
  /** Queued at the class-rollout rate, as a class change is: one change may concern thousands. */
  paced?: boolean;
  /** The warm pools look again too: their members hold something made from it. */
  pool?: boolean;
}

/** What a facet's index may read: the Tenants, the classes, and the objects its watches cache. */
export interface IndexContext {
  tenants(): readonly Tenant[];
  classes(): readonly TenantClass[];
  /** The class of a Tenant when no TenantClass is the default; undefined: it waits (NoDefaultClass). */
  builtInClass: ClassPolicy | undefined;
  /** One of its watched objects as its cache (or plan's listing) holds it: never a copy. */
  read(kind: string, namespace: string, name: string): KubernetesObject | undefined;
  apis: ServedApis;
}

/**
 * A facet's slice of the cluster view, kept current one event at a time by the operator's watches
 * and filled from a listing by `landlord plan`. The Tenant and class hooks return the other Tenants
 * whose decision the change may move (the rivals over a host).
 */
export interface FacetIndex<V> {
  /** What `cluster.of(facet)` returns. */
  readonly view: V;
  /** One of its watched objects appeared, changed or went (as its cache keeps it). */
  changed(kind: string, object: KubernetesObject, deleted: boolean): Wakes;
  tenantChanged?(tenant: Tenant): string[];
  tenantGone?(tenant: string): string[];
  classesChanged?(tenants: readonly Tenant[]): string[];
}

/** The optional APIs the operator found served at start-up. */
export interface ServedApis {
  gatewayApi: boolean;
  externalSecrets: boolean;
}

export interface Facet<D = unknown, V = unknown> {
  /** Names it in logs and docs. */
  readonly name: string;
  readonly kinds: readonly FacetKind[];
  /** The kinds it watches beyond its children, and the index it keeps of them (`cluster.of`). */
  readonly watches?: {
    readonly kinds: readonly FacetWatch[];
    index(context: IndexContext): FacetIndex<V>;
  };
  /** The condition type `report` fills, kept as it is while a reconcile looks at nothing. */
  readonly conditionType?: string;
  /**
   * What the class and the cluster allow this tenant, before any child is made: a refusal here
   * (a class that cannot be carried out, a host held by another) applies nothing of the tenant's.
   */
  decide(input: FacetInput): Decided<D>;
  /** Its children in the tenant's state; `decisions` holds every facet's decision of this reconcile. */
  children(input: FacetInput, decision: D, decisions: Decisions): Made;
  /**
   * What a warm pool member of the class holds of this facet's children before a tenant claims it:
   * the part that names no tenant, made by the same rules as a tenant's, so a claim that asks for
   * the same finds it already there. Absent: nothing (it comes with the claim).
   */
  member?(input: MemberInput): MemberMade;
  /**
   * Side effects outside Kubernetes that its children need first (a tenant's database on a platform
   * server), run by the reconcile only (never by plan or validate), after every facet decided and
   * before converging. It should cost nothing when nothing changed: what it made before is proven
   * by a child the caches hold. A failure is reported in the decision it returns, never thrown.
   */
  act?(decision: D, input: FacetInput, effects: Effects): Promise<Acted<D>>;
  /** The status fields its decision fills (where the tenant is reached), known before applying. */
  status?(decision: D): FacetStatus;
  /** Its own condition, read after the children were applied; undefined: none to report. */
  condition?(decision: D, read: ReadChild): ConditionInput | undefined;
}
