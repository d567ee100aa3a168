// The result of one parsing step: a value, or a message that already says where the problem is,
// so the step that finds a problem is the one that words it.

export type Outcome<T> = { ok: true; value: T } | { ok: false; message: string };

export function ok<T>(value: T): Outcome<T> {
  return { ok: true, value };
}

export function fail(message: string): Outcome<never> {
  return { ok: false, message };
}
