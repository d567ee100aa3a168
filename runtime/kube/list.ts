// Listing a whole collection through KubeApi, a page at a time, so that a large collection never
// arrives as one response. The informer lists through it, and so does `landlord plan`.
import type { KubernetesListObject, KubernetesObject, V1ManagedFieldsEntry } from '@kubernetes/client-node';
import { CONTENT_TYPE, type KubeApi } from './api.js';

export interface ListOptions {
  /** The collection path, e.g. /apis/apps/v1/deployments. */
  path: string;
  /** Stamped on listed items, which the API server sends without them. */
  apiVersion: string;
  kind: string;
  labelSelector?: string;
  pageSize?: number;
  /**
   * Objects in the first page, when fewer than pageSize: for a collection anyone may fill with large
   * objects (nextPageSize). Absent: pageSize.
   */
  firstPageSize?: number;
  /** List metadata only (PartialObjectMetadataList): each item is stamped with apiVersion and kind all the same. */
  metadataOnly?: boolean;
  /** Keep the names of the managers that wrote each object by update (withoutManagedFields). */
  keepUpdaters?: boolean;
  /** What to keep of each object's managedFields besides (withoutManagedFields). */
  keepOfManagedFields?: KeepOfManagedFields;
}

/** The part of an object's managedFields a reader decides from (a Tenant's: api/table-identity.ts, stampProof). */
export type KeepOfManagedFields = (
  entries: readonly V1ManagedFieldsEntry[],
) => readonly V1ManagedFieldsEntry[];

/**
 * Objects per page. A page is parsed and cached at once; at 500 objects its text and parsed objects
 * are megabytes, as much as the young generation holds (4 MiB semi-spaces), so what a collection
 * finds in flight is promoted and piles up in the old generation, which grows to hold it. Measured
 * at 20,000 Tenants (docs/performance-notes/memory.md, "Equal parts of cached objects held once"): pages of 500
 * took a restarted operator to 319.5 MiB and a restarted sync to 178; pages of 100 to 267 and 134,
 * for a first pass 2 s longer (600 requests instead of 120).
 */
const PAGE_SIZE = 100;

/**
 * The text of one page a list aims at. Objects are small as landlord makes them (a page of 100 is
 * well under it), but a tenant team can make objects of up to 1.5 MB with labels a cache selects
 * on: a page of 100 of those, its text and its parsed copy, would take the operator to its memory
 * limit on every re-list, even though its cache keeps only their stubs.
 */
const PAGE_TEXT = 8 * 2 ** 20;

/**
 * The next page's size after a page of `limit` objects came as `length` characters: smaller in
 * proportion when it was over PAGE_TEXT, twice as large (up to `most`) when it was under half.
 */
export function nextPageSize(limit: number, length: number, most: number): number {
  if (length > PAGE_TEXT) return Math.max(1, Math.floor((limit * PAGE_TEXT) / length));
  return length * 2 <= PAGE_TEXT ? Math.min(most, limit * 2) : limit;
}

/**
 * managedFields are a large share of an object and nothing here reads what they own. The metadata
 * is copied without them rather than deleted from: a deletion makes it a hash table, several times
 * larger (informer.ts, lighten). With `keepUpdaters`, the managers that wrote the object itself by
 * update (create, PUT, a merge patch), not by apply, stay named, without their fields: the operator
 * creates children by POST and must fold that entry into its apply entry before it first applies
 * one (field-ownership.ts). Applied objects keep none, and equal lists are held once
 * (util/shared-subtrees.ts). `keepOf` keeps a reader's own small part besides (a Tenant's proof
 * that sync wrote its source-table stamp), usually one list shared by every object.
 */
export function withoutManagedFields(
  metadata: unknown,
  keepUpdaters = false,
  keepOf?: KeepOfManagedFields,
): unknown {
  if (typeof metadata !== 'object' || metadata === null || !('managedFields' in metadata)) return metadata;
  const source = metadata as Record<string, unknown>;
  const lean: Record<string, unknown> = {};
  for (const key in source) if (key !== 'managedFields') lean[key] = source[key];
  const updaters = keepUpdaters ? updatersOf(source.managedFields) : [];
  const part =
    keepOf !== undefined && Array.isArray(source.managedFields) ? keepOf(source.managedFields) : [];
  if (updaters.length + part.length > 0) lean.managedFields = joined(updaters, part);
  return lean;
}

/** The updaters and the part kept, without an updater the part names already (lightening twice changes nothing). */
function joined(
  updaters: readonly V1ManagedFieldsEntry[],
  part: readonly V1ManagedFieldsEntry[],
): readonly V1ManagedFieldsEntry[] {
  const named = (u: V1ManagedFieldsEntry): boolean =>
    part.some((p) => p.manager === u.manager && p.operation === u.operation);
  const others = updaters.filter((u) => !named(u));
  if (others.length === 0) return part;
  return part.length === 0 ? others : [...others, ...part];
}

/** The managers that wrote the object itself (no subresource) by update: their names only. */
function updatersOf(entries: unknown): { manager: string; operation: 'Update' }[] {
  if (!Array.isArray(entries)) return [];
  const updaters: { manager: string; operation: 'Update' }[] = [];
  for (const entry of entries as { manager?: unknown; operation?: unknown; subresource?: unknown }[]) {
    if (entry.operation !== 'Update' || entry.subresource !== undefined) continue;
    if (typeof entry.manager === 'string') updaters.push({ manager: entry.manager, operation: 'Update' });
  }
  return updaters;
}

/**
 * Every object of the collection, with the resourceVersion of the last page. `keep` turns each
 * object into what the caller holds on to, as its page arrives: a list of 20,000 Deployments then
 * never holds more than one page of them whole, and a page of large objects makes the next ones
 * smaller (nextPageSize).
 */
export async function listAll<T extends KubernetesObject>(
  api: KubeApi,
  options: ListOptions,
  keep: (item: T) => T = (item) => item,
): Promise<KubernetesListObject<T>> {
  const items: T[] = [];
  const most = options.pageSize ?? PAGE_SIZE;
  let limit = Math.min(most, options.firstPageSize ?? most);
  let continueToken: string | undefined;
  let resourceVersion: string;
  do {
    const page = await api.request<KubernetesListObject<T>>({
      method: 'GET',
      path: options.path,
      verb: 'list',
      ...(options.metadataOnly === true ? { accept: CONTENT_TYPE.metadataList } : {}),
      query: { labelSelector: options.labelSelector, limit, continue: continueToken },
      onText: (length) => (limit = nextPageSize(limit, length, most)),
    });
    // A metadata-only list leaves `items` out when it is empty.
    for (const item of page.items ?? []) {
      item.metadata = withoutManagedFields(
        item.metadata,
        options.keepUpdaters,
        options.keepOfManagedFields,
      ) as T['metadata'];
      item.apiVersion = options.apiVersion;
      item.kind = options.kind;
      items.push(keep(item));
    }
    // The wire name is `continue`; client-node's typed model calls it `_continue`, but this is raw JSON.
    continueToken = (page.metadata as { continue?: string } | undefined)?.continue || undefined;
    resourceVersion = page.metadata?.resourceVersion ?? '';
  } while (continueToken !== undefined);
  return { apiVersion: 'v1', kind: 'List', metadata: { resourceVersion }, items };
}
