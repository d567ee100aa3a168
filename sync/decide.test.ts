import { describe, expect, it } from 'vitest';
import { ANNOTATION, API_VERSION, KIND, LABEL, type Tenant } from '../api/tenant.js';
import { needsWrite, specCurrent } from './decide.js';
import { ownedAnnotations, ownedLabels, tableIdentity } from './identity.js';
import type { RowState } from './row-book.js';
import { desiredStatus, type Verdict } from './status.js';

const identity = tableIdentity('tenants');
const NOW = new Date('2026-01-01T00:00:00Z');
const LATER = new Date('2026-01-01T01:00:00Z');
const context = { identity, now: LATER };

/** A Tenant exactly as sync leaves it for a valid row with hash h1. */
function synced(tweak: (t: Tenant) => void = () => undefined): Tenant {
  const t: Tenant = {
    apiVersion: API_VERSION,
    kind: KIND,
    metadata: {
      name: 'a',
      uid: 'u1',
      generation: 1,
      labels: ownedLabels(identity),
      annotations: ownedAnnotations(identity, 'h1'),
    },
  };
  t.status = desiredStatus({ kind: 'synced', hash: 'h1' }, t, identity.table, NOW);
  tweak(t);
  return t;
}

const row: RowState = { kind: 'tenant', hash: 'h1' };
const verdict: Verdict = { kind: 'synced', hash: 'h1' };

describe('needsWrite (the hash gate)', () => {
  it('writes nothing for an unchanged row and an up-to-date Tenant', () => {
    expect(needsWrite(row, verdict, synced(), context)).toBe(false);
  });

  it.each<[string, (t: Tenant) => void]>([
    ['the row hash differs', (t) => (t.metadata.annotations![ANNOTATION.rowHash] = 'h0')],
    ['the row-hash annotation is missing', (t) => delete t.metadata.annotations![ANNOTATION.rowHash]],
    ['the managed-by label is missing', (t) => delete t.metadata.labels![LABEL.managedBy]],
    ['the source-table label is another table’s', (t) => (t.metadata.labels![LABEL.sourceTable] = 'ffff')],
    ['the table annotation is missing', (t) => delete t.metadata.annotations![ANNOTATION.table]],
    ['the Synced condition is missing', (t) => (t.status!.conditions = [])],
    ['status.sync is missing', (t) => delete t.status!.sync],
    ['the generation moved on', (t) => (t.metadata.generation = 2)],
  ])('writes when %s', (_, tweak) => {
    expect(needsWrite(row, verdict, synced(tweak), context)).toBe(true);
  });

  it('writes when the Tenant does not exist', () => {
    expect(needsWrite(row, verdict, undefined, context)).toBe(true);
  });

  it('deletes for deleted: true only when there is a Tenant', () => {
    expect(needsWrite({ kind: 'deleted' }, undefined, synced(), context)).toBe(true);
    expect(needsWrite({ kind: 'deleted' }, undefined, undefined, context)).toBe(false);
  });

  it('reports an invalid row once: no write while the Tenant already says the same', () => {
    const invalid: RowState = { kind: 'invalid', attribute: 'spec', message: 'spec: bad' };
    const refused: Verdict = { kind: 'invalid', message: 'spec: bad' };
    const tenant = synced();
    expect(needsWrite(invalid, refused, tenant, context)).toBe(true);
    tenant.status = desiredStatus(refused, tenant, identity.table, NOW);
    expect(needsWrite(invalid, refused, tenant, context)).toBe(false);
  });

  it('does not retry a rejected spec: only its status is compared', () => {
    const rejected: Verdict = { kind: 'rejected', hash: 'h1', message: 'refused' };
    const tenant = synced((t) => (t.metadata.annotations![ANNOTATION.rowHash] = 'h0'));
    tenant.status = desiredStatus(rejected, tenant, identity.table, NOW);
    expect(needsWrite({ kind: 'tenant', hash: 'h1' }, rejected, tenant, context)).toBe(false);
  });
});

describe('specCurrent', () => {
  it('treats a spec edited by someone else (a generation Synced=True has not seen) as drift', () => {
    const edited = synced((t) => (t.metadata.generation = 2));
    expect(specCurrent(edited, 'h1', identity)).toBe(false);
    expect(specCurrent(synced(), 'h1', identity)).toBe(true);
  });

  it('does not call a refused Tenant drifted: the row, not the spec, is what changed', () => {
    const refused = synced();
    refused.status = desiredStatus({ kind: 'invalid', message: 'spec: bad' }, refused, identity.table, NOW);
    refused.metadata.generation = 2;
    expect(specCurrent(refused, 'h1', identity)).toBe(true);
  });

  it('does not trust a Tenant that is being deleted', () => {
    const deleting = synced((t) => (t.metadata.deletionTimestamp = NOW));
    expect(specCurrent(deleting, 'h1', identity)).toBe(false);
  });
});
