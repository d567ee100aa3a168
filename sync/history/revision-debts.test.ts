import { describe, expect, it } from 'vitest';
import { RevisionDebts } from './revision-debts.js';

const spec = { deployment: { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'x' } } };
const draft = (hash: string): { hash: string; spec: typeof spec; via: 'scan' } => ({
  hash,
  spec,
  via: 'scan',
});

describe('RevisionDebts', () => {
  it('owes one revision per tenant, the latest, until it is paid', () => {
    const debts = new RevisionDebts();
    expect(debts.owed('a')).toBeUndefined();
    debts.owe('a', 'u1', draft('h1'));
    debts.owe('a', 'u1', draft('h2'));
    expect(debts.owed('a')).toEqual({ uid: 'u1', draft: draft('h2') });
    expect(debts.owed('b')).toBeUndefined();
    debts.paid('a');
    expect(debts.owed('a')).toBeUndefined();
  });

  it('keeps the revision paid for the status to name, for that Tenant only, until a status names it', () => {
    const debts = new RevisionDebts();
    debts.owe('a', 'u1', draft('h1'));
    debts.paid('a', { uid: 'u1', revision: 3, hash: 'h1' });
    expect(debts.owed('a')).toBeUndefined();
    expect(debts.recorded('a', 'u1')).toEqual({ revision: 3, hash: 'h1' });
    expect(debts.recorded('a', 'a later Tenant of this name')).toBeUndefined();
    debts.named('a', 2);
    expect(debts.recorded('a', 'u1')).toEqual({ revision: 3, hash: 'h1' });
    debts.named('a', 3);
    expect(debts.recorded('a', 'u1')).toBeUndefined();
  });

  it('forgets both debts of a tenant, and only of that one', () => {
    const debts = new RevisionDebts();
    debts.paid('a', { uid: 'u1', revision: 1, hash: 'h1' });
    debts.owe('a', 'u1', draft('h2'));
    debts.owe('b', 'u2', draft('h1'));
    debts.forget('a');
    expect(debts.owed('a')).toBeUndefined();
    expect(debts.recorded('a', 'u1')).toBeUndefined();
    expect(debts.owed('b')).toEqual({ uid: 'u2', draft: draft('h1') });
  });
});
