// Turns anything a caller might log into plain JSON-safe data with credentials blanked out. Logs
// are read by people who must never see a secret, and JSON.stringify alone renders an Error as {}
// and throws on a cycle or a bigint; this walk handles all three.

const SENSITIVE_WORDS = 'secret|token|password|credential|authorization|accessKey|sessionKey';

/** Keys whose values are treated as credentials wherever they appear. */
const SENSITIVE_KEY = new RegExp(SENSITIVE_WORDS, 'i');
export const REDACTED = '[redacted]';

/** Deeper than this, structure is summarized: a log line is not a place for a whole object graph. */
const MAX_DEPTH = 8;

/** Plain JSON data: what every log field becomes. */
export type Plain = string | number | boolean | null | Plain[] | { [key: string]: Plain };

/**
 * A JSON-safe copy of `value` in which every field with a credential-looking name is `[redacted]`,
 * and so is every credential-looking `key=value` pair inside a string.
 */
export function redact(value: unknown): Plain {
  return walk(value, 0, new WeakSet());
}

/** An Error as data: its name, message, stack, own fields (such as `code`) and cause, redacted. */
export function renderError(error: Error): { [key: string]: Plain } {
  return errorFields(error, 0, new WeakSet());
}

function walk(value: unknown, depth: number, seen: WeakSet<object>): Plain {
  if (value === null || value === undefined) return null;
  if (typeof value !== 'object') return scalar(value);
  if (seen.has(value)) return '[circular]';
  if (depth >= MAX_DEPTH) return '[truncated]';
  seen.add(value);
  try {
    return structure(value, depth + 1, seen);
  } finally {
    // Only ancestors count as cycles; the same object twice side by side is fine.
    seen.delete(value);
  }
}

function scalar(value: unknown): Plain {
  switch (typeof value) {
    case 'string':
      return redactText(value);
    case 'boolean':
      return value;
    case 'number':
      return Number.isFinite(value) ? value : String(value);
    case 'bigint':
      return value.toString();
    case 'symbol':
      return value.toString();
    case 'function':
      return `[function ${value.name || 'anonymous'}]`;
    default:
      return null;
  }
}

function structure(value: object, depth: number, seen: WeakSet<object>): Plain {
  if (value instanceof Error) return errorFields(value, depth, seen);
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? 'Invalid Date' : value.toISOString();
  if (ArrayBuffer.isView(value)) return `[${value.byteLength} bytes]`;
  if (Array.isArray(value)) return value.map((item) => walk(item, depth, seen));
  if (value instanceof Map)
    return fields(
      [...value.entries()].map(([k, v]) => [String(k), v]),
      depth,
      seen,
    );
  if (value instanceof Set) return [...value].map((item) => walk(item, depth, seen));
  return fields(Object.entries(value), depth, seen);
}

function fields(
  entries: [string, unknown][],
  depth: number,
  seen: WeakSet<object>,
): { [key: string]: Plain } {
  const out: { [key: string]: Plain } = {};
  for (const [key, item] of entries) {
    if (item === undefined) continue;
    out[key] = SENSITIVE_KEY.test(key) ? REDACTED : walk(item, depth, seen);
  }
  return out;
}

function errorFields(error: Error, depth: number, seen: WeakSet<object>): { [key: string]: Plain } {
  seen.add(error);
  const out: { [key: string]: Plain } = { name: error.name, message: redactText(error.message) };
  Object.assign(out, fields(Object.entries(error), depth, seen));
  if (error.stack !== undefined) out.stack = redactText(error.stack);
  if (error.cause !== undefined) out.cause = walk(error.cause, depth, seen);
  return out;
}

/**
 * A `key: value` or `key=value` pair in free text whose key looks like a credential, or a bearer
 * token. Error messages from HTTP clients sometimes echo a header or a query string back.
 */
const SENSITIVE_TEXT = new RegExp(
  `([\\w.-]*(?:${SENSITIVE_WORDS})[\\w.-]*"?\\s*[:=]\\s*"?(?:(?:bearer|basic)\\s+)?|\\bbearer\\s+)[^\\s,;"'&}]+`,
  'gi',
);

/** Free text with credential-looking `key=value` pairs and bearer tokens blanked out. */
export function redactText(text: string): string {
  return text.replace(SENSITIVE_TEXT, `$1${REDACTED}`);
}
