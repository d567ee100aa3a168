// The status writer (status-writer.ts) every component writes a Tenant's status with: its own
// part, under its own field manager, only when the Tenant does not already say it. What the write
// returned goes to the component's Tenant cache, so the next reconcile reads at least that.
import { API_VERSION, KIND, type Tenant } from '../../api/tenant.js';
import type { KubeApi } from './api.js';
import { StatusWriter, type WriteObserver } from './status-writer.js';

export interface TenantStatusWriterOptions<S> {
  /** The component's field manager (api/tenant.ts FIELD_MANAGER). */
  fieldManager: string;
  /** True when the Tenant already says everything `next` would write. */
  current: (tenant: Tenant, next: S) => boolean;
}

export class TenantStatusWriter<S extends object> extends StatusWriter<Tenant, S> {
  constructor(api: KubeApi, cache: WriteObserver<Tenant>, options: TenantStatusWriterOptions<S>) {
    super(api, cache, { apiVersion: API_VERSION, kind: KIND, ...options });
  }
}
