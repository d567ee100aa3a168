import { describe, expect, it } from 'vitest';
import type { Tenant } from '../api/tenant.js';
import { FakeInformer } from '../testing/fake-informer.js';
import { syncedTenant } from '../testing/sync.js';
import { tableIdentity } from './identity.js';
import { Ledger, type NamedRow } from './ledger.js';
import { desiredStatus } from './status.js';
import { TenantCache } from '../runtime/kube/tenant-cache.js';
import { SYNC_TENANT_CACHE } from './tenants.js';

const identity = tableIdentity('tenants');
const spec = { deployment: { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'x' } } };
const valid = (hash: string): NamedRow => ({ kind: 'tenant', name: 'a', spec, hash });

const tenantAt = (hash: string): Tenant => syncedTenant(identity, { kind: 'synced', hash }, hash, new Date());

function ledger(...tenants: Tenant[]): Ledger {
  const informer = new FakeInformer();
  for (const t of tenants) informer.emit('add', t);
  return new Ledger(new TenantCache(informer.asInformer(), SYNC_TENANT_CACHE), identity);
}

describe('Ledger', () => {
  it('says whether a recorded row changed', () => {
    const l = ledger();
    expect(l.record(valid('h1'))).toBe(true);
    expect(l.record(valid('h1'))).toBe(false);
    expect(l.record(valid('h2'))).toBe(true);
    expect(l.record({ kind: 'deleted', name: 'a' })).toBe(true);
  });

  it('keeps a spec only while decide() says it is to be written', () => {
    const l = ledger(tenantAt('h1'));
    l.record(valid('h2'));
    expect(l.next('a')).toEqual({ kind: 'applySpec', hash: 'h2' });
    expect(l.specToWrite('a', 'h2')).toBe(spec);
    l.record(valid('h1'));
    expect(l.next('a')).toEqual({ kind: 'nothing' });
    expect(l.pendingWrites).toBe(0);
  });

  it('takes a rejection the Tenant records for this row, so the row is not sent again', () => {
    const rejected = tenantAt('h1');
    rejected.status = desiredStatus(
      { kind: 'rejected', hash: 'h2', message: 'no' },
      rejected,
      identity.table,
      new Date(),
    );
    const l = ledger(rejected);
    l.record(valid('h2'));
    expect(l.verdict('a')).toEqual({ kind: 'rejected', hash: 'h2', message: 'no' });
    expect(l.next('a')).toEqual({ kind: 'nothing' });
    expect(l.pendingWrites).toBe(0);
  });

  it('gathers the approval and sync’s own apply into the situation', () => {
    const l = ledger(tenantAt('h1'));
    l.approveTakedown('a', 3);
    expect(l.situation('a')).toMatchObject({ row: undefined, approval: 3 });
    expect(l.next('a')).toEqual({ kind: 'confirmGone', pass: 3 });
    l.record(valid('h1'));
    l.specApplied('a', 'h1', 1);
    expect(l.situation('a')).toMatchObject({ approval: undefined, applied: { hash: 'h1', generation: 1 } });
  });

  it('keeps how a row came and its note with the spec to write: the revision it becomes', () => {
    const l = ledger(tenantAt('h1'));
    l.record({ kind: 'tenant', name: 'a', spec, hash: 'h2', note: { changedBy: 'alice' } }, 'stream');
    expect(l.draftToWrite('a', 'h2')).toEqual({
      hash: 'h2',
      spec,
      via: 'stream',
      note: { changedBy: 'alice' },
    });
    expect(l.draftToWrite('a', 'h1')).toBeUndefined();
  });

  it('asks for a status naming a revision just recorded, for that Tenant only, until one is written', () => {
    const l = ledger(tenantAt('h1'));
    l.record(valid('h1'));
    l.revisionDebts.paid('a', { uid: 'u1', revision: 2, hash: 'h1' });
    const action = l.next('a');
    expect(action).toMatchObject({
      kind: 'applyStatus',
      status: { sync: { revision: 2, revisionHash: 'h1' } },
    });
    l.revisionDebts.named('a', 2);
    expect(l.situation('a').recorded).toBeUndefined();

    l.revisionDebts.paid('a', { uid: 'another Tenant of this name', revision: 7, hash: 'h1' });
    expect(l.situation('a').recorded).toBeUndefined();
    expect(l.next('a')).toEqual({ kind: 'nothing' });
  });

  it('drops what is owed to a history once its row makes no Tenant, is gone, or a scan missed it', () => {
    const draft = { hash: 'h1', spec, via: 'scan' as const };
    const l = ledger(tenantAt('h1'));
    const owe = (): void => {
      l.record(valid('h1'));
      l.revisionDebts.owe('a', 'u1', draft);
    };
    owe();
    l.record({ kind: 'deleted', name: 'a' });
    expect(l.revisionDebts.owed('a')).toBeUndefined();
    owe();
    l.rowGone('a');
    expect(l.revisionDebts.owed('a')).toBeUndefined();
    owe();
    l.scanFound(new Set(['a']));
    expect(l.revisionDebts.owed('a')).toEqual({ uid: 'u1', draft });
    l.scanFound(new Set());
    expect(l.revisionDebts.owed('a')).toBeUndefined();
  });

  it('asks for an owed revision first thing in a reconcile, keeping the spec to write after it', () => {
    const l = ledger(tenantAt('h1'));
    const uid = l.view.get('a')!.metadata.uid!;
    l.record(valid('h2'));
    l.revisionDebts.owe('a', uid, { hash: 'h1', spec, via: 'scan' });
    expect(l.next('a', { reconcileStart: true })).toEqual({ kind: 'writeRevision' });
    expect(l.specToWrite('a', 'h2')).toBe(spec);
    expect(l.next('a')).toEqual({ kind: 'applySpec', hash: 'h2' });
  });
});
