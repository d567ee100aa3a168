import { describe, expect, it } from 'vitest';
import type { Tenant } from '../api/tenant.js';
import { lighten, sameBesidesVersion } from '../runtime/kube/informer.js';
import { READINESS_UNREAD, UNREAD } from './tenants.js';

const condition = (type: string, status: 'True' | 'False') => ({
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
  it("keeps the metadata, the Synced condition and status.sync; of the spec only its state, not the operator's status", () => {
    const full = served();
    expect(lighten(served(), UNREAD)).toStrictEqual({
      apiVersion: full.apiVersion,
      kind: full.kind,
      metadata: full.metadata,
      spec: {},
      status: { conditions: [condition('Synced', 'True')], sync: full.status!.sync },
    });
    const archived = served();
    archived.spec = { ...archived.spec!, state: 'archived' };
    expect(lighten(archived, UNREAD).spec).toStrictEqual({ state: 'archived' });
  });

  it('keeps no spec for a bare Tenant, which has none', () => {
    const bare = served();
    delete bare.spec;
    expect(lighten(bare, UNREAD)).not.toHaveProperty('spec');
  });

  it("keeps none of the operator's conditions where sync has reported nothing yet", () => {
    const bare = served();
    bare.status = { conditions: [condition('Ready', 'False')] };
    expect(lighten(bare, UNREAD).status).toStrictEqual({ conditions: [] });
    delete bare.status;
    expect(lighten(bare, UNREAD).status).toBeUndefined();
  });

  it("sees the operator's status write as no change, so it wakes no recheck; its own Synced as one", () => {
    const before = served();
    before.metadata.resourceVersion = '7';
    const operatorWrote = served();
    operatorWrote.metadata.resourceVersion = '8';
    operatorWrote.status!.conditions![0] = condition('Ready', 'False');
    expect(sameBesidesVersion(lighten(before, UNREAD), lighten(operatorWrote, UNREAD))).toBe(true);
    const syncWrote = served();
    syncWrote.metadata.resourceVersion = '9';
    syncWrote.status!.conditions![1] = condition('Synced', 'False');
    expect(sameBesidesVersion(lighten(before, UNREAD), lighten(syncWrote, UNREAD))).toBe(false);
  });

  it('keeps, when rows are told their readiness, the Ready condition but its time, and the URL', () => {
    const exposed = served();
    exposed.status!.url = 'https://acme.example.com';
    const ready: Partial<ReturnType<typeof condition>> = condition('Ready', 'True');
    delete ready.lastTransitionTime;
    expect(lighten(exposed, READINESS_UNREAD).status).toStrictEqual({
      conditions: [condition('Synced', 'True'), ready],
      sync: exposed.status!.sync,
      url: 'https://acme.example.com',
    });
    // The operator's Ready changing is then a change: the row is told.
    const before = served();
    before.metadata.resourceVersion = '7';
    const operatorWrote = served();
    operatorWrote.metadata.resourceVersion = '8';
    operatorWrote.status!.conditions![0] = condition('Ready', 'False');
    expect(
      sameBesidesVersion(lighten(before, READINESS_UNREAD), lighten(operatorWrote, READINESS_UNREAD)),
    ).toBe(false);
  });
});
