// The projection every scan and point read uses must carry each attribute the row parser reads:
// a missing one reads as absent, so a scan would silently undo what the stream applied (a state
// reverting to active on the next resync, as the lifecycle e2e test once caught).
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { describe, expect, it } from 'vitest';
import { parseRow } from '../row/index.js';
import { ROW_PROJECTION } from './scan.js';

/** The item as DynamoDB returns it under the projection. */
function projected(item: Record<string, AttributeValue>): Record<string, AttributeValue> {
  const names = new Set<string>(Object.values(ROW_PROJECTION.ExpressionAttributeNames));
  return Object.fromEntries(Object.entries(item).filter(([key]) => names.has(key)));
}

describe('ROW_PROJECTION', () => {
  it.each<[string, Record<string, AttributeValue>]>([
    [
      'a row with every attribute of the contract',
      {
        name: { S: 'acme' },
        spec: { S: '{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web"}}' },
        customizations: { S: '[{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c"}}]' },
        deleted: { BOOL: false },
        state: { S: 'archived' },
        owner: { S: 'team-a' },
      },
    ],
    ['a row with a bad state', { name: { S: 'acme' }, spec: { S: '{}' }, state: { S: 'gone' } }],
    ['a deleted row', { name: { S: 'acme' }, deleted: { BOOL: true } }],
    [
      'a row with a change note',
      { name: { S: 'acme' }, spec: { S: '{}' }, changedBy: { S: 'alice' }, changeReason: { S: 'why' } },
    ],
  ])('reads %s as the whole item reads', (_case, item) => {
    expect(parseRow(projected(item))).toEqual(parseRow(item));
  });
});
