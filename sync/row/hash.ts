// The row hash sync stores on each Tenant, so an unchanged row costs no write. It must not change
// when DynamoDB or a user reorders a map's keys, and must change when anything else does.
import { createHash } from 'node:crypto';
import type { TenantSpec } from '../../shared/tenant.js';

/** Hex digits kept of the sha256: 128 bits, short enough to read in `kubectl describe`. */
const HASH_LENGTH = 32;

/** sha256 (hex, first 32 digits) of the canonical JSON of `{ deployment, configMaps }`. */
export function rowHash(spec: TenantSpec): string {
  // An absent list and an empty one mean the same: no ConfigMaps.
  const content = { deployment: spec.deployment, configMaps: spec.configMaps ?? [] };
  return createHash('sha256').update(canonicalJson(content)).digest('hex').slice(0, HASH_LENGTH);
}

/**
 * JSON.stringify's output with every object's keys sorted (by UTF-16 code units), at any depth;
 * arrays keep their order. Like JSON.stringify it honours toJSON, drops undefined and functions
 * from objects, writes them as null in arrays, and throws on a cycle or a BigInt.
 */
export function canonicalJson(value: unknown): string {
  return encode(value, '') ?? 'null';
}

function encode(raw: unknown, key: string): string | undefined {
  const value = jsonForm(raw, key);
  if (typeof value !== 'object' || value === null) {
    // Typed as string, but undefined for undefined, functions and symbols, as the caller expects.
    return JSON.stringify(value);
  }
  return Array.isArray(value) ? encodeArray(value) : encodeObject(value as Record<string, unknown>);
}

function jsonForm(value: unknown, key: string): unknown {
  if (typeof value !== 'object' || value === null) {
    return value;
  }
  const toJSON: unknown = (value as { toJSON?: unknown }).toJSON;
  if (typeof toJSON === 'function') {
    return (toJSON as (key: string) => unknown).call(value, key);
  }
  if (value instanceof Number || value instanceof String || value instanceof Boolean) {
    return value.valueOf();
  }
  return value;
}

function encodeArray(values: readonly unknown[]): string {
  const parts: string[] = [];
  // A plain for loop visits holes too; JSON writes them as null.
  for (let index = 0; index < values.length; index += 1) {
    parts.push(encode(values[index], String(index)) ?? 'null');
  }
  return `[${parts.join(',')}]`;
}

function encodeObject(object: Record<string, unknown>): string {
  const parts: string[] = [];
  for (const key of Object.keys(object).sort()) {
    const encoded = encode(object[key], key);
    if (encoded !== undefined) {
      parts.push(`${JSON.stringify(key)}:${encoded}`);
    }
  }
  return `{${parts.join(',')}}`;
}
