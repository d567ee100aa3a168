// Test fixtures for the row parser (not built into dist).
import type { AttributeValue } from '@aws-sdk/client-dynamodb';

/**
 * A JSON value in DynamoDB's native form (M, L, S, N, BOOL, NULL), as a user writing maps and lists
 * would store it. Not util-dynamodb's convertToAttr: it assigns map keys, so a "__proto__" key
 * would vanish, and it refuses numbers beyond 2^53 that JSON text can hold.
 */
export function nativeForm(value: unknown): AttributeValue {
  if (value === null) return { NULL: true };
  if (Array.isArray(value)) return { L: value.map(nativeForm) };
  switch (typeof value) {
    case 'string':
      return { S: value };
    case 'number':
      return { N: String(value) };
    case 'boolean':
      return { BOOL: value };
    default:
      return {
        M: Object.fromEntries(
          Object.entries(value as object).map(([key, child]) => [key, nativeForm(child)]),
        ),
      };
  }
}
