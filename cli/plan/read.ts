// What `landlord plan` reads: every row of the table (one strongly consistent scan, as sync's
// resync does), every Tenant (as sync's cache holds them: this table's and others', so a row naming
// another's shows as a conflict), the children labelled for a tenant, and what each facet watches
// beyond its children, where and as the operator's watches cache it (every Ingress and HTTPRoute:
// a route landlord did not make holds its hosts; the source Secrets classes copy from).
// Reads only: the API client it is given refuses any other method before it reaches the network.
import type { KubernetesObject } from '@kubernetes/client-node';
import { stampProof } from '../../api/table-identity.js';
import { API_VERSION, KIND, LABEL, type Tenant } from '../../api/tenant.js';
import { CLASS_API_VERSION, CLASS_KIND, type TenantClass } from '../../api/tenantclass.js';
import {
  CHILD_API_VERSION,
  childKey,
  childRef,
  type ChildKind,
  type ChildRef,
} from '../../operator/child-ref.js';
import type { WatchedObject } from '../../operator/cluster-indexes.js';
import type { ServedApis } from '../../operator/facets/contract.js';
import { servedKinds, servedWatches, watchNamespaces, type WatchOf } from '../../operator/facets/kinds.js';
import type { PolicyConfig } from '../../operator/policy/index.js';
import type { ChildReader } from '../../operator/preview.js';
import { ApiError, isNotFound, KubeApi, type ApiRequest } from '../../runtime/kube/api.js';
import { lighten } from '../../runtime/kube/informer.js';
import { listAll } from '../../runtime/kube/list.js';
import { apiPath } from '../../runtime/kube/paths.js';
import type { TableSource } from '../../sync/index.js';
import type { NamedRow } from '../../sync/ledger.js';
import { placedHere, type Placement } from '../../sync/placement.js';
import { readRow, type RowProblem } from '../../sync/row/index.js';

/** A KubeApi that only reads: a plan that tried to write would be a bug, stopped here. */
export class ReadOnlyKubeApi extends KubeApi {
  override request<T>(req: ApiRequest): Promise<T> {
    if (req.method !== 'GET') {
      return Promise.reject(
        new Error(`landlord plan only reads, but was about to ${req.method} ${req.path}`),
      );
    }
    return super.request<T>(req);
  }
}

export interface TableRows {
  rows: NamedRow[];
  /** Rows whose name cannot name a Tenant: sync skips them, so they appear in no Tenant. */
  unnamed: RowProblem[];
}

/** This cluster's rows; another cluster's are skipped, as sync skips them. */
export async function readRows(
  source: TableSource,
  placement: Placement,
  signal: AbortSignal,
): Promise<TableRows> {
  const rows: NamedRow[] = [];
  const unnamed: RowProblem[] = [];
  for await (const page of source.scan(signal)) {
    for (const item of page.filter((row) => placedHere(row, placement))) {
      const parsed = readRow(item);
      if (parsed.name !== undefined) rows.push(parsed as NamedRow);
      else if (parsed.kind === 'invalid') unnamed.push(parsed.problem);
    }
  }
  return { rows, unnamed };
}

export function readTenants(api: KubeApi): Promise<Tenant[]> {
  const path = apiPath({ apiVersion: API_VERSION, kind: KIND });
  // Whether sync wrote each one's source-table stamp, as the operator's cache keeps it.
  const options = { path, apiVersion: API_VERSION, kind: KIND, keepOfManagedFields: stampProof };
  return listAll<Tenant>(api, options).then((list) => list.items);
}

/**
 * The children as the operator's caches see them (every Deployment and ConfigMap labelled for a
 * tenant, and the TenantClasses), and a GET for any other one a plan asks about, as the operator's
 * converger does; with what the facets watch beyond their children, which the operator's cluster
 * view is made from.
 */
const PLANNED_KINDS = servedKinds({ gatewayApi: true, externalSecrets: false });

/** The APIs a plan reads as served: no ExternalSecret (their entries read as ExternalSecretsNotInstalled). */
export const planApis = (gatewayApi: boolean): ServedApis => ({ gatewayApi, externalSecrets: false });

export class ListedChildren implements ChildReader {
  private readonly byKey = new Map<string, KubernetesObject | undefined>();
  private readonly byTenant = new Map<string, ChildRef[]>();
  classes: readonly TenantClass[] = [];
  /** What the facets watch beyond their children (source Secrets: held in memory, never printed). */
  readonly watched: WatchedObject[] = [];

  private constructor(private readonly api: KubeApi) {}

  /**
   * `scopes`: the namespaces the operator watches (undefined: the whole cluster); `policy`: the
   * operator's, whose settings place what facets watch (the secret source namespaces) and whose
   * `gatewayApi` says whether the cluster serves HTTPRoutes.
   */
  static async read(
    api: KubeApi,
    scopes: readonly (string | undefined)[],
    policy: PolicyConfig,
  ): Promise<ListedChildren> {
    const children = new ListedChildren(api);
    await children.readChildren(scopes);
    for (const watchOf of servedWatches(planApis(policy.gatewayApi ?? false))) {
      await children.readWatched(watchOf, policy);
    }
    const classes = { apiVersion: CLASS_API_VERSION, kind: CLASS_KIND };
    children.classes = (await listAll<TenantClass>(api, { ...classes, path: apiPath(classes) })).items;
    return children;
  }

  /** One kind a facet watches, where its watch looks, shaped as its cache keeps it. */
  private async readWatched({ facet, watch }: WatchOf, policy: PolicyConfig): Promise<void> {
    const { apiVersion, kind } = watch;
    for (const namespace of watchNamespaces(watch, policy)) {
      const path = apiPath({ apiVersion, kind, namespace });
      for (const object of (await listAll(this.api, { path, apiVersion, kind })).items)
        this.watched.push({ facet, kind, object: lighten(object, watch.unread) });
    }
  }

  private async readChildren(scopes: readonly (string | undefined)[]): Promise<void> {
    // As the operator watches them: the kinds a PerTenant namespace holds cluster-wide, since such a
    // namespace comes with its Tenant. HTTPRoutes where the cluster serves them; no ExternalSecret.
    const kinds = PLANNED_KINDS.map(({ kind, scope }) => ({
      kind,
      scopes: scope === 'tenantNamespaces' ? scopes : [undefined],
    }));
    for (const { kind, scopes } of kinds) {
      for (const namespace of scopes) {
        for (const object of await labelled(this.api, kind, namespace)) this.add(kind, object);
      }
    }
  }

  labelledFor(tenant: string): ChildRef[] {
    return this.byTenant.get(tenant) ?? [];
  }

  async get(ref: ChildRef): Promise<KubernetesObject | undefined> {
    const key = childKey(ref);
    if (this.byKey.has(key)) return this.byKey.get(key);
    const object = await this.fetch(ref);
    this.byKey.set(key, object);
    return object;
  }

  private add(kind: ChildKind, object: KubernetesObject): void {
    const { namespace = '', name = '', labels = {} } = object.metadata ?? {};
    const ref = childRef(kind, namespace, name);
    this.byKey.set(childKey(ref), object);
    const tenant = labels[LABEL.tenant] ?? '';
    const refs = this.byTenant.get(tenant);
    if (refs === undefined) this.byTenant.set(tenant, [ref]);
    else refs.push(ref);
  }

  private async fetch(ref: ChildRef): Promise<KubernetesObject | undefined> {
    try {
      return await this.api.request<KubernetesObject>({ method: 'GET', path: apiPath(ref) });
    } catch (err) {
      // A namespace that does not exist yet holds no child either.
      if (isNotFound(err)) return undefined;
      if (err instanceof ApiError && err.status === 403) {
        throw new Error(`reading ${ref.kind} ${ref.namespace}/${ref.name}: forbidden (${err.message})`, {
          cause: err,
        });
      }
      throw err;
    }
  }
}

/** The objects of one kind labelled for a Tenant; none of a kind the cluster does not serve (HTTPRoute). */
async function labelled(
  api: KubeApi,
  kind: ChildKind,
  namespace: string | undefined,
): Promise<KubernetesObject[]> {
  const apiVersion = CHILD_API_VERSION[kind];
  const path = apiPath({ apiVersion, kind, namespace });
  try {
    return (await listAll(api, { path, apiVersion, kind, labelSelector: LABEL.tenant })).items;
  } catch (err) {
    if (kind === 'HTTPRoute' && isNotFound(err)) return [];
    throw err;
  }
}
