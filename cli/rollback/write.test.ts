import { describe, expect, it } from 'vitest';
import { rollbackUpdate, unchangedCondition } from './write.js';

type Target = Parameters<typeof rollbackUpdate>[0]['target'];

const deployment = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web' } };
const target = (spec: Partial<Target['row']['spec']> = {}): Target => ({
  revision: 1,
  source: 'stream',
  hash: 'h1',
  appliedAt: '2026-01-01T00:00:00.000Z',
  row: { name: 'acme', spec: { deployment, configMaps: [], state: 'active', ...spec } },
});

describe('unchangedCondition', () => {
  it('holds each content attribute to the value read, or to its absence', () => {
    const condition = unchangedCondition({
      name: { S: 'acme' },
      spec: { S: '{}' },
      customizations: { L: [] },
      deleted: { BOOL: false },
      changedBy: { S: 'bob' },
    });
    expect(condition.expression).toBe(
      'attribute_exists(#name) AND #spec = :was_spec AND #customizations = :was_customizations AND ' +
        'attribute_not_exists(#state) AND attribute_not_exists(#class) AND attribute_not_exists(#hosts) AND ' +
        '#deleted = :was_deleted AND ' +
        'attribute_not_exists(#cluster)',
    );
    expect(condition.values).toEqual({
      ':was_spec': { S: '{}' },
      ':was_customizations': { L: [] },
      ':was_deleted': { BOOL: false },
    });
    // Who changed the row is not its content: a note written meanwhile does not stop a rollback.
    expect(Object.values(condition.names)).not.toContain('changedBy');
  });
});

describe('rollbackUpdate', () => {
  it("sets the revision's content and note, removes what it did not have, on the condition", () => {
    const read = { name: { S: 'acme' }, spec: { S: '{"old":1}' }, state: { S: 'suspended' } };
    const update = rollbackUpdate({ table: 't', read, target: target(), changedBy: 'landlord rollback' });
    expect(update).toMatchObject({ TableName: 't', Key: { name: { S: 'acme' } } });
    expect(update.UpdateExpression).toBe(
      'SET #spec = :spec, #customizations = :customizations, #changedBy = :changedBy, ' +
        '#changeReason = :changeReason, #rollbackHash = :rollbackHash REMOVE #state, #class, #hosts',
    );
    expect(update.ExpressionAttributeValues).toMatchObject({
      ':spec': { S: JSON.stringify(deployment) },
      ':customizations': { S: '[]' },
      ':changedBy': { S: 'landlord rollback' },
      ':changeReason': { S: 'rollback to revision 1' },
      ':rollbackHash': { S: 'h1' },
      ':was_spec': { S: '{"old":1}' },
      ':was_state': { S: 'suspended' },
    });
    expect(update.ConditionExpression).toContain('#state = :was_state');
  });

  it('sets a state, class and hosts the revision had', () => {
    const update = rollbackUpdate({
      table: 't',
      read: { name: { S: 'acme' } },
      target: target({ state: 'suspended', class: 'gold', hosts: ['shop.example.org'] }),
      changedBy: 'x',
    });
    expect(update.UpdateExpression).not.toContain('REMOVE');
    expect(update.ExpressionAttributeValues).toMatchObject({
      ':state': { S: 'suspended' },
      ':class': { S: 'gold' },
      ':hosts': { L: [{ S: 'shop.example.org' }] },
    });
  });
});
