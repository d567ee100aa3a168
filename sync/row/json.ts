// JSON text from a row: parsed without ever throwing, and refused when nested so deep that later
// recursive steps (hashing, applying) would be at risk.
import { fail, ok } from './step.js';
import type { StepResult } from './step.js';
import { truncate } from './text.js';

export type JsonValue = null | boolean | number | string | JsonValue[] | JsonObject;
export interface JsonObject {
  [key: string]: JsonValue;
}
export type JsonType = 'object' | 'array' | 'null' | 'string' | 'number' | 'boolean';

/** Deepest nesting a row may use; a Deployment manifest needs about a dozen levels. */
export const MAX_DEPTH = 64;

/** The parser's own words are kept, but shortened: some quote a piece of the text. */
const MAX_PARSER_MESSAGE = 120;

export function jsonType(value: JsonValue): JsonType {
  if (value === null) {
    return 'null';
  }
  if (Array.isArray(value)) {
    return 'array';
  }
  return typeof value as 'object' | 'string' | 'number' | 'boolean';
}

export function isJsonObject(value: JsonValue): value is JsonObject {
  return jsonType(value) === 'object';
}

/** `text` parsed as JSON; problems are worded for `attribute`. */
export function parseJson(attribute: string, text: string): StepResult<JsonValue> {
  let value: JsonValue;
  try {
    value = JSON.parse(text) as JsonValue;
  } catch (error) {
    const reason = error instanceof Error ? error.message : 'unreadable';
    return fail(`${attribute}: invalid JSON: ${truncate(reason, MAX_PARSER_MESSAGE)}`);
  }
  if (deeperThan(value, MAX_DEPTH)) {
    return fail(`${attribute}: nested deeper than ${MAX_DEPTH} levels`);
  }
  return ok(value);
}

/**
 * Whether objects and arrays nest more than `limit` levels (a lone object or array is one level).
 * Walks with its own stack: V8's JSON.parse accepts nesting far deeper than the call stack allows.
 */
export function deeperThan(value: JsonValue, limit: number): boolean {
  const pending: Array<{ value: JsonValue; depth: number }> = [{ value, depth: 1 }];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    if (next.value === null || typeof next.value !== 'object') {
      continue;
    }
    if (next.depth > limit) {
      return true;
    }
    for (const child of Object.values(next.value)) {
      pending.push({ value: child, depth: next.depth + 1 });
    }
  }
  return false;
}
