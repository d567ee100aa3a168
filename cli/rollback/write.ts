// The one write `landlord rollback` makes: an UpdateItem that puts a revision's content back on the
// row, conditional on the row's content being exactly what rollback read (and found equal to the
// newest revision). A write made by anyone in between fails the condition, and nothing changes.
// Pure: the request is built here and sent by run.ts.
import type { AttributeValue, UpdateItemCommandInput } from '@aws-sdk/client-dynamodb';
import { DEFAULT_STATE } from '../../api/tenant.js';
import type { Revision } from '../../api/revision.js';
import { NOTE_ATTRIBUTE } from '../../api/row-notes.js';
import { unchangedCondition } from '../../sync/dynamo/unchanged.js';

type Item = Record<string, AttributeValue>;

export interface RollbackWrite {
  table: string;
  /** The row as rollback read it, strongly consistent. */
  read: Item;
  target: Revision;
  changedBy: string;
}

/**
 * SET the target's spec and customizations (as JSON text, the seed format), its state, class and
 * hosts (REMOVE when it had none, so the row reads as the revision did), and the change note: who, why,
 * and the marker sync reads as SOURCE rollback, the hash of the content written.
 */
export function rollbackUpdate({ table, read, target, changedBy }: RollbackWrite): UpdateItemCommandInput {
  const { spec } = target.row;
  const set: Record<string, AttributeValue> = {
    spec: { S: JSON.stringify(spec.deployment) },
    customizations: { S: JSON.stringify(spec.configMaps ?? []) },
    [NOTE_ATTRIBUTE.changedBy]: { S: changedBy },
    [NOTE_ATTRIBUTE.changeReason]: { S: `rollback to revision ${target.revision}` },
    [NOTE_ATTRIBUTE.rollbackHash]: { S: target.hash },
  };
  const remove: string[] = [];
  const state = spec.state ?? DEFAULT_STATE;
  if (state === DEFAULT_STATE) remove.push('state');
  else set.state = { S: state };
  if (spec.class === undefined) remove.push('class');
  else set.class = { S: spec.class };
  if (spec.hosts === undefined || spec.hosts.length === 0) remove.push('hosts');
  else set.hosts = { L: spec.hosts.map((host) => ({ S: host })) };
  const condition = unchangedCondition(read);
  const names = { ...condition.names };
  const values = { ...condition.values };
  const assignments = Object.entries(set).map(([attribute, value]) => {
    names[`#${attribute}`] = attribute;
    values[`:${attribute}`] = value;
    return `#${attribute} = :${attribute}`;
  });
  const removal = remove.length === 0 ? '' : ` REMOVE ${remove.map((a) => `#${a}`).join(', ')}`;
  return {
    TableName: table,
    Key: { name: { S: target.row.name } },
    UpdateExpression: `SET ${assignments.join(', ')}${removal}`,
    ConditionExpression: condition.expression,
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: values,
  };
}
