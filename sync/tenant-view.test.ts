import { describe, expect, it } from 'vitest';
import { API_VERSION, KIND, type Tenant } from '../api/tenant.js';
import { FakeInformer } from '../testing/sync.js';
import { TenantView } from './tenant-view.js';

const tenant = (name: string, resourceVersion: string, uid = `uid-${name}`): Tenant => ({
  apiVersion: API_VERSION,
  kind: KIND,
  metadata: { name, resourceVersion, uid },
});

describe('TenantView', () => {
  it('prefers the object a write returned until the watch delivers it', () => {
    const informer = new FakeInformer();
    const view = new TenantView(informer.asInformer());
    informer.emit('add', tenant('a', '5'));
    view.remember(tenant('a', '7'));
    expect(view.get('a')?.metadata.resourceVersion).toBe('7');
    informer.emit('update', tenant('a', '6')); // an older event still in flight
    expect(view.get('a')?.metadata.resourceVersion).toBe('7');
    informer.emit('update', tenant('a', '8'));
    expect(view.get('a')?.metadata.resourceVersion).toBe('8');
  });

  it('knows a Tenant it created before the watch reports it', () => {
    const view = new TenantView(new FakeInformer().asInformer());
    view.remember(tenant('new', '3'));
    expect(view.get('new')?.metadata.name).toBe('new');
  });

  it('hides a Tenant it deleted until the watch reports the deletion, but not its successor', () => {
    const informer = new FakeInformer();
    const view = new TenantView(informer.asInformer());
    informer.emit('add', tenant('a', '5', 'u1'));
    view.forget('a', 'u1');
    expect(view.get('a')).toBeUndefined();
    expect(view.list()).toEqual([]);
    informer.emit('delete', tenant('a', '6', 'u1'));
    informer.emit('add', tenant('a', '9', 'u2'));
    expect(view.get('a')?.metadata.uid).toBe('u2');
  });
});
