// The one way every component writes a Tenant's status: server-side apply on the status subresource
// of its own part, under its own field manager (so no component touches another's conditions),
// and only when the Tenant does not already say it: the steady state costs no write. Whether it
// does is each component's own pure comparison. What the write returned goes to the component's
// Tenant cache, so the next reconcile reads at least that.
import { API_VERSION, KIND, type Tenant } from '../../api/tenant.js';
import { BUILT_BODY, CONTENT_TYPE, type KubeApi } from './api.js';
import { apiPath } from './paths.js';
import type { WriteObserver } from './tenant-cache.js';

export interface TenantStatusWriterOptions<S> {
  /** The component's field manager (api/tenant.ts FIELD_MANAGER). */
  fieldManager: string;
  /** True when the Tenant already says everything `next` would write. */
  current: (tenant: Tenant, next: S) => boolean;
}

export class TenantStatusWriter<S extends object> {
  constructor(
    private readonly api: KubeApi,
    private readonly cache: WriteObserver,
    private readonly options: TenantStatusWriterOptions<S>,
  ) {}

  /** Writes unless the Tenant already says it; returns the Tenant as written, or undefined. */
  async write(tenant: Tenant, next: S): Promise<Tenant | undefined> {
    if (this.options.current(tenant, next)) return undefined;
    return this.apply(tenant.metadata.name!, next);
  }

  /**
   * Writes whatever the cache says: for a status that moves faster than the cache follows (a
   * purge's progress). Forcing only ever takes the fields this manager sends.
   */
  async apply(name: string, next: S): Promise<Tenant> {
    const tenant = await this.api.request<Tenant>({
      method: 'PATCH',
      path: apiPath({ apiVersion: API_VERSION, kind: KIND, name, subresource: 'status' }),
      query: { ...BUILT_BODY, fieldManager: this.options.fieldManager, force: true },
      contentType: CONTENT_TYPE.apply,
      body: { apiVersion: API_VERSION, kind: KIND, metadata: { name }, status: next },
      verb: 'apply',
    });
    this.cache.wrote(tenant);
    return tenant;
  }
}
