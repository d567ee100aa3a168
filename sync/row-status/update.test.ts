import { describe, expect, it } from 'vitest';
import { rowStatusUpdate } from './update.js';

const status = { phase: 'Ready', ready: true, url: '', message: 'ready', observedHash: 'h1' };

describe('rowStatusUpdate', () => {
  const read = {
    name: { S: 'acme' },
    spec: { M: { apiVersion: { S: 'apps/v1' } } },
    customizations: { S: '[]' },
    hosts: { L: [{ S: 'shop.example.com' }] },
    changedBy: { S: 'signup' },
    landlord: { M: { phase: { S: 'RolloutInProgress' } } },
  };
  const update = rowStatusUpdate({ table: 't', name: 'acme', read, status, now: new Date(0) });

  it('sets the landlord attribute and nothing else', () => {
    expect(update).toMatchObject({ TableName: 't', Key: { name: { S: 'acme' } } });
    expect(update.UpdateExpression).toBe('SET #landlord = :landlord');
    expect(update.ExpressionAttributeNames?.['#landlord']).toBe('landlord');
    expect(update.ExpressionAttributeValues?.[':landlord']?.M?.phase).toEqual({ S: 'Ready' });
  });

  it('holds the row to the content read: each attribute the hash covers, its placement, its existence', () => {
    expect(update.ConditionExpression).toBe(
      'attribute_exists(#name) AND #spec = :was_spec AND #customizations = :was_customizations AND ' +
        'attribute_not_exists(#state) AND attribute_not_exists(#class) AND #hosts = :was_hosts AND ' +
        'attribute_not_exists(#deleted) AND attribute_not_exists(#cluster)',
    );
    expect(update.ExpressionAttributeValues).toMatchObject({
      ':was_spec': read.spec,
      ':was_customizations': read.customizations,
      ':was_hosts': read.hosts,
    });
  });

  it('is not held to what the content does not depend on: the note, the landlord attribute read', () => {
    const names = Object.values(update.ExpressionAttributeNames ?? {});
    expect(names).not.toContain('changedBy');
    expect(update.ConditionExpression).not.toContain('#landlord');
  });
});
