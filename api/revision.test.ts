import { describe, expect, it } from 'vitest';
import type { Tenant } from './tenant.js';
import { readRevision, revisionData, revisionName, revisionObject, revisionSelector } from './revision.js';

const spec = {
  deployment: { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web' } },
  configMaps: [],
};
const at = new Date('2026-12-03T10:00:00Z');
const tenant = {
  apiVersion: 'landlord.dev/v1beta1',
  kind: 'Tenant',
  metadata: { name: 'acme', uid: 'u-1' },
} as Tenant;

describe('revisionData', () => {
  it('records how the row came, and its note', () => {
    const data = revisionData({ hash: 'h', spec, via: 'stream', note: { changedBy: 'alice' } }, 'acme', at);
    expect(data).toEqual({
      source: 'stream',
      hash: 'h',
      appliedAt: '2026-12-03T10:00:00.000Z',
      row: { name: 'acme', spec, changedBy: 'alice' },
    });
  });

  it('says rollback when the row carries the marker of its own content, however it came', () => {
    const note = {
      changedBy: 'landlord rollback',
      changeReason: 'rollback to revision 1',
      rollback: true as const,
    };
    expect(revisionData({ hash: 'h', spec, via: 'scan', note }, 'acme', at).source).toBe('rollback');
  });
});

describe('revisionObject and readRevision', () => {
  it('make an object owned by the Tenant, labelled for it, that reads back as written', () => {
    const data = revisionData({ hash: 'h', spec, via: 'scan' }, 'acme', at);
    const object = revisionObject(tenant, 'landlord-system', 7, data) as Parameters<typeof readRevision>[0];
    expect(object.metadata).toMatchObject({
      name: revisionName('acme', 7),
      namespace: 'landlord-system',
      labels: { 'landlord.dev/tenant': 'acme', 'app.kubernetes.io/managed-by': 'landlord-sync' },
      ownerReferences: [{ kind: 'Tenant', name: 'acme', uid: 'u-1' }],
    });
    expect(readRevision(object)).toEqual({ revision: 7, ...data });
    expect(revisionSelector('acme')).toBe(
      'landlord.dev/tenant=acme,app.kubernetes.io/managed-by=landlord-sync',
    );
  });

  it('names revisions so that no two tenants share one', () => {
    expect(revisionName('a-1', 2)).not.toBe(revisionName('a', 12));
    expect(revisionName('a-1', 2)).toBe('a-1-2');
  });

  it.each([
    ['no revision number', { data: {} }],
    ['no data', { revision: 1 }],
    [
      'a source it does not know',
      { revision: 1, data: { source: 'x', hash: 'h', appliedAt: 'a', row: { name: 'a', spec: {} } } },
    ],
    ['no row', { revision: 1, data: { source: 'scan', hash: 'h', appliedAt: 'a' } }],
  ])('reads nothing from an object with %s', (_case, object) => {
    expect(readRevision(object)).toBeUndefined();
  });
});
