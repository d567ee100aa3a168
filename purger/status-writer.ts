// The one place the purger writes Tenant status: status.purge and the Purged condition, by
// server-side apply on the status subresource under the purger's own field manager, so the
// operator's and sync's conditions are never touched (and theirs never touch this).
import { BUILT_BODY, CONTENT_TYPE, type KubeApi } from '../runtime/kube/api.js';
import { apiPath } from '../runtime/kube/paths.js';
import { API_VERSION, FIELD_MANAGER, KIND, type Tenant } from '../api/tenant.js';
import { statusCurrent, type PurgerStatus } from './status.js';

export class StatusWriter {
  constructor(
    private readonly api: KubeApi,
    /** Told of every Tenant a write returned, so the next reconcile reads at least that. */
    private readonly written: (tenant: Tenant) => void,
  ) {}

  /** Writes unless the Tenant already says it; returns whether it wrote. */
  async write(tenant: Tenant, next: PurgerStatus): Promise<boolean> {
    if (statusCurrent(tenant, next)) return false;
    await this.apply(tenant.metadata.name!, next);
    return true;
  }

  /** Writes whatever the cache says: progress moves faster than the cache follows. */
  async apply(name: string, next: PurgerStatus): Promise<void> {
    const tenant = await this.api.request<Tenant>({
      method: 'PATCH',
      path: apiPath({ apiVersion: API_VERSION, kind: KIND, name, subresource: 'status' }),
      query: { ...BUILT_BODY, fieldManager: FIELD_MANAGER.purger, force: true },
      contentType: CONTENT_TYPE.apply,
      body: { apiVersion: API_VERSION, kind: KIND, metadata: { name }, status: next },
      verb: 'apply',
    });
    this.written(tenant);
  }
}
