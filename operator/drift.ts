// Deciding whether a child must be applied, without asking the API server. A child is in sync
// when it carries the hash of the current desired manifest AND every field landlord sets still
// has landlord's value (someone may have edited it). Fields others added are not landlord's
// business, which is exactly server-side apply's notion of ownership.

import { quantityValue } from '../util/quantity.js';

type Json = unknown;

/** Maps whose values the API server canonicalises as quantities. */
const QUANTITY_MAPS = new Set(['limits', 'requests', 'overhead']);

function sameQuantity(wanted: Json, actual: Json): boolean {
  const a = quantityValue(wanted);
  const b = quantityValue(actual);
  return a !== undefined && b !== undefined && Math.abs(a - b) <= Math.abs(a) * 1e-9;
}

function isEmpty(value: Json): boolean {
  if (value === undefined || value === null) return true;
  if (Array.isArray(value)) return value.length === 0;
  return typeof value === 'object' && Object.keys(value).length === 0;
}

function isObject(value: Json): value is Record<string, Json> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * True when every field of `wanted` is present in `actual` with the same value. Lists compare
 * position by position (the API server keeps the order landlord applied); an empty list or null
 * matches an absent field, because the server drops them.
 */
export function isSubset(wanted: Json, actual: Json, key = ''): boolean {
  // An empty map sets no field; an empty list or a null asks for nothing there.
  if (isObject(wanted) && isEmpty(wanted)) return true;
  if (isEmpty(wanted)) return isEmpty(actual);
  if (Array.isArray(wanted)) {
    return (
      Array.isArray(actual) &&
      wanted.length <= actual.length &&
      wanted.every((w, i) => isSubset(w, actual[i]))
    );
  }
  if (isObject(wanted)) {
    if (!isObject(actual)) return false;
    const quantities = QUANTITY_MAPS.has(key);
    return Object.keys(wanted).every((k) =>
      quantities
        ? sameQuantity(wanted[k], actual[k]) || wanted[k] === actual[k]
        : isSubset(wanted[k], actual[k], k),
    );
  }
  return wanted === actual;
}

/**
 * `wanted`'s shape with the values the server stored: after an apply, this is the desired state in
 * the server's own spelling (a quantity "0.5" comes back "500m"), so later comparisons do not see a
 * normalisation as drift.
 */
export function project(wanted: Json, stored: Json): Json {
  if (Array.isArray(wanted)) {
    if (!Array.isArray(stored)) return wanted;
    const items: readonly Json[] = stored;
    return wanted.map((w: Json, i) => (i < items.length ? project(w, items[i]) : w));
  }
  if (isObject(wanted)) {
    if (!isObject(stored)) return wanted;
    return Object.fromEntries(
      Object.entries(wanted).map(([k, w]) => [k, k in stored ? project(w, stored[k]) : w]),
    );
  }
  return stored === undefined ? wanted : stored;
}
