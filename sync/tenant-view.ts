// Every Tenant, as fresh as sync knows them: its own and others' (identity.ts says whose is whose).
// The informer's cache, overlaid with the objects sync's own writes returned until the watch catches
// up with them. Without the overlay a row read again within the watch's delay would look unwritten
// and be written twice.
import { lighten, type Informer, type Unread } from '../runtime/kube/informer.js';
import { isNewer } from '../runtime/kube/resource-version.js';
import { CONDITION, type Tenant, type TenantStatus } from '../api/tenant.js';

/**
 * sync decides from a Tenant's metadata (row-hash annotation, table labels, generation) and its own
 * part of the status; the spec it writes comes from the row, never from a Tenant. The cache and the
 * overlay keep no spec (at 10,000 Tenants the specs were most of sync's heap), nor the operator's
 * conditions (~0.6 KB per Tenant).
 */
export const UNREAD: Unread = { dropSpec: true, keepOfStatus: syncsPart };

/** The Synced condition and status.sync (status.ts): all sync reads of a Tenant's status. */
function syncsPart(status: unknown): unknown {
  if (typeof status !== 'object' || status === null) return status;
  const { conditions, sync } = status as TenantStatus;
  const part: TenantStatus = {};
  const synced = conditions?.filter((c) => c.type === CONDITION.synced);
  if (synced !== undefined) part.conditions = synced;
  if (sync !== undefined) part.sync = sync;
  return part;
}

export class TenantView {
  /** Objects returned by sync's writes that the cache may not hold yet. */
  private readonly written = new Map<string, Tenant>();
  /** uids sync deleted: the cache keeps them until the watch reports the deletion. */
  private readonly deleted = new Map<string, string>();

  constructor(private readonly informer: Informer<Tenant>) {
    informer.on('add', (tenant) => this.observed(tenant));
    informer.on('update', (tenant) => this.observed(tenant));
    informer.on('delete', (tenant) => this.gone(tenant));
  }

  get(name: string): Tenant | undefined {
    const cached = this.informer.get(name);
    const written = this.written.get(name);
    if (written !== undefined && (cached === undefined || isNewer(written, cached))) return written;
    if (cached !== undefined && this.deleted.get(name) === cached.metadata.uid) return undefined;
    return cached;
  }

  /** Every Tenant not known to be deleted; callers keep only those this sync owns. */
  list(): Tenant[] {
    return this.informer
      .list()
      .map((tenant) => this.get(tenant.metadata.name ?? ''))
      .filter((tenant) => tenant !== undefined);
  }

  /** The object a write returned. */
  remember(tenant: Tenant): void {
    const name = tenant.metadata.name;
    if (name === undefined) return;
    this.written.set(name, lighten(tenant, UNREAD, this.get(name)));
    this.deleted.delete(name);
  }

  /** sync deleted this Tenant. */
  forget(name: string, uid: string): void {
    this.written.delete(name);
    this.deleted.set(name, uid);
  }

  private observed(tenant: Tenant): void {
    const name = tenant.metadata.name ?? '';
    const written = this.written.get(name);
    if (written !== undefined && !isNewer(written, tenant)) this.written.delete(name);
  }

  private gone(tenant: Tenant): void {
    const name = tenant.metadata.name ?? '';
    this.written.delete(name);
    if (this.deleted.get(name) === tenant.metadata.uid) this.deleted.delete(name);
  }
}
