// The four writes sync makes to Tenants. The spec and the status go by server-side apply under
// sync's field manager, each claiming only sync's own fields: the operator's conditions and
// observedGeneration live in other managers' entries and are never touched. Deletes carry a uid
// precondition so that a Tenant recreated meanwhile is never the one deleted.
import { CONTENT_TYPE, type KubeApi } from '../runtime/kube/api.js';
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
import type { OwnedStatus } from './status.js';

const tenantObjectPath = (name: string): string => apiPath({ apiVersion: API_VERSION, kind: KIND, name });

/**
 * The spec sync applies for a row: configMaps always a list, so the Tenant never lacks one, and the
 * state always said, as the CRD's default would say it.
 */
export function appliedSpec(spec: TenantSpec): TenantSpec {
  return {
    deployment: spec.deployment,
    configMaps: spec.configMaps ?? [],
    state: spec.state ?? DEFAULT_STATE,
  };
}

export class TenantWriter {
  constructor(
    private readonly api: KubeApi,
    private readonly identity: TableIdentity,
    private readonly metrics: Metrics,
  ) {}

  /**
   * Applies labels, annotations and the spec of the row with this hash. Server-side apply makes sync
   * the owner of just the keys it sends, so labels and annotations set by others (a person's
   * `landlord.dev/paused`) stay as they are.
   */
  async apply(name: string, spec: TenantSpec, hash: string): Promise<Tenant> {
    const body = {
      apiVersion: API_VERSION,
      kind: KIND,
      metadata: {
        name,
        labels: ownedLabels(this.identity),
        annotations: ownedAnnotations(this.identity, hash),
      },
      spec: appliedSpec(spec),
    };
    const tenant = await this.api.request<Tenant>({
      method: 'PATCH',
      path: tenantObjectPath(name),
      query: { fieldManager: FIELD_MANAGER.sync, force: true },
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
    const body = {
      apiVersion: API_VERSION,
      kind: KIND,
      metadata: { name, labels: ownedLabels(this.identity), annotations: ownedAnnotations(this.identity) },
    };
    const tenant = await this.api.request<Tenant>({
      method: 'POST',
      path: apiPath({ apiVersion: API_VERSION, kind: KIND }),
      query: { fieldManager: FIELD_MANAGER.sync },
      body,
    });
    this.metrics.syncWritesTotal.inc({ kind: 'create' });
    return tenant;
  }

  /** Applies the Synced condition and status.sync; the status subresource ignores metadata and spec. */
  async applyStatus(name: string, status: OwnedStatus): Promise<Tenant> {
    const tenant = await this.api.request<Tenant>({
      method: 'PATCH',
      path: `${tenantObjectPath(name)}/status`,
      // Forcing only ever takes fields sync claims here (its own condition and status.sync).
      query: { fieldManager: FIELD_MANAGER.sync, force: true },
      contentType: CONTENT_TYPE.apply,
      body: { apiVersion: API_VERSION, kind: KIND, metadata: { name }, status },
      verb: 'apply',
    });
    this.metrics.syncWritesTotal.inc({ kind: 'status' });
    return tenant;
  }

  /** Deletes the Tenant with this uid; the garbage collector removes its children. */
  async delete(name: string, uid: string): Promise<void> {
    await this.api.request({
      method: 'DELETE',
      path: tenantObjectPath(name),
      body: {
        apiVersion: 'v1',
        kind: 'DeleteOptions',
        propagationPolicy: 'Background',
        preconditions: { uid },
      },
    });
    this.metrics.syncWritesTotal.inc({ kind: 'delete' });
  }
}
