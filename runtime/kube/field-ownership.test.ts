import type { V1ManagedFieldsEntry } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { foldedIntoApply, namesEveryField, ownsByUpdate } from './field-ownership.js';

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

describe('namesEveryField', () => {
  const quota = {
    apiVersion: 'v1',
    kind: 'ResourceQuota',
    metadata: {
      name: 'landlord-quota',
      namespace: 't-1',
      uid: 'u1',
      resourceVersion: '7',
      labels: { 'landlord.dev/tenant': 't-1' },
      annotations: { 'landlord.dev/spec-hash': 'abc' },
      ownerReferences: [{ apiVersion: 'landlord.dev/v1alpha1', kind: 'Tenant', name: 't-1', uid: 't' }],
    },
    spec: { hard: { pods: '20', services: '5' } },
    status: { hard: { pods: '20' }, used: { pods: '1' } },
  };
  const desired = (changes: { hard?: Record<string, string>; labels?: Record<string, string> }) => ({
    metadata: {
      name: 'landlord-quota',
      namespace: 't-1',
      labels: changes.labels ?? quota.metadata.labels,
      annotations: { 'landlord.dev/spec-hash': 'def' },
      ownerReferences: quota.metadata.ownerReferences,
    },
    spec: { hard: changes.hard ?? quota.spec.hard },
  });

  it('is true when the apply changes values and adds fields, leaving nothing of the object out', () => {
    expect(namesEveryField(quota, desired({ hard: { pods: '21', services: '5' } }))).toBe(true);
    expect(namesEveryField(quota, desired({ hard: { pods: '21', services: '5', secrets: '3' } }))).toBe(true);
  });

  it('is false when the apply leaves out a field or a label the object has', () => {
    expect(namesEveryField(quota, desired({ hard: { pods: '21' } }))).toBe(false);
    expect(namesEveryField(quota, desired({ labels: {} }))).toBe(false);
    expect(namesEveryField(quota, { metadata: desired({}).metadata })).toBe(false);
  });

  it('asks for lists to be named as they are: a changed list could drop an item', () => {
    const policy = {
      metadata: {},
      spec: { policyTypes: ['Ingress'], ingress: [{ from: [{ podSelector: {} }] }] },
    };
    expect(namesEveryField(policy, { metadata: {}, spec: { ...policy.spec } })).toBe(true);
    const ports = { metadata: {}, spec: { ports: [{ port: 80 }] } };
    expect(namesEveryField(ports, { metadata: {}, spec: { ports: [{ port: 8080 }] } })).toBe(false);
    expect(namesEveryField(ports, { metadata: {}, spec: { ports: [{ port: 80 }, { port: 81 }] } })).toBe(
      false,
    );
  });

  it('does not count the status nor what the server keeps in metadata', () => {
    expect(namesEveryField(quota, desired({}))).toBe(true);
  });
});
