// The Tenants as the purger sees them: the watch cache, overlaid with the copies its own status
// writes returned until the watch delivers those versions. A reconcile that follows at once (the
// event of its own progress write) must not read a purge as still Running after it completed, and
// run it again.
import type { Tenant } from '../api/tenant.js';
import type { Informer } from '../runtime/kube/informer.js';
import { isNewer } from '../runtime/kube/resource-version.js';

export class TenantView {
  /** Tenants as the purger's status writes returned them, until the cache holds that version. */
  private readonly written = new Map<string, Tenant>();

  constructor(private readonly informer: Informer<Tenant>) {}

  get(name: string): Tenant | undefined {
    const cached = this.informer.get(name);
    const written = this.written.get(name);
    if (written === undefined) return cached;
    if (cached !== undefined && isNewer(written, cached)) return written;
    this.written.delete(name);
    return cached;
  }

  list(): readonly Tenant[] {
    return this.informer.list();
  }

  /** A status write returned this: fresher than the cache until the watch catches up. */
  statusWritten(tenant: Tenant): void {
    const name = tenant.metadata.name;
    if (name !== undefined) this.written.set(name, tenant);
  }

  forget(name: string): void {
    this.written.delete(name);
  }
}
