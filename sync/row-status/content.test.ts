import { describe, expect, it } from 'vitest';
import { ANNOTATION, API_VERSION, KIND, type Condition, type Tenant } from '../../api/tenant.js';
import { ROW_PROJECTION } from '../dynamo/scan.js';
import { readRow } from '../row/index.js';
import {
  readRowStatus,
  rowStatusAttribute,
  rowStatusDigest,
  rowStatusOf,
  type RowStatus,
  type RowStatusFacts,
} from './content.js';

const T0 = new Date('2026-01-01T00:00:00Z');
const T1 = new Date('2026-01-01T00:05:00Z');

const condition = (
  type: string,
  status: Condition['status'],
  reason: string,
  message: string,
): Condition => ({
  type,
  status,
  reason,
  message,
  observedGeneration: 3,
  lastTransitionTime: '2026-01-01T00:00:00Z',
});

/** A Tenant holding the row with hash h1 at generation 3, Ready for it, exposed. */
function tenant(): Tenant {
  return {
    apiVersion: API_VERSION,
    kind: KIND,
    metadata: { name: 'acme', generation: 3, annotations: { [ANNOTATION.rowHash]: 'h1' } },
    status: {
      conditions: [
        condition('Synced', 'True', 'RowSynced', 'synced'),
        condition('Ready', 'True', 'Ready', 'Deployment acme/web has 1/1 replicas ready'),
      ],
      url: 'https://acme.apps.example.com',
    },
  };
}

const READY: RowStatus = {
  phase: 'Ready',
  ready: true,
  url: 'https://acme.apps.example.com',
  message: 'Deployment acme/web has 1/1 replicas ready',
  observedHash: 'h1',
};

const facts = (tweak: (f: RowStatusFacts & { tenant: Tenant }) => void = () => undefined): RowStatusFacts => {
  const f = { verdict: { kind: 'synced', hash: 'h1' } as const, tenant: tenant(), syncPending: false };
  tweak(f);
  return f;
};

const ready = (t: Tenant): Condition => t.status!.conditions!.find((c) => c.type === 'Ready')!;

describe('rowStatusOf', () => {
  it.each<[string, RowStatusFacts, RowStatus | undefined]>([
    ['a Tenant Ready for the row: ready, with its URL and the hash it holds', facts(), READY],
    [
      'a rollout: not ready, the Ready reason as the phase',
      facts((f) =>
        Object.assign(ready(f.tenant), { status: 'False', reason: 'RolloutInProgress', message: '0 of 1' }),
      ),
      { ...READY, phase: 'RolloutInProgress', ready: false, message: '0 of 1' },
    ],
    [
      'a class that exposes nothing: no URL',
      facts((f) => delete f.tenant.status!.url),
      { ...READY, url: '' },
    ],
    [
      'a refused row: the refusal, not the Ready of the spec still running',
      facts((f) => {
        f.verdict = { kind: 'invalid', message: 'spec: not JSON' };
        f.tenant.status!.conditions![0] = condition('Synced', 'False', 'InvalidRecord', 'spec: not JSON');
      }),
      { ...READY, phase: 'InvalidRecord', ready: false, message: 'spec: not JSON' },
    ],
    ['nothing while sync has its own write to make first', facts((f) => (f.syncPending = true)), undefined],
    [
      'nothing before the operator has seen the generation',
      facts((f) => (f.tenant.metadata.generation = 4)),
      undefined,
    ],
    ['nothing without Ready', facts((f) => f.tenant.status!.conditions!.pop()), undefined],
    [
      'nothing without a Tenant (or another table’s)',
      facts((f) => Object.assign(f, { tenant: undefined })),
      undefined,
    ],
    [
      'nothing for a row gone or saying deleted: true',
      facts((f) => Object.assign(f, { verdict: undefined })),
      undefined,
    ],
    [
      'nothing for a Tenant being deleted',
      facts((f) => (f.tenant.metadata.deletionTimestamp = '2026-01-01T00:00:00Z' as unknown as Date)),
      undefined,
    ],
  ])('%s', (_case, input, expected) => {
    expect(rowStatusOf(input)).toEqual(expected);
  });

  it('never calls ready a Tenant that holds another hash than the row', () => {
    expect(rowStatusOf(facts((f) => (f.verdict = { kind: 'synced', hash: 'h2' })))?.ready).toBe(false);
  });

  it('bounds the message a row carries', () => {
    const long = rowStatusOf(facts((f) => (ready(f.tenant).message = 'x'.repeat(5000))));
    expect(long?.message.length).toBeLessThanOrEqual(1025);
  });
});

describe('the attribute', () => {
  it('reads back as the content written, whenever it was written', () => {
    const at = (now: Date) => ({ name: { S: 'acme' }, landlord: rowStatusAttribute(READY, now) });
    expect(readRowStatus(at(T0))).toEqual(READY);
    expect(rowStatusDigest(readRowStatus(at(T1)))).toBe(rowStatusDigest(READY));
    expect(rowStatusAttribute(READY, T0).M?.updatedAt).toEqual({ S: '2026-01-01T00:00:00Z' });
  });

  it('digests every field of the content', () => {
    const digests = new Set(
      [
        READY,
        { ...READY, phase: 'X' },
        { ...READY, ready: false },
        { ...READY, url: '' },
        { ...READY, message: '' },
        { ...READY, observedHash: '' },
      ].map(rowStatusDigest),
    );
    expect(digests.size).toBe(6);
    expect(rowStatusDigest(undefined)).toBe('');
  });

  it.each([
    ['absent', {}],
    ['not a map', { landlord: { S: 'ready' } }],
    ['a map missing a field', { landlord: { M: { phase: { S: 'Ready' }, ready: { BOOL: true } } } }],
    [
      'a field of another type',
      { landlord: { M: { ...rowStatusAttribute(READY, T0).M, ready: { S: 'true' } } } },
    ],
  ])('reads as none when %s, so what sync wants is written over it', (_case, item) => {
    expect(readRowStatus({ name: { S: 'acme' }, ...item })).toBeUndefined();
  });
});

describe('the attribute on the row', () => {
  const row = {
    name: { S: 'acme' },
    spec: { S: '{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web"}}' },
    customizations: { S: '[]' },
  };

  it('is outside the row: it changes neither the hash nor whether the row is valid', () => {
    const told = { ...row, landlord: rowStatusAttribute(READY, T0) };
    const odd = { ...row, landlord: { S: 'anything a person wrote' } };
    expect(readRow(told)).toEqual(readRow(row));
    expect(readRow(odd)).toEqual(readRow(row));
    expect(readRow(row).kind).toBe('tenant');
  });

  it('is read by every scan and point read, so a restarted sync knows what each row holds', () => {
    expect(Object.values(ROW_PROJECTION.ExpressionAttributeNames)).toContain('landlord');
  });
});
