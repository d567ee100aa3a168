// Helpers for reading manifests that arrive as untrusted JSON and for naming their fields in messages.

export type JsonRecord = Record<string, unknown>;

/** A plain JSON object: not null, not an array. */
export function isRecord(value: unknown): value is JsonRecord {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** null and undefined both mean "not set" in a Kubernetes manifest. */
export function isUnset(value: unknown): value is null | undefined {
  return value === undefined || value === null;
}

const MAX_SHOWN = 80;
const PLAIN_KEY = /^[A-Za-z_$][\w$]*$/;
const PLAIN_TEXT = /^[\w./:-]{1,80}$/;

/**
 * A value quoted for a message. Manifests can hold anything, so the text is cut short: a refusal
 * must stay readable in `kubectl describe` whatever the row held.
 */
export function quote(text: string): string {
  const shown = text.length > MAX_SHOWN ? `${text.slice(0, MAX_SHOWN)}…` : text;
  return JSON.stringify(shown);
}

/** Text shown as is when it is short and plain (names, kinds), quoted otherwise. */
export function plain(value: string): string {
  return PLAIN_TEXT.test(value) ? value : quote(value);
}

/** `base.key`, or `base["odd/key"]` for keys that are not identifiers (label keys, map keys). */
export function fieldPath(base: string, key: string): string {
  const step = PLAIN_KEY.test(key) ? `.${key}` : `[${quote(key)}]`;
  return base === '' ? step.replace(/^\./, '') : `${base}${step}`;
}

export function indexPath(base: string, index: number): string {
  return `${base}[${index}]`;
}
