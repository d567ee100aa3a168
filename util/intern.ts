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

/** Replaces, in place, every string in a parsed JSON value by its interned copy. */
export function internStrings(value: unknown): void {
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      if (typeof item === 'string') value[i] = intern(item);
      else internStrings(item);
    }
    return;
  }
  if (typeof value !== 'object' || value === null) return;
  const record = value as Record<string, unknown>;
  for (const key in record) {
    const item = record[key];
    if (typeof item === 'string') record[key] = intern(item);
    else internStrings(item);
  }
}
