import { describe, expect, it } from 'vitest';
import { API_VERSION, KIND, type Tenant } from '../api/tenant.js';
import { FakeInformer } from '../testing/sync.js';
import { lighten } from '../runtime/kube/informer.js';
import { TenantView, UNREAD } from './tenant-view.js';

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

const condition = (type: string, status: string) => ({
  type,
  status,
  reason: `${type}Reason`,
  message: `${type} message`,
  lastTransitionTime: '2026-12-01T00:00:00Z',
  observedGeneration: 2,
});

const served = (): Tenant =>
  ({
    apiVersion: 'landlord.dev/v1alpha1',
    kind: 'Tenant',
    metadata: { name: 'acme', generation: 2, annotations: { 'landlord.dev/row-hash': 'h1' } },
    spec: { deployment: { apiVersion: 'apps/v1', kind: 'Deployment' } },
    status: {
      observedGeneration: 2,
      conditions: [condition('Ready', 'True'), condition('Synced', 'True'), condition('Applied', 'True')],
      sync: { table: 'tenants', rowHash: 'h1', lastChangedTime: '2026-12-01T00:00:00Z' },
      replicaSummary: '1/1',
    },
  }) as unknown as Tenant;

describe("sync's Tenant cache", () => {
  it("keeps the metadata, the Synced condition and status.sync; not the spec or the operator's status", () => {
    const full = served();
    expect(lighten(served(), UNREAD)).toStrictEqual({
      apiVersion: full.apiVersion,
      kind: full.kind,
      metadata: full.metadata,
      status: { conditions: [condition('Synced', 'True')], sync: full.status!.sync },
    });
  });

  it("keeps none of the operator's conditions where sync has reported nothing yet", () => {
    const bare = served();
    bare.status = { conditions: [condition('Ready', 'False')] } as Tenant['status'];
    expect(lighten(bare, UNREAD).status).toStrictEqual({ conditions: [] });
    delete bare.status;
    expect(lighten(bare, UNREAD).status).toBeUndefined();
  });
});
