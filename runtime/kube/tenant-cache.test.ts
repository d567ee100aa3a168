import { describe, expect, it } from 'vitest';
import { stampProof, stampedBySync } from '../../api/table-identity.js';
import { API_VERSION, KIND, type Tenant } from '../../api/tenant.js';
import { FakeInformer } from '../../testing/fake-informer.js';
import { STATUS_ENTRY, entry, syncEntry, writtenBy } from '../../testing/stamp.js';
import { lighten } from './informer.js';
import { TenantCache, type TenantCacheOptions } from './tenant-cache.js';

const tenant = (name: string, resourceVersion: string, uid = `uid-${name}`): Tenant => ({
  apiVersion: API_VERSION,
  kind: KIND,
  metadata: { name, resourceVersion, uid },
});

/** A cache over an informer the test fills by hand. */
function cacheOf(options: TenantCacheOptions = {}): { informer: FakeInformer; cache: TenantCache } {
  const informer = new FakeInformer();
  return { informer, cache: new TenantCache(informer.asInformer(), options) };
}

describe('TenantCache', () => {
  it('prefers the object a write returned until the watch delivers it', () => {
    const { informer, cache } = cacheOf();
    informer.emit('add', tenant('a', '5'));
    cache.wrote(tenant('a', '7'));
    expect(cache.get('a')?.metadata.resourceVersion).toBe('7');
    informer.emit('update', tenant('a', '6')); // an older event still in flight
    expect(cache.get('a')?.metadata.resourceVersion).toBe('7');
    informer.emit('update', tenant('a', '8'));
    expect(cache.get('a')?.metadata.resourceVersion).toBe('8');
  });

  it('keeps no copy of a write whose echo came first, and gives its own copy to a later echo', () => {
    const { informer, cache } = cacheOf();
    informer.emit('add', tenant('a', '7'));
    cache.wrote(tenant('a', '7'));
    expect(cache.heldWrite(tenant('a', '7'))).toBeUndefined();
    cache.wrote(tenant('a', '8'));
    const held = cache.heldWrite(tenant('a', '8'));
    expect(held).toBe(cache.get('a'));
    expect(cache.heldWrite(tenant('a', '9'))).toBeUndefined();
    expect(cache.heldWrite(tenant('b', '8'))).toBeUndefined();
  });

  it('lists every Tenant as fresh as its own writes made it', () => {
    const { informer, cache } = cacheOf();
    informer.emit('add', tenant('a', '5'));
    informer.emit('add', tenant('b', '6'));
    cache.wrote(tenant('b', '9'));
    expect(cache.list().map((t) => t.metadata.resourceVersion)).toEqual(['5', '9']);
  });

  it('knows a Tenant it created before the watch reports it, when it creates Tenants', () => {
    const { cache } = cacheOf({ seesUnlisted: true });
    cache.wrote(tenant('new', '3'));
    expect(cache.get('new')?.metadata.name).toBe('new');
  });

  it('takes a status write to a Tenant the watch no longer lists for nothing, when it creates none', () => {
    const { informer, cache } = cacheOf();
    informer.emit('add', tenant('a', '5'));
    informer.emit('delete', tenant('a', '5'));
    cache.wrote(tenant('a', '6')); // the write's answer came after the watch's deletion
    expect(cache.get('a')).toBeUndefined();
    expect(cache.list()).toEqual([]);
  });

  it('forgets what its writes returned once the watch reports the deletion', () => {
    const { informer, cache } = cacheOf({ seesUnlisted: true });
    informer.emit('add', tenant('a', '5'));
    cache.wrote(tenant('a', '7'));
    informer.emit('delete', tenant('a', '7'));
    expect(cache.get('a')).toBeUndefined();
  });

  it('hides a Tenant it deleted until the watch reports the deletion, but not its successor', () => {
    const { informer, cache } = cacheOf({ seesUnlisted: true });
    informer.emit('add', tenant('a', '5', 'u1'));
    cache.deleted('a', 'u1');
    expect(cache.get('a')).toBeUndefined();
    expect(cache.list()).toEqual([]);
    informer.emit('delete', tenant('a', '6', 'u1'));
    informer.emit('add', tenant('a', '9', 'u2'));
    expect(cache.get('a')?.metadata.uid).toBe('u2');
  });

  it('lightens what a write returned as it lightens the watched copies', () => {
    const { cache } = cacheOf({ seesUnlisted: true, unread: { dropSpec: true } });
    const written: Tenant = {
      ...tenant('a', '3'),
      spec: { deployment: { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web' } } },
    };
    written.metadata.managedFields = [{ manager: 'landlord-sync' }];
    cache.wrote(written);
    const seen = cache.get('a');
    expect(seen?.spec).toBeUndefined();
    expect(seen?.metadata.managedFields).toBeUndefined();
  });

  it('keeps of managedFields only the proof that sync wrote the stamp: one list shared by every Tenant', () => {
    const { cache } = cacheOf({ seesUnlisted: true });
    cache.wrote(writtenBy(tenant('a', '3'), syncEntry(), STATUS_ENTRY));
    cache.wrote(writtenBy(tenant('b', '4'), STATUS_ENTRY, syncEntry()));
    cache.wrote(writtenBy(tenant('c', '5'), entry('kubectl-create', 'Update', {}), STATUS_ENTRY));
    const [a, b, c] = ['a', 'b', 'c'].map((name) => cache.get(name)!) as [Tenant, Tenant, Tenant];
    expect(a.metadata.managedFields).toBe(stampProof([syncEntry()]));
    expect(b.metadata.managedFields).toBe(a.metadata.managedFields);
    expect(c.metadata.managedFields).toBeUndefined();
    expect([a, b, c].map(stampedBySync)).toEqual([true, true, false]);
  });

  it("keeps the proof beside sync's updaters, and lightening it again changes nothing", () => {
    const { cache } = cacheOf({ seesUnlisted: true, unread: { keepUpdaters: true } });
    const created = writtenBy(tenant('a', '3'), syncEntry('Update'), entry('kubectl-label', 'Update', {}));
    cache.wrote(created);
    const kept = cache.get('a')!;
    expect(kept.metadata.managedFields).toEqual([
      { manager: 'kubectl-label', operation: 'Update' },
      ...stampProof([syncEntry('Update')]),
    ]);
    const unread = { keepUpdaters: true, keepOfManagedFields: stampProof };
    expect(lighten(kept, unread).metadata.managedFields).toEqual(kept.metadata.managedFields);
  });
});
