import { describe, expect, it } from 'vitest';
import { ANNOTATION, API_VERSION, KIND, type Tenant } from '../api/tenant.js';
import { desiredStatus, naming, recordedRejection, statusCurrent, type Verdict } from './status.js';

const T0 = new Date('2026-01-01T00:00:00Z');
const T1 = new Date('2026-01-01T00:05:00Z');
const TABLE = 'tenants';

function tenant(tweak: (t: Tenant) => void = () => undefined): Tenant {
  const t: Tenant = {
    apiVersion: API_VERSION,
    kind: KIND,
    metadata: { name: 'a', generation: 3, annotations: { [ANNOTATION.rowHash]: 'h1' } },
  };
  tweak(t);
  return t;
}

/** A Tenant whose status is what sync wrote at T0 for this verdict. */
function written(verdict: Verdict, tweak?: (t: Tenant) => void): Tenant {
  const t = tenant(tweak);
  t.status = desiredStatus(verdict, t, TABLE, T0);
  return t;
}

describe('desiredStatus', () => {
  it('says Synced=True for a valid row, naming the table, with the row hash and the generation', () => {
    const status = desiredStatus({ kind: 'synced', hash: 'h1' }, tenant(), TABLE, T0);
    expect(status).toEqual({
      conditions: [
        {
          type: 'Synced',
          status: 'True',
          reason: 'RowSynced',
          message: 'synced from its row in DynamoDB table "tenants"',
          observedGeneration: 3,
          lastTransitionTime: '2026-01-01T00:00:00Z',
        },
      ],
      sync: { table: TABLE, rowHash: 'h1', lastChangedTime: '2026-01-01T00:00:00Z' },
    });
  });

  it('is exactly the current status when nothing changed, however much later', () => {
    const current = written({ kind: 'synced', hash: 'h1' });
    const again = desiredStatus({ kind: 'synced', hash: 'h1' }, current, TABLE, T1);
    expect(again).toEqual(current.status);
    expect(statusCurrent(current, again)).toBe(true);
  });

  it('moves lastChangedTime (not lastTransitionTime) when the row content changes', () => {
    const current = written({ kind: 'synced', hash: 'h1' });
    const next = desiredStatus({ kind: 'synced', hash: 'h2' }, current, TABLE, T1);
    expect(next.sync).toEqual({ table: TABLE, rowHash: 'h2', lastChangedTime: '2026-01-01T00:05:00Z' });
    expect(next.conditions[0]?.lastTransitionTime).toBe('2026-01-01T00:00:00Z');
    expect(statusCurrent(current, next)).toBe(false);
  });

  it('names the revision just recorded, then keeps naming it while nothing else is recorded', () => {
    const current = written({ kind: 'synced', hash: 'h1' });
    const recorded = { revision: 4, hash: 'h2' };
    const next = naming(desiredStatus({ kind: 'synced', hash: 'h2' }, current, TABLE, T1), recorded);
    expect(next.sync).toMatchObject({ rowHash: 'h2', revision: 4, revisionHash: 'h2' });
    expect(statusCurrent(current, next)).toBe(false);

    current.status = next;
    const later = desiredStatus({ kind: 'invalid', message: 'spec: bad' }, current, TABLE, T1);
    expect(later.sync).toMatchObject({ revision: 4, revisionHash: 'h2' });
  });

  it('is not current when only the revision it names differs (one written after the status)', () => {
    const current = written({ kind: 'synced', hash: 'h1' });
    const recorded = { revision: 2, hash: 'h1' };
    const named = naming(desiredStatus({ kind: 'synced', hash: 'h1' }, current, TABLE, T1), recorded);
    expect(named.sync.lastChangedTime).toBe(current.status!.sync!.lastChangedTime);
    expect(statusCurrent(current, named)).toBe(false);
  });

  it('refuses an invalid row with its message, keeping the hash of the spec still applied', () => {
    const current = written({ kind: 'synced', hash: 'h1' });
    const message = 'spec: invalid JSON at position 1';
    const next = desiredStatus({ kind: 'invalid', message }, current, TABLE, T1);
    expect(next.conditions[0]).toMatchObject({
      status: 'False',
      reason: 'InvalidRecord',
      message,
      lastTransitionTime: '2026-01-01T00:05:00Z',
    });
    expect(next.sync.rowHash).toBe('h1');
  });

  it('reports a new problem as a change, and the same problem as none', () => {
    const current = written({ kind: 'invalid', message: 'spec: one' });
    expect(
      statusCurrent(current, desiredStatus({ kind: 'invalid', message: 'spec: one' }, current, TABLE, T1)),
    ).toBe(true);
    const other = desiredStatus({ kind: 'invalid', message: 'spec: two' }, current, TABLE, T1);
    expect(statusCurrent(current, other)).toBe(false);
    expect(other.sync.lastChangedTime).toBe('2026-01-01T00:05:00Z');
  });

  it('uses an empty row hash for an unreadable row on a Tenant that never held a valid spec', () => {
    const bare = tenant((t) => delete t.metadata.annotations);
    expect(desiredStatus({ kind: 'invalid', message: 'spec: bad' }, bare, TABLE, T0).sync.rowHash).toBe('');
  });

  it('records the hash of a rejected row, so that a restart knows not to send it again', () => {
    const rejected = written({ kind: 'rejected', hash: 'h9', message: 'no' });
    expect(rejected.status?.sync?.rowHash).toBe('h9');
    expect(recordedRejection(rejected, 'h9')).toBe('no');
    expect(recordedRejection(rejected, 'h1')).toBeUndefined();
    expect(recordedRejection(written({ kind: 'synced', hash: 'h9' }), 'h9')).toBeUndefined();
  });

  it('follows a new generation in observedGeneration', () => {
    const current = written({ kind: 'synced', hash: 'h1' });
    current.metadata.generation = 4;
    const next = desiredStatus({ kind: 'synced', hash: 'h1' }, current, TABLE, T1);
    expect(next.conditions[0]?.observedGeneration).toBe(4);
    expect(statusCurrent(current, next)).toBe(false);
  });

  it('leaves the operator’s conditions out of the comparison', () => {
    const current = written({ kind: 'synced', hash: 'h1' });
    current.status!.conditions!.push({
      type: 'Ready',
      status: 'False',
      reason: 'Progressing',
      message: 'waiting',
      lastTransitionTime: '2026-01-01T00:01:00Z',
    });
    expect(statusCurrent(current, desiredStatus({ kind: 'synced', hash: 'h1' }, current, TABLE, T1))).toBe(
      true,
    );
  });
});

describe('desiredStatus per verdict', () => {
  it.each<[string, Verdict, { status: string; reason: string; rowHash: string }]>([
    ['a valid row', { kind: 'synced', hash: 'h2' }, { status: 'True', reason: 'RowSynced', rowHash: 'h2' }],
    [
      'an invalid row',
      { kind: 'invalid', message: 'm' },
      { status: 'False', reason: 'InvalidRecord', rowHash: 'h1' },
    ],
    [
      'a rejected row',
      { kind: 'rejected', hash: 'h3', message: 'm' },
      { status: 'False', reason: 'ApplyRejected', rowHash: 'h3' },
    ],
  ])('%s', (_, verdict, expected) => {
    const status = desiredStatus(verdict, tenant(), TABLE, T0);
    expect(status.conditions[0]).toMatchObject({ status: expected.status, reason: expected.reason });
    expect(status.sync.rowHash).toBe(expected.rowHash);
  });
});
