// The condition that a row still holds what was read: every write sync or the CLI makes to a row
// (rollback's, sync's readiness attribute) is guarded by it, so a write never lands on a row whose
// content changed since, and never recreates a row deleted since. Pure.
import type { AttributeValue } from '@aws-sdk/client-dynamodb';

type Item = Record<string, AttributeValue>;

/**
 * The attributes whose values make the tenant (what the row hash covers, and where the row is
 * placed): all must still be as read for a guarded write to happen.
 */
const CONTENT_ATTRIBUTES = [
  'spec',
  'customizations',
  'state',
  'class',
  'hosts',
  'deleted',
  'cluster',
] as const;

export interface Expression {
  expression: string;
  names: Record<string, string>;
  values: Item;
}

/**
 * `attribute_exists(name)` and, for each content attribute, equal to the value read or absent as
 * read. DynamoDB compares M and L values whole, so a row written as native maps is held as firmly.
 */
export function unchangedCondition(read: Item): Expression {
  const names: Record<string, string> = { '#name': 'name' };
  const values: Item = {};
  const terms = ['attribute_exists(#name)'];
  for (const attribute of CONTENT_ATTRIBUTES) {
    names[`#${attribute}`] = attribute;
    const value = read[attribute];
    if (value === undefined) terms.push(`attribute_not_exists(#${attribute})`);
    else {
      values[`:was_${attribute}`] = value;
      terms.push(`#${attribute} = :was_${attribute}`);
    }
  }
  return { expression: terms.join(' AND '), names, values };
}
