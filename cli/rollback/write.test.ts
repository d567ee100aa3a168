import { describe, expect, it } from 'vitest';
import { rollbackUpdate } from './write.js';

type Target = Parameters<typeof rollbackUpdate>[0]['target'];

const deployment = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web' } };
const target = (spec: Partial<Target['row']['spec']> = {}): Target => ({
  revision: 1,
  source: 'stream',
  hash: 'h1',
  appliedAt: '2026-01-01T00:00:00.000Z',
  row: { name: 'acme', spec: { deployment, configMaps: [], state: 'active', ...spec } },
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
