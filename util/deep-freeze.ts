// Freezes an object and everything it holds, for a value shared by every reader: one that wrote
// into it would throw instead of changing what the others read.
export function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    for (const part of Object.values(value)) deepFreeze(part);
    Object.freeze(value);
  }
  return value;
}
