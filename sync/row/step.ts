// The result of one parsing step: a value, or a message that already says where the problem is,
// so the step that finds a problem is the one that words it.

export type StepResult<T> = { ok: true; value: T } | { ok: false; message: string };

export function ok<T>(value: T): StepResult<T> {
  return { ok: true, value };
}

export function fail(message: string): StepResult<never> {
  return { ok: false, message };
}
