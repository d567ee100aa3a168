// The table's key as DynamoDB describes it, and the one partition key value a purge may touch.
// The configured partitionKey must be the table's HASH key: a purge deletes by key equality, never
// by scanning or filtering on another attribute.
import type { AttributeValue, KeySchemaElement, TableDescription } from '@aws-sdk/client-dynamodb';
import { PermanentPurgeError } from './errors.js';

export type KeyType = 'S' | 'N' | 'B';

export interface TableKey {
  hash: string;
  hashType: KeyType;
  /** The sort key attribute, when the table has one. */
  range: string | undefined;
}

/** The key of a described table, checked against the configured partition key attribute. */
export function tableKey(table: string, description: TableDescription, partitionKey: string): TableKey {
  const hash = keyAttribute(description.KeySchema, 'HASH');
  if (hash !== partitionKey) {
    throw new PermanentPurgeError(
      `table ${table}: partitionKey ${JSON.stringify(partitionKey)} is not the table's partition (HASH) key ${JSON.stringify(hash ?? '')}`,
    );
  }
  const type = description.AttributeDefinitions?.find((d) => d.AttributeName === hash)?.AttributeType;
  if (type !== 'S' && type !== 'N' && type !== 'B') {
    throw new PermanentPurgeError(
      `table ${table}: the partition key's type ${String(type)} is not S, N or B`,
    );
  }
  return { hash, hashType: type, range: keyAttribute(description.KeySchema, 'RANGE') };
}

function keyAttribute(schema: KeySchemaElement[] | undefined, kind: 'HASH' | 'RANGE'): string | undefined {
  return schema?.find((k) => k.KeyType === kind)?.AttributeName;
}

// A number exactly as DynamoDB gives it back (no sign, leading zeros, trailing zeros or exponent),
// so that the check of every returned key can compare text with text.
const CANONICAL_NUMBER = /^-?(0|[1-9][0-9]*)(\.[0-9]*[1-9])?$/;

/** The partition key value as an AttributeValue of the table's key type. */
export function partitionKeyValue(table: string, type: KeyType, value: string): AttributeValue {
  if (type === 'S') return { S: value };
  if (type === 'B') return { B: Buffer.from(value, 'utf8') };
  if (!CANONICAL_NUMBER.test(value) || value === '-0' || value.replace(/[-.]/g, '').length > 38) {
    throw new PermanentPurgeError(
      `table ${table}: the partition key is a number, but the tenant's value ${JSON.stringify(value)} is not one (write it as DynamoDB does, e.g. 42 or -1.5)`,
    );
  }
  return { N: value };
}

/** Whether a key attribute DynamoDB returned holds exactly the partition value asked for. */
export function samePartition(found: AttributeValue | undefined, wanted: AttributeValue): boolean {
  if (found === undefined) return false;
  if (wanted.S !== undefined) return found.S === wanted.S;
  if (wanted.N !== undefined) return found.N === wanted.N;
  if (wanted.B !== undefined && found.B !== undefined)
    return Buffer.from(found.B).equals(Buffer.from(wanted.B));
  return false;
}
