// An informer cache of Tenants that a unit test fills by hand, for the code built on the runtime's
// Tenant cache (runtime/kube/tenant-cache.ts) and sync's tests.
import type { Informer, ObjectHandler } from '../runtime/kube/informer.js';
import type { Tenant } from '../api/tenant.js';

type Handler = ObjectHandler<Tenant>;

export class FakeInformer {
  readonly objects = new Map<string, Tenant>();
  private readonly handlers: Record<'add' | 'update' | 'delete', Handler[]> = {
    add: [],
    update: [],
    delete: [],
  };

  on(verb: 'add' | 'update' | 'delete', handler: Handler): void {
    this.handlers[verb].push(handler);
  }

  get(name: string): Tenant | undefined {
    return this.objects.get(name);
  }

  list(): Tenant[] {
    return [...this.objects.values()];
  }

  /** Delivers a watch event, updating the cache first as ListWatch does. */
  emit(verb: 'add' | 'update' | 'delete', tenant: Tenant): void {
    const name = tenant.metadata.name!;
    if (verb === 'delete') this.objects.delete(name);
    else this.objects.set(name, tenant);
    for (const handler of this.handlers[verb]) handler(tenant, { statusOnly: false });
  }

  asInformer(): Informer<Tenant> {
    // Only the members TenantCache uses are implemented.
    return this as unknown as Informer<Tenant>;
  }
}
