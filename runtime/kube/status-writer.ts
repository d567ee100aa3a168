// The one way every component writes the status of a cluster-scoped landlord resource (a Tenant, a
// TenantClass): server-side apply on the status subresource of its own part, under its own field
// manager (so no writer touches another's fields), and only when the object does not already say
// it: the steady state costs no write. Whether it does is each writer's own pure comparison. What
// the write returned goes to the writer's cache, when it has one, so the next decision reads at
// least that.
import type { KubernetesObject } from '@kubernetes/client-node';
import { BUILT_BODY, CONTENT_TYPE, type KubeApi } from './api.js';
import { apiPath } from './paths.js';

/** Where a status writer reports what its write returned. */
export interface WriteObserver<O> {
  wrote(object: O): void;
}

export interface StatusWriterOptions<O, S> {
  /** The resource whose status is written (cluster-scoped). */
  apiVersion: string;
  kind: string;
  /** The writer's field manager (api/tenant.ts FIELD_MANAGER). */
  fieldManager: string;
  /** True when the object already says everything `next` would write. */
  current: (object: O, next: S) => boolean;
}

export class StatusWriter<O extends KubernetesObject, S extends object> {
  constructor(
    private readonly api: KubeApi,
    private readonly cache: WriteObserver<O> | undefined,
    private readonly options: StatusWriterOptions<O, S>,
  ) {}

  /** Writes unless the object already says it; returns the object as written, or undefined. */
  async write(object: O, next: S): Promise<O | undefined> {
    if (this.options.current(object, next)) return undefined;
    return this.apply(object.metadata!.name!, next);
  }

  /**
   * Writes whatever the cache says: for a status that moves faster than the cache follows (a
   * purge's progress). Forcing only ever takes the fields this manager sends; a field it stops
   * sending is removed, as long as no other manager holds it too.
   */
  async apply(name: string, next: S): Promise<O> {
    const { apiVersion, kind, fieldManager } = this.options;
    const written = await this.api.request<O>({
      method: 'PATCH',
      path: apiPath({ apiVersion, kind, name, subresource: 'status' }),
      query: { ...BUILT_BODY, fieldManager, force: true },
      contentType: CONTENT_TYPE.apply,
      body: { apiVersion, kind, metadata: { name }, status: next },
      verb: 'apply',
    });
    this.cache?.wrote(written);
    return written;
  }
}
