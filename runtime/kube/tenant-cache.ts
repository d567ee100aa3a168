// The Tenants as one component knows them, the same way in every component: the watch's cache,
// overlaid with what the component's own writes did. An object a write returned is seen until the
// watch delivers that version or a newer one; a Tenant the component deleted is hidden until the
// watch reports the deletion. Without the overlay, a reconcile that follows its own write at once
// (the event of that very write, a row read again) would read the Tenant as it was before, and
// write again: the same status twice, a transition announced twice, a finished purge run again.
// Of each Tenant's managedFields every cache keeps one fact, shared by all Tenants: whether sync
// wrote its source-table stamp (api/table-identity.ts), which the operator and the purger trust.
import type { KubernetesObject } from '@kubernetes/client-node';
import { stampProof } from '../../api/table-identity.js';
import { API_VERSION, KIND, type Tenant } from '../../api/tenant.js';
import type { Logger } from '../logger.js';
import type { KubeApi } from './api.js';
import { Informer, lighten, type ObjectHandler, type Unread } from './informer.js';
import { apiPath } from './paths.js';
import type { WriteObserver } from './status-writer.js';
import { isNewer, sameVersion } from './resource-version.js';

export interface TenantCacheOptions {
  /**
   * What the cache leaves out of each Tenant, beyond managedFields (sync keeps no spec and only its
   * own part of the status); what the component's writes return is lightened the same way. The
   * proof of sync's stamp is kept whatever this says (keepingStampProof).
   */
  unread?: Unread;
  /**
   * The component creates Tenants (sync): one its write made, or read, is seen before the watch lists
   * it. Otherwise the Tenant must be in the watch's cache: one the watch no longer lists is gone,
   * whatever a status write returned just before.
   */
  seesUnlisted?: boolean;
}

export class TenantCache implements WriteObserver<Tenant> {
  /** Tenants as the component's writes returned them, until the watch delivers that version. */
  private readonly ownWrites = new Map<string, Tenant>();
  /** uids of Tenants the component deleted, by name, until the watch reports the deletion. */
  private readonly ownDeletions = new Map<string, string>();
  /** How the informer lightens what the watch delivers: the writes' copies are lightened alike. */
  private readonly unread: Unread;

  constructor(
    private readonly informer: Informer<Tenant>,
    private readonly options: TenantCacheOptions = {},
  ) {
    this.unread = keepingStampProof(options.unread);
    informer.on('add', (tenant) => this.observed(tenant));
    informer.on('update', (tenant) => this.observed(tenant));
    informer.on('delete', (tenant) => this.gone(tenant));
  }

  get(name: string): Tenant | undefined {
    const cached = this.informer.get(name);
    const own = this.ownWrites.get(name);
    if (own !== undefined) {
      const fresher = cached === undefined ? this.options.seesUnlisted === true : isNewer(own, cached);
      if (fresher) return own;
      this.ownWrites.delete(name);
    }
    if (cached !== undefined && this.ownDeletions.get(name) === cached.metadata.uid) return undefined;
    return cached;
  }

  /** Every Tenant the watch lists, as fresh as the component knows it; none it deleted. */
  list(): readonly Tenant[] {
    const listed = this.informer.list();
    if (this.ownWrites.size === 0 && this.ownDeletions.size === 0) return listed;
    return listed.map((tenant) => this.get(tenant.metadata.name ?? '')).filter((t) => t !== undefined);
  }

  /** A write (or a read) of the component returned this: fresher than the cache until the watch catches up. */
  wrote(tenant: Tenant): void {
    const name = tenant.metadata.name;
    if (name === undefined) return;
    this.ownDeletions.delete(name);
    // Its echo may have come first: then the cache already holds this version, lightened.
    if (sameVersion(this.informer.get(name) ?? {}, tenant)) {
      this.ownWrites.delete(name);
      return;
    }
    this.ownWrites.set(name, lighten(tenant, this.unread, this.get(name)));
  }

  /** What the component's write returned, when the watch brings that very version (its echo). */
  heldWrite(tenant: KubernetesObject): Tenant | undefined {
    const own = this.ownWrites.get(tenant.metadata?.name ?? '');
    return own !== undefined && sameVersion(own, tenant) ? own : undefined;
  }

  /** The component deleted the Tenant with this uid. */
  deleted(name: string, uid: string): void {
    this.ownWrites.delete(name);
    this.ownDeletions.set(name, uid);
  }

  on(verb: 'add' | 'update' | 'delete', handler: ObjectHandler<Tenant>): void {
    this.informer.on(verb, handler);
  }

  /** Resolves once the watch has listed every Tenant. */
  start(): Promise<void> {
    return this.informer.start();
  }

  stop(): Promise<void> {
    return this.informer.stop();
  }

  private observed(tenant: Tenant): void {
    const name = tenant.metadata.name ?? '';
    const own = this.ownWrites.get(name);
    if (own !== undefined && !isNewer(own, tenant)) this.ownWrites.delete(name);
  }

  private gone(tenant: Tenant): void {
    const name = tenant.metadata.name ?? '';
    this.ownWrites.delete(name);
    if (this.ownDeletions.get(name) === tenant.metadata.uid) this.ownDeletions.delete(name);
  }
}

/** What a Tenant cache leaves out, but for the proof that sync wrote the source-table stamp. */
function keepingStampProof(unread: Unread = {}): Unread {
  return { ...unread, keepOfManagedFields: stampProof };
}

export interface TenantWatchOptions extends TenantCacheOptions {
  logger: Logger;
  /** Tell handlers whether an update changed only the status (InformerOptions.markStatusOnly). */
  markStatusOnly?: boolean;
  /** The watch reconnected after failing (InformerOptions.onRecovered). */
  onRecovered?: () => void;
}

/** A cache of every Tenant, watched through a runtime informer; start() lists them. */
export function watchTenants(api: KubeApi, options: TenantWatchOptions): TenantCache {
  const { logger, markStatusOnly, onRecovered, unread } = options;
  const informer = new Informer<Tenant>(api, {
    path: apiPath({ apiVersion: API_VERSION, kind: KIND }),
    apiVersion: API_VERSION,
    kind: KIND,
    logger,
    markStatusOnly,
    onRecovered,
    // The echo of the component's own write is cached as the copy that write returned. No event
    // comes before start(), so the cache below exists by then.
    known: (tenant) => cache.heldWrite(tenant),
    ...keepingStampProof(unread),
  });
  const cache: TenantCache = new TenantCache(informer, options);
  return cache;
}
