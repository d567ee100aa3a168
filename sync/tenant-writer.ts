// The writes sync makes to Tenant objects (its status writes go through the runtime's one Tenant
// status writer). A Tenant sync does not know of is made by POST, so one someone else made meanwhile
// is refused (409) instead of taken over, and the API server spends less on it than on an apply that
// creates. After that the spec goes by server-side apply under sync's field manager, claiming only
// sync's own fields: the operator's conditions and observedGeneration live in other managers'
// entries and are never touched. The create's fields are handed to sync's Apply entry before its
// first apply (runtime/kube/field-ownership.ts), so that a field the row drops is removed. An apply
// to a Tenant sync made names its uid, and a delete carries uid and resourceVersion preconditions,
// so a Tenant replaced meanwhile (by anyone) is neither written nor deleted.
import { ApiError, BUILT_BODY, CONTENT_TYPE, type KubeApi } from '../runtime/kube/api.js';
import { handOverCreatedFields, ownsByUpdate } from '../runtime/kube/field-ownership.js';
import { apiPath } from '../runtime/kube/paths.js';
import type { Metrics } from '../runtime/metrics.js';
import {
  API_VERSION,
  DEFAULT_STATE,
  FIELD_MANAGER,
  KIND,
  type Tenant,
  type TenantSpec,
} from '../api/tenant.js';
import { ownedAnnotations, ownedLabels, type TableIdentity } from './identity.js';

const tenantObjectPath = (name: string): string => apiPath({ apiVersion: API_VERSION, kind: KIND, name });

/**
 * The spec sync applies for a row: configMaps always a list, so the Tenant never lacks one, the
 * state always said, as the CRD's default would say it, and the class when the row names one (an
 * apply without it removes the one sync set before, so the Tenant goes back to the default).
 */
export function appliedSpec(spec: TenantSpec): TenantSpec {
  // A row of several Deployments sends deployments and no deployment: the apply then drops the
  // one sync set before, so exactly one of the two is ever set.
  const workload =
    spec.deployments === undefined ? { deployment: spec.deployment } : { deployments: spec.deployments };
  return {
    ...workload,
    configMaps: spec.configMaps ?? [],
    state: spec.state ?? DEFAULT_STATE,
    ...(spec.class === undefined ? {} : { class: spec.class }),
    ...(spec.hosts === undefined ? {} : { hosts: spec.hosts }),
  };
}

export class TenantWriter {
  constructor(
    private readonly api: KubeApi,
    private readonly identity: TableIdentity,
    private readonly metrics: Metrics,
  ) {}

  /** The Tenant sync makes for a row: its marks and the spec, all in one object, written at once. */
  private tenantBody(name: string, spec: TenantSpec | undefined, hash: string | undefined): Tenant {
    return {
      apiVersion: API_VERSION,
      kind: KIND,
      metadata: {
        name,
        labels: ownedLabels(this.identity),
        annotations: ownedAnnotations(this.identity, hash),
      },
      ...(spec === undefined ? {} : { spec: appliedSpec(spec) }),
    };
  }

  /**
   * Makes the Tenant of a row with this hash: labels, annotations and spec in one request, so it is
   * recognisably sync's from its first moment. A create, so that a Tenant someone else made
   * meanwhile answers 409 (read it, and decide again) instead of being written to.
   */
  async create(name: string, spec: TenantSpec, hash: string): Promise<Tenant> {
    return this.post(this.tenantBody(name, spec, hash));
  }

  /**
   * Applies labels, annotations and the spec of the row with this hash to this Tenant, one sync
   * made (as cached). Server-side apply makes sync the owner of just the keys it sends, so labels
   * and annotations set by others (a person's `landlord.dev/paused`) stay as they are. The uid makes
   * the apply fail on any other object of that name, and never create one.
   */
  async apply(name: string, spec: TenantSpec, hash: string, cached: Tenant): Promise<Tenant> {
    const uid = cached.metadata.uid;
    if (ownsByUpdate(cached, FIELD_MANAGER.sync)) {
      await handOverCreatedFields(this.api, tenantObjectPath(name), FIELD_MANAGER.sync, uid);
    }
    const body = this.tenantBody(name, spec, hash);
    body.metadata.uid = uid;
    try {
      return await this.applySpec(body);
    } catch (err) {
      // Another object of that name: the API server refuses to change its uid. Not the row's fault.
      if (err instanceof ApiError && err.status === 422 && err.message.includes('metadata.uid'))
        throw new Error(`Tenant ${name} was replaced since sync read it; not applying to it`, { cause: err });
      throw err;
    }
  }

  private async applySpec(body: Tenant): Promise<Tenant> {
    const tenant = await this.api.request<Tenant>({
      method: 'PATCH',
      path: tenantObjectPath(body.metadata.name ?? ''),
      query: { ...BUILT_BODY, fieldManager: FIELD_MANAGER.sync, force: true },
      contentType: CONTENT_TYPE.apply,
      body,
      verb: 'apply',
    });
    this.metrics.syncWritesTotal.inc({ kind: 'apply' });
    return tenant;
  }

  /**
   * Creates a Tenant without a spec, for a row refused before any valid version was read, so that
   * `kubectl get tenants` shows the refusal. A create, not an apply: an apply without the spec
   * would remove a spec this manager applied before, taking a running tenant down.
   */
  async createBare(name: string): Promise<Tenant> {
    return this.post(this.tenantBody(name, undefined, undefined));
  }

  private async post(body: Tenant): Promise<Tenant> {
    const tenant = await this.api.request<Tenant>({
      method: 'POST',
      path: apiPath({ apiVersion: API_VERSION, kind: KIND }),
      query: { fieldManager: FIELD_MANAGER.sync },
      body,
    });
    this.metrics.syncWritesTotal.inc({ kind: 'create' });
    return tenant;
  }

  /**
   * Deletes exactly this Tenant, as read: its uid and resourceVersion are preconditions, so one
   * replaced or changed (relabelled) since is not deleted (409). The garbage collector removes its children.
   */
  async delete(tenant: Tenant): Promise<void> {
    const { name = '', uid, resourceVersion } = tenant.metadata;
    await this.api.request({
      method: 'DELETE',
      path: tenantObjectPath(name),
      body: {
        apiVersion: 'v1',
        kind: 'DeleteOptions',
        propagationPolicy: 'Background',
        preconditions: { uid, resourceVersion },
      },
    });
    this.metrics.syncWritesTotal.inc({ kind: 'delete' });
  }
}
