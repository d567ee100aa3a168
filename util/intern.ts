// Objects parsed from different API responses hold separate copies of equal strings: every cached
// Deployment its own "default-scheduler", every Tenant its own table name, every child its own
// copy of its Tenant's name and uid. At 5,000 tenants such copies were 10 of the operator's 77 MiB
// of heap. The engine already keeps one copy of each string used as a property name (its string
// table, whose unused entries the garbage collector removes), so going through it gives equal
// values one copy without a table of our own that would keep strings alive after their objects.

/** Longer strings are hashed for nothing: a large value is rarely repeated byte for byte. */
const MAX_INTERNED_LENGTH = 16 * 1024;

/** The engine's one copy of this string's value. */
export function intern(value: string): string {
  if (value.length > MAX_INTERNED_LENGTH) return value;
  // A property name is internalised; for-in hands back that copy.
  const holder: Record<string, 0> = { [value]: 0 };
  for (const key in holder) return key;
  return value;
}

/**
 * Replaces, in place, every string in a parsed JSON value by its interned copy. `previous` is an
 * earlier version of the same value whose strings are interned already (a cached object an update
 * replaces): a string equal to the one at the same place there is taken from it, which costs a
 * comparison instead of a lookup in the string table. Most of an update repeats its previous version.
 */
export function internStrings(value: unknown, previous?: unknown): void {
  // A frozen part is a cached object's, interned when it was cached (util/shared-subtrees.ts).
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return;
  if (Array.isArray(value)) {
    const before: unknown[] | undefined = Array.isArray(previous) ? previous : undefined;
    for (let i = 0; i < value.length; i++) value[i] = interned(value[i], before?.[i]);
    return;
  }
  const record = value as Record<string, unknown>;
  const before = isRecord(previous) ? previous : undefined;
  for (const key in record) record[key] = interned(record[key], before?.[key]);
}

function interned(item: unknown, previous: unknown): unknown {
  if (typeof item !== 'string') {
    internStrings(item, previous);
    return item;
  }
  return item === previous ? previous : intern(item);
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
