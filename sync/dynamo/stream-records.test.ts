import type { _Record } from '@aws-sdk/client-dynamodb-streams';
import { describe, expect, it } from 'vitest';
import { toBatch, toChange } from './stream-records.js';

const image = { name: { S: 'a' }, spec: { S: '{}' } };

describe('toChange', () => {
  it('reads INSERT and MODIFY records from their new image', () => {
    for (const eventName of ['INSERT', 'MODIFY'] as const) {
      const record: _Record = { eventName, dynamodb: { Keys: { name: { S: 'a' } }, NewImage: image } };
      expect(toChange(record)).toEqual({ kind: 'upsert', item: image });
    }
  });

  it('reads a REMOVE record as the row being gone, from its key', () => {
    const record: _Record = {
      eventName: 'REMOVE',
      dynamodb: { Keys: { name: { S: 'a' } }, OldImage: image },
    };
    expect(toChange(record)).toEqual({ kind: 'remove', name: 'a' });
  });

  it('skips records it cannot read', () => {
    expect(toChange({ eventName: 'REMOVE', dynamodb: { Keys: { name: { N: '1' } } } })).toBeUndefined();
    expect(toChange({ eventName: 'MODIFY', dynamodb: { Keys: { name: { S: 'a' } } } })).toBeUndefined();
  });
});

describe('toBatch', () => {
  it('keeps the order of the records and the time of the newest', () => {
    const at = new Date('2026-01-01T00:00:00Z');
    const batch = toBatch([
      { eventName: 'INSERT', dynamodb: { NewImage: image } },
      { eventName: 'REMOVE', dynamodb: { Keys: { name: { S: 'a' } }, ApproximateCreationDateTime: at } },
    ]);
    expect(batch).toEqual({
      changes: [
        { kind: 'upsert', item: image },
        { kind: 'remove', name: 'a' },
      ],
      newestAt: at,
    });
  });
});
