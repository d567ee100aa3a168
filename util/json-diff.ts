// The fields two JSON values differ in, as paths a person can read ("spec.replicas", "env[0].value"):
// `landlord plan` shows what an update changes without printing whole manifests.

export interface FieldChange {
  path: string;
  kind: 'added' | 'removed' | 'changed';
  before?: unknown;
  after?: unknown;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

function keyPath(path: string, key: string): string {
  if (IDENTIFIER.test(key)) return path === '' ? key : `${path}.${key}`;
  return `${path}[${JSON.stringify(key)}]`;
}

/** Every leaf (or whole added/removed subtree) where `after` differs from `before`, in key order. */
export function diffJson(before: unknown, after: unknown, path = ''): FieldChange[] {
  if (before === undefined && after === undefined) return [];
  if (before === undefined) return [{ path, kind: 'added', after }];
  if (after === undefined) return [{ path, kind: 'removed', before }];
  if (Array.isArray(before) && Array.isArray(after)) {
    const length = Math.max(before.length, after.length);
    return Array.from({ length }, (_, i) => diffJson(before[i], after[i], `${path}[${i}]`)).flat();
  }
  if (isRecord(before) && isRecord(after)) {
    const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
    return keys.flatMap((key) => diffJson(before[key], after[key], keyPath(path, key)));
  }
  return JSON.stringify(before) === JSON.stringify(after) ? [] : [{ path, kind: 'changed', before, after }];
}

/** A value in at most `max` characters: enough to recognise it on one line. */
export function shortValue(value: unknown, max = 40): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** "replicas: 2 → 3", "env[1]: added \"X\"", "ports: removed". */
export function describeChange(change: FieldChange): string {
  switch (change.kind) {
    case 'added':
      return `${change.path}: added ${shortValue(change.after)}`;
    case 'removed':
      return `${change.path}: removed`;
    case 'changed':
      return `${change.path}: ${shortValue(change.before)} → ${shortValue(change.after)}`;
  }
}
