// Which tenant table a Tenant came from, as sync marks it: sync's managed-by label, the source-table
// label (a short hash of the table name: labels hold 63 characters, table names reach 255) and the
// table annotation (the full name, for people). One pure check for every component that must act
// only on Tenants sync made from a given table: sync before it writes or deletes, the purger before
// it deletes data. Which cluster's rows a Tenant mirrors is sync's own, further check.
//
// Labels and annotations are written by whoever may write Tenants, so the operator and the purger
// also ask who wrote the stamp (stampedBySync): sync's field manager in managedFields. A writer can
// name sync's field manager too; what it cannot forge is its identity, which the shipped admission
// policy checks (config/admission, docs/isolation.md "A forged source table"). The managedFields
// check holds where the policy is not installed, against every writer that does not pose as sync.
import { createHash } from 'node:crypto';
import type { V1ManagedFieldsEntry } from '@kubernetes/client-node';
import { deepFreeze } from '../util/deep-freeze.js';
import { ANNOTATION, FIELD_MANAGER, LABEL, MANAGED_BY, type Tenant } from './tenant.js';

/** The value of the source-table label: the first 16 hex digits of sha256(table name). */
export function sourceTableLabel(table: string): string {
  // The name alone, not the endpoint or region: the same table reached another way is the same source.
  return createHash('sha256').update(table).digest('hex').slice(0, 16);
}

/** Why a Tenant is not one sync made from the given table. */
export type TableMismatch =
  /**
   * Not labelled managed-by landlord-sync: made by a person (kubectl), a pipeline, or another tool;
   * for the purger also a Tenant whose marks sync did not write (stampedBySync).
   */
  | { cause: 'unmarked' }
  /** Marked by a landlord sync, but for another table (named when the annotation says which). */
  | { cause: 'otherTable'; otherTable?: string };

/**
 * undefined when sync made the Tenant from `table`: sync's managed-by label, this table's
 * source-table label, and no table annotation naming another table. sync's first write to a Tenant
 * carries all of them at once, so no Tenant of its own lacks them.
 */
export function tableMismatch(tenant: Tenant, table: string): TableMismatch | undefined {
  const labels = tenant.metadata.labels ?? {};
  const annotated = tenant.metadata.annotations?.[ANNOTATION.table];
  if (labels[LABEL.managedBy] !== MANAGED_BY.sync) return { cause: 'unmarked' };
  if (labels[LABEL.sourceTable] === sourceTableLabel(table) && (annotated ?? table) === table)
    return undefined;
  return { cause: 'otherTable', ...(annotated === undefined ? {} : { otherTable: annotated }) };
}

/**
 * The first of `tables` sync made the Tenant from (its marks, written by sync: stampedBySync), or
 * why it is none of theirs (none configured: none is).
 */
export function fromTables(
  tenant: Tenant,
  tables: readonly string[],
): { table: string } | { mismatch: TableMismatch } {
  const table = tables.find((t) => tableMismatch(tenant, t) === undefined);
  if (table !== undefined) return stampedBySync(tenant) ? { table } : { mismatch: { cause: 'unmarked' } };
  // Against any table but its own a Tenant shows the same mismatch; '' is none (no table is named so).
  return { mismatch: tableMismatch(tenant, tables[0] ?? '')! };
}

/** FieldsV1: a tree of field names ("f:metadata", "f:labels", …) whose leaves are empty objects. */
type FieldSet = Record<string, unknown>;

const ANNOTATION_FIELD = `f:${ANNOTATION.table}`;
const LABEL_FIELD = `f:${LABEL.sourceTable}`;

/**
 * Whether this managedFields entry is sync's, on the Tenant itself (not its status), and owns both
 * fields of the stamp: the table annotation and the source-table label. Every write of sync's
 * (a create, an apply) sends both, so every Tenant it made has such an entry; a person who sets
 * either with kubectl takes that field from sync's entry (server-side apply moves a changed
 * field's ownership to whoever changed it), and the proof is gone.
 */
function provesStamp(entry: V1ManagedFieldsEntry): boolean {
  if (entry.manager !== FIELD_MANAGER.sync || (entry.subresource ?? '') !== '') return false;
  const metadata = (entry.fieldsV1 as FieldSet | undefined)?.['f:metadata'] as FieldSet | undefined;
  const owns = (map: string, field: string): boolean =>
    typeof metadata?.[map] === 'object' && (metadata[map] as FieldSet)[field] !== undefined;
  return owns('f:annotations', ANNOTATION_FIELD) && owns('f:labels', LABEL_FIELD);
}

/**
 * The proof as a cache keeps it: sync's entry cut down to the two fields, one frozen copy per
 * operation shared by every Tenant (a pointer each, whatever the number of Tenants).
 */
const PROOF = {
  Apply: proofEntry('Apply'),
  Update: proofEntry('Update'),
};

function proofEntry(operation: 'Apply' | 'Update'): readonly V1ManagedFieldsEntry[] {
  const fieldsV1 = {
    'f:metadata': { 'f:annotations': { [ANNOTATION_FIELD]: {} }, 'f:labels': { [LABEL_FIELD]: {} } },
  };
  return deepFreeze([{ manager: FIELD_MANAGER.sync, operation, fieldsType: 'FieldsV1', fieldsV1 }]);
}

/** Whether sync's field manager wrote the Tenant's source-table stamp (managedFields, or the proof a cache kept of them). */
export function stampedBySync(tenant: Tenant): boolean {
  return tenant.metadata.managedFields?.some(provesStamp) ?? false;
}

/**
 * What a Tenant cache keeps of the managedFields (runtime/kube/tenant-cache.ts): the proof that sync
 * wrote the stamp, as one shared entry, or nothing. Never the entries themselves: they are most of
 * a Tenant's metadata, and 20,000 Tenants are cached.
 */
export function stampProof(entries: readonly V1ManagedFieldsEntry[]): readonly V1ManagedFieldsEntry[] {
  const entry = entries.find(provesStamp);
  if (entry === undefined) return [];
  return entry.operation === 'Update' ? PROOF.Update : PROOF.Apply;
}

/** The Tenant's metadata as sync's apply leaves it: the stamp's proof in managedFields (for plan and validate). */
export function withStampProof(metadata: Tenant['metadata']): Tenant['metadata'] {
  const others = (metadata.managedFields ?? []).filter((entry) => !provesStamp(entry));
  return { ...metadata, managedFields: [...others, ...PROOF.Apply] };
}
