import type { V1ManagedFieldsEntry } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { foldedIntoApply, ownsByUpdate } from './field-ownership.js';

const ME = 'landlord-operator';

/** An entry as the API server serialises it: its time as RFC 3339 text, where client-node's type says Date. */
const entry = (
  fields: Omit<Partial<V1ManagedFieldsEntry>, 'time'> & { time?: string },
): V1ManagedFieldsEntry =>
  ({ apiVersion: 'v1', fieldsType: 'FieldsV1', ...fields }) as unknown as V1ManagedFieldsEntry;

const created = entry({
  manager: ME,
  operation: 'Update',
  time: '2026-12-04T10:00:00Z',
  fieldsV1: { 'f:data': { '.': {}, 'f:key': {} }, 'f:metadata': { 'f:labels': { 'f:a': {} } } },
});
const statusWriter = entry({
  manager: 'kube-controller-manager',
  operation: 'Update',
  subresource: 'status',
  fieldsV1: { 'f:status': {} },
});

describe('ownsByUpdate', () => {
  it("is true while the create's entry is there, and not for another manager's or a subresource's", () => {
    expect(ownsByUpdate({ metadata: { managedFields: [created] } }, ME)).toBe(true);
    expect(ownsByUpdate({ metadata: { managedFields: [statusWriter] } }, 'kube-controller-manager')).toBe(
      false,
    );
    expect(ownsByUpdate({ metadata: { managedFields: [created] } }, 'someone-else')).toBe(false);
    expect(ownsByUpdate({ metadata: {} }, ME)).toBe(false);
  });
});

describe('foldedIntoApply', () => {
  it("turns the create's entry into the manager's Apply entry, leaving the others as they were", () => {
    const folded = foldedIntoApply([statusWriter, created], ME);
    expect(folded).toEqual([{ ...created, operation: 'Apply' }, statusWriter]);
  });

  it('merges the fields of both entries when the manager has applied too', () => {
    const applied = entry({
      manager: ME,
      operation: 'Apply',
      time: '2026-12-04T11:00:00Z',
      fieldsV1: { 'f:data': { 'f:other': {} }, 'f:metadata': { 'f:annotations': { 'f:h': {} } } },
    });
    const folded = foldedIntoApply([applied, created], ME);
    expect(folded).toEqual([
      {
        manager: ME,
        operation: 'Apply',
        apiVersion: 'v1',
        fieldsType: 'FieldsV1',
        time: '2026-12-04T11:00:00Z' as unknown as Date,
        fieldsV1: {
          'f:data': { 'f:other': {}, '.': {}, 'f:key': {} },
          'f:metadata': { 'f:annotations': { 'f:h': {} }, 'f:labels': { 'f:a': {} } },
        },
      },
    ]);
  });

  it('has nothing to fold without an Update entry of the manager', () => {
    const applied = entry({ manager: ME, operation: 'Apply', fieldsV1: {} });
    expect(foldedIntoApply([applied, statusWriter], ME)).toBeUndefined();
    expect(foldedIntoApply([], ME)).toBeUndefined();
  });

  it('leaves an Update entry of another API version alone: field sets of two versions do not merge', () => {
    const applied = entry({ manager: ME, operation: 'Apply', apiVersion: 'apps/v1', fieldsV1: {} });
    const old = { ...created, apiVersion: 'apps/v1beta1' };
    expect(foldedIntoApply([applied, old], ME)).toBeUndefined();
  });
});
