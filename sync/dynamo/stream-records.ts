// A stream record to a change of one row. A written row carries its new content (NewImage), read
// exactly like a scanned row; a deleted row carries only its key.
import type { _Record } from '@aws-sdk/client-dynamodb-streams';
import type { Change, ChangeBatch, Item } from './table-source.js';

export function toChange(record: _Record): Change | undefined {
  const data = record.dynamodb;
  const name = data?.Keys?.name?.S;
  if (record.eventName === 'REMOVE') return name === undefined ? undefined : { kind: 'remove', name };
  // The streams client types images with its own AttributeValue, the same shape as DynamoDB's.
  const image: Item | undefined = data?.NewImage;
  return image === undefined ? undefined : { kind: 'upsert', item: image };
}

export function toBatch(records: readonly _Record[]): ChangeBatch {
  const changes = records.map(toChange).filter((change) => change !== undefined);
  const newestAt = records.at(-1)?.dynamodb?.ApproximateCreationDateTime;
  return newestAt === undefined ? { changes } : { changes, newestAt };
}
