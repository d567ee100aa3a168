// The one write sync makes to its table: an UpdateItem that sets the `landlord` attribute and
// touches nothing else, on the condition that the row still holds the content sync read (the
// attributes the row hash covers, and its placement). Pure: built here, sent by dynamo/.
//
// Why this condition: it is the cheapest one that is sound. Rows carry no version attribute sync
// could compare, and DynamoDB cannot hash; comparing the content attributes to the values just read
// costs no capacity (a conditional write is billed by item size, whatever the condition), only the
// request's bytes. It fails on any edit that changes what the tenant is (so readiness is never
// claimed for a row the Tenant does not run) and on a row deleted meanwhile (an UpdateItem would
// otherwise recreate it as a stub). Edits of anything else (a change note, `landlord` itself) pass:
// they change nothing the content describes.
import type { AttributeValue, UpdateItemCommandInput } from '@aws-sdk/client-dynamodb';
import { unchangedCondition } from '../dynamo/unchanged.js';
import { ROW_STATUS_ATTRIBUTE, rowStatusAttribute, type RowStatus } from './content.js';

export interface RowStatusWrite {
  table: string;
  name: string;
  /** The row as sync read it just before, strongly consistent. */
  read: Record<string, AttributeValue>;
  status: RowStatus;
  now: Date;
}

export function rowStatusUpdate({ table, name, read, status, now }: RowStatusWrite): UpdateItemCommandInput {
  const condition = unchangedCondition(read);
  return {
    TableName: table,
    Key: { name: { S: name } },
    UpdateExpression: 'SET #landlord = :landlord',
    ConditionExpression: condition.expression,
    ExpressionAttributeNames: { ...condition.names, '#landlord': ROW_STATUS_ATTRIBUTE },
    ExpressionAttributeValues: { ...condition.values, ':landlord': rowStatusAttribute(status, now) },
  };
}
