// The operator creates a child it does not have yet by POST, and sync a Tenant, which costs the API
// server less than a server-side apply that creates (no merge of the apply body with an empty object,
// no read of the missing object first). A create records its fields under the writer's manager with
// operation Update, though, and server-side apply only removes a field its own Apply entry owned: a
// field a later spec drops would stay. So before the writer first applies to an object it created,
// the create's entry is folded into its Apply entry (as kubectl does when moving objects from
// client-side to server-side apply), in one JSON patch conditioned on the version read. The
// create's entry also owns the fields the server defaulted; the next apply removes those it does
// not name and the server defaults them again, to the same values.
import { isDeepStrictEqual } from 'node:util';
import type { KubernetesObject, V1ManagedFieldsEntry } from '@kubernetes/client-node';
import { ApiError, CONTENT_TYPE, type KubeApi } from './api.js';

/** FieldsV1: a tree of field names ("f:spec", "k:{...}", ".") whose leaves are empty objects. */
type FieldSet = Record<string, unknown>;

const isCreateEntry = (entry: V1ManagedFieldsEntry, manager: string): boolean =>
  entry.manager === manager && entry.operation === 'Update' && entry.subresource === undefined;

const isApplyEntry = (entry: V1ManagedFieldsEntry, manager: string): boolean =>
  entry.manager === manager && entry.operation === 'Apply' && entry.subresource === undefined;

/** Whether the object still carries fields `manager` wrote by create or update (not apply). */
export function ownsByUpdate(object: KubernetesObject, manager: string): boolean {
  return object.metadata?.managedFields?.some((entry) => isCreateEntry(entry, manager)) ?? false;
}

/** The parts of metadata a writer sets; the rest (name, uid, versions, times) is the server's. */
const WRITTEN_METADATA = ['labels', 'annotations', 'ownerReferences', 'finalizers'] as const;
/** What no apply names: the type, written apart (metadata), or another writer's (status). */
const NOT_WRITTEN = new Set(['apiVersion', 'kind', 'metadata', 'status']);

/**
 * Whether applying `desired` would leave out nothing `current` holds: every field of the object
 * beyond its status, and every label, annotation, owner and finalizer, is named by the apply, and
 * every list is named exactly as it is. Such an apply drops no field, so a create's entry may keep
 * the fields it shares with the Apply entry until an apply does leave one out: the fold can wait
 * until then (a read and a patch saved on each such change, as a class's quota edit is). A list
 * that changed could drop an item the create wrote (which fields key a list's items only its
 * schema says), so any change inside a list asks for the fold. `current` must hold every field
 * (a cached copy without a Secret's values would hide what an apply drops).
 */
export function namesEveryField(current: KubernetesObject, desired: object): boolean {
  const held = (current.metadata ?? {}) as Record<string, unknown>;
  const named = ((desired as { metadata?: unknown }).metadata ?? {}) as Record<string, unknown>;
  const fields = Object.entries(current).filter(([key]) => !NOT_WRITTEN.has(key));
  const wanted = desired as Record<string, unknown>;
  return (
    WRITTEN_METADATA.every((key) => covers(held[key], named[key])) &&
    fields.every(([key, value]) => covers(value, wanted[key]))
  );
}

/** Whether `desired` names every field of `current` (values may differ; lists must be equal). */
function covers(current: unknown, desired: unknown): boolean {
  if (current === undefined) return true;
  if (Array.isArray(current)) return isDeepStrictEqual(current, desired);
  if (typeof current !== 'object' || current === null) return desired !== undefined;
  if (typeof desired !== 'object' || desired === null || Array.isArray(desired)) return false;
  const wanted = desired as Record<string, unknown>;
  return Object.entries(current).every(([key, value]) => covers(value, wanted[key]));
}

/**
 * The managedFields with `manager`'s Update entry merged into its Apply entry (made from it when
 * there is none), or undefined when there is nothing to fold. An Update entry recorded at another
 * API version than the Apply entry stays as it is: field sets of two versions do not merge.
 */
export function foldedIntoApply(
  entries: readonly V1ManagedFieldsEntry[],
  manager: string,
): V1ManagedFieldsEntry[] | undefined {
  const apply = entries.find((entry) => isApplyEntry(entry, manager));
  const apiVersion = apply?.apiVersion ?? entries.find((entry) => isCreateEntry(entry, manager))?.apiVersion;
  const folded = entries.filter((entry) => isCreateEntry(entry, manager) && entry.apiVersion === apiVersion);
  if (folded.length === 0) return undefined;
  const sources = apply === undefined ? folded : [apply, ...folded];
  const merged: V1ManagedFieldsEntry = {
    manager,
    operation: 'Apply',
    apiVersion,
    fieldsType: 'FieldsV1',
    fieldsV1: sources.reduce<FieldSet>((set, entry) => union(set, entry.fieldsV1 as FieldSet), {}),
    time: newest(sources.map((entry) => entry.time)),
  };
  const kept = entries.filter((entry) => entry !== apply && !folded.includes(entry));
  return [merged, ...kept];
}

/**
 * Reads the object at `path` and, when it is still the one with this uid and `manager` still owns
 * fields by update, hands them to its Apply entry: one JSON patch that fails (422) if the object
 * changed since the read. The patch sets managedFields only, so it adds no entry of its own.
 */
export async function handOverCreatedFields(
  api: KubeApi,
  path: string,
  manager: string,
  uid: string | undefined,
): Promise<void> {
  const live = await api.request<KubernetesObject>({ method: 'GET', path });
  const folded = foldedIntoApply(live.metadata?.managedFields ?? [], manager);
  if (folded === undefined || live.metadata?.uid !== uid) return;
  try {
    await api.request({
      method: 'PATCH',
      path,
      query: { fieldManager: manager },
      contentType: CONTENT_TYPE.jsonPatch,
      body: [
        { op: 'test', path: '/metadata/resourceVersion', value: live.metadata?.resourceVersion },
        { op: 'replace', path: '/metadata/managedFields', value: folded },
      ],
    });
  } catch (err) {
    throw asConflict(err, path);
  }
}

/**
 * The API server answers a failed JSON patch `test` with 422, the code it also gives an object it
 * refuses. Here it only means someone wrote the object between the read and the patch (a status
 * write, most often): a conflict, to be retried, never a verdict on the caller's content.
 */
function asConflict(err: unknown, path: string): unknown {
  if (!(err instanceof ApiError) || err.status !== 422) return err;
  return new ApiError(
    409,
    'Conflict',
    `${path} changed while its fields were handed over: ${err.message}`,
    path,
  );
}

/** Every field of either set. */
function union(a: FieldSet, b: FieldSet | undefined): FieldSet {
  const result: FieldSet = { ...a };
  for (const [name, below] of Object.entries(b ?? {})) {
    const mine = result[name];
    result[name] = isFieldSet(mine) && isFieldSet(below) ? union(mine, below) : below;
  }
  return result;
}

const isFieldSet = (value: unknown): value is FieldSet =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The newest of the entries' times, as written (the API server's RFC 3339 text, parsed or not). */
function newest(times: readonly (Date | undefined)[]): Date | undefined {
  const at = (time: Date | undefined): number => (time === undefined ? -Infinity : new Date(time).getTime());
  return times.reduce((a, b) => (at(b) > at(a) ? b : a), undefined);
}
