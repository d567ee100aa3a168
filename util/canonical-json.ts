// A canonical JSON encoding: the same content always gives the same text, whatever the key order,
// so hashes of manifests (sync's row hash, the operator's child hash) only move when content does.
import { createHash } from 'node:crypto';

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

/** sha256 (hex, first 32 digits: 128 bits, short enough to read in `kubectl describe`) of the canonical JSON. */
export function contentHash(value: unknown): string {
  return createHash('sha256').update(canonicalJson(value)).digest('hex').slice(0, 32);
}
