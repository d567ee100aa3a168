import type { TableDescription } from '@aws-sdk/client-dynamodb';
import { describe, expect, it } from 'vitest';
import { hasClusterIndex } from './dynamo-source.js';
import { clusterQueryInput } from './query.js';

describe('hasClusterIndex', () => {
  const table = (keyName: string): TableDescription => ({
    GlobalSecondaryIndexes: [
      { IndexName: 'cluster-index', KeySchema: [{ AttributeName: keyName, KeyType: 'HASH' }] },
    ],
  });

  it('finds the index only when it is keyed by cluster', () => {
    expect(hasClusterIndex(table('cluster'), 'cluster-index')).toBe(true);
    expect(hasClusterIndex(table('region'), 'cluster-index')).toBe(false);
    expect(hasClusterIndex(table('cluster'), 'other')).toBe(false);
    expect(hasClusterIndex({}, 'cluster-index')).toBe(false);
  });
});

describe('clusterQueryInput', () => {
  it("asks the index for one cluster's rows, with the scan's projection, from where the last page ended", () => {
    const input = clusterQueryInput(
      { table: 't', index: 'cluster-index', cluster: 'b' },
      { name: { S: 'x' } },
    );
    expect(input).toMatchObject({
      TableName: 't',
      IndexName: 'cluster-index',
      KeyConditionExpression: '#cluster = :cluster',
      ExpressionAttributeValues: { ':cluster': { S: 'b' } },
      ExclusiveStartKey: { name: { S: 'x' } },
    });
    expect(input.ProjectionExpression).toContain('#cluster');
    // A GSI cannot be read strongly consistent: asking would fail every poll.
    expect(input.ConsistentRead).toBeUndefined();
  });
});
