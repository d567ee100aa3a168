// managedFields entries of a Tenant as the API server records them, for unit tests of who wrote its
// source-table stamp (api/table-identity.ts): sync's own (its create, then its apply), a person's
// kubectl, and a status write.
import type { V1ManagedFieldsEntry } from '@kubernetes/client-node';
import { ANNOTATION, FIELD_MANAGER, LABEL, type Tenant } from '../api/tenant.js';

type Operation = 'Apply' | 'Update';

/** An entry on the Tenant itself owning `metadata` fields (FieldsV1) and, like sync's, the spec. */
export function entry(
  manager: string,
  operation: Operation,
  metadata: Record<string, unknown>,
): V1ManagedFieldsEntry {
  return {
    manager,
    operation,
    apiVersion: 'landlord.dev/v1alpha1',
    time: new Date('2026-01-01T00:00:00Z'),
    fieldsType: 'FieldsV1',
    fieldsV1: { 'f:metadata': metadata, 'f:spec': { '.': {}, 'f:deployment': {} } },
  };
}

/** What sync's write owns: its labels and annotations, the stamp among them. */
export const SYNC_FIELDS = {
  'f:annotations': { '.': {}, [`f:${ANNOTATION.rowHash}`]: {}, [`f:${ANNOTATION.table}`]: {} },
  'f:labels': { '.': {}, 'f:app.kubernetes.io/managed-by': {}, [`f:${LABEL.sourceTable}`]: {} },
};

/** sync's entry: its apply's (the usual), or its create's (until its first apply hands it over). */
export const syncEntry = (operation: Operation = 'Apply'): V1ManagedFieldsEntry =>
  entry(FIELD_MANAGER.sync, operation, SYNC_FIELDS);

/** The operator's status write: an entry of the status subresource. */
export const STATUS_ENTRY: V1ManagedFieldsEntry = {
  manager: FIELD_MANAGER.operator,
  operation: 'Apply',
  apiVersion: 'landlord.dev/v1alpha1',
  subresource: 'status',
  fieldsType: 'FieldsV1',
  fieldsV1: { 'f:status': { 'f:conditions': {} } },
};

/** The Tenant with these managedFields (replacing any it had). */
export function writtenBy(tenant: Tenant, ...entries: V1ManagedFieldsEntry[]): Tenant {
  return { ...tenant, metadata: { ...tenant.metadata, managedFields: entries } };
}
