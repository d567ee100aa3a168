// A tenant's revision: one spec sync applied to its Tenant, kept as an apps/v1 ControllerRevision in
// sync's namespace, owned by the Tenant (the garbage collector removes it with the Tenant) and
// labelled with the tenant's name. `data` holds the row as sync read it and how it came, so that
// `landlord history` can show it and `landlord rollback` can write it back to the table. This file
// is the format both sides read: sync writes it, the CLI reads it.
import type { KubernetesObject } from '@kubernetes/client-node';
import { KIND, OWNER_API_VERSION, LABEL, MANAGED_BY, type Tenant, type TenantSpec } from './tenant.js';
import type { ChangeNote } from './row-notes.js';

/** How a row reached sync: its table's stream, or a read of the table (full scan, index poll, single read). */
export type RowVia = 'stream' | 'scan';

/** What `landlord history` shows in SOURCE: how the row came, or that `landlord rollback` wrote it. */
type RevisionSource = RowVia | 'rollback';

/** The row as sync read it: its content as the Tenant got it, and its change note. */
interface RevisionRow {
  name: string;
  spec: TenantSpec;
  changedBy?: string;
  changeReason?: string;
}

/** A ControllerRevision's `data`. */
export interface RevisionData {
  source: RevisionSource;
  /** The row hash (row/hash.ts) of the content: equal content, equal hash. */
  hash: string;
  /** When sync applied it (RFC 3339). */
  appliedAt: string;
  row: RevisionRow;
}

export interface Revision extends RevisionData {
  revision: number;
}

/** A tenant's newest revision, as its status names it: the next one is `revision + 1`. */
export interface NewestRevision {
  revision: number;
  /** The row hash of its content. */
  hash: string;
}

/** What sync knows of a row it is about to apply, kept until its revision is written. */
export interface RevisionDraft {
  hash: string;
  spec: TenantSpec;
  via: RowVia;
  note?: ChangeNote;
}

export const REVISION_API_VERSION = 'apps/v1';
export const REVISION_KIND = 'ControllerRevision';

/** The label selector of one tenant's revisions. */
export function revisionSelector(tenant: string): string {
  return `${LABEL.tenant}=${tenant},${LABEL.managedBy}=${MANAGED_BY.sync}`;
}

/**
 * `<tenant>-<revision>`: unique, since a tenant name is a DNS-1123 label and what follows its last
 * dash is a number; and short (a label of 63 characters plus a number stays a valid object name).
 */
export const revisionName = (tenant: string, revision: number): string => `${tenant}-${revision}`;

export function revisionData(draft: RevisionDraft, name: string, appliedAt: Date): RevisionData {
  const { note } = draft;
  return {
    source: note?.rollback === true ? 'rollback' : draft.via,
    hash: draft.hash,
    appliedAt: appliedAt.toISOString(),
    row: {
      name,
      spec: draft.spec,
      ...(note?.changedBy === undefined ? {} : { changedBy: note.changedBy }),
      ...(note?.changeReason === undefined ? {} : { changeReason: note.changeReason }),
    },
  };
}

/** The object of revision `revision` of this Tenant. */
export function revisionObject(
  tenant: Tenant,
  namespace: string,
  revision: number,
  data: RevisionData,
): object {
  const name = tenant.metadata.name!;
  return {
    apiVersion: REVISION_API_VERSION,
    kind: REVISION_KIND,
    metadata: {
      name: revisionName(name, revision),
      namespace,
      labels: { [LABEL.tenant]: name, [LABEL.managedBy]: MANAGED_BY.sync },
      // No blockOwnerDeletion: that would need rights on the Tenant's finalizers, and nothing is
      // gained by holding a Tenant's deletion up for its history.
      ownerReferences: [{ apiVersion: OWNER_API_VERSION, kind: KIND, name, uid: tenant.metadata.uid! }],
    },
    revision,
    data,
  };
}

/** A listed ControllerRevision as the shape both sides read. */
export interface RevisionObject extends KubernetesObject {
  revision?: number;
  data?: unknown;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const SOURCES: readonly string[] = ['stream', 'scan', 'rollback'];

/** The revision an object holds; undefined for one not in this format (written by hand, or a newer landlord). */
export function readRevision(object: RevisionObject): Revision | undefined {
  const { revision, data } = object;
  if (typeof revision !== 'number' || !isRecord(data) || !isRecord(data.row)) return undefined;
  const { source, hash, appliedAt, row } = data;
  if (typeof source !== 'string' || !SOURCES.includes(source)) return undefined;
  if (typeof hash !== 'string' || typeof appliedAt !== 'string') return undefined;
  if (typeof row.name !== 'string' || !isRecord(row.spec)) return undefined;
  return { revision, source: source as RevisionSource, hash, appliedAt, row: row as unknown as RevisionRow };
}
