import type { TableDescription } from '@aws-sdk/client-dynamodb';
import { describe, expect, it } from 'vitest';
import { PermanentPurgeError } from './errors.js';
import { partitionKeyValue, samePartition, tableKey } from './key-schema.js';

const described = (hashType: string, range?: string): TableDescription =>
  ({
    KeySchema: [
      { AttributeName: 'pk', KeyType: 'HASH' },
      ...(range === undefined ? [] : [{ AttributeName: range, KeyType: 'RANGE' }]),
    ],
    AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: hashType }],
  }) as TableDescription;

describe('tableKey', () => {
  it('reads the hash key, its type and the sort key', () => {
    expect(tableKey('t', described('S', 'sk'), 'pk')).toEqual({ hash: 'pk', hashType: 'S', range: 'sk' });
    expect(tableKey('t', described('N'), 'pk')).toEqual({ hash: 'pk', hashType: 'N', range: undefined });
  });

  it('refuses a partitionKey that is not the HASH key, the sort key included', () => {
    expect(() => tableKey('t', described('S', 'sk'), 'sk')).toThrow(PermanentPurgeError);
    expect(() => tableKey('t', described('S', 'sk'), 'tenant')).toThrow(
      /is not the table's partition \(HASH\) key "pk"/,
    );
  });
});

describe('partitionKeyValue', () => {
  it('builds the value of the key type', () => {
    expect(partitionKeyValue('t', 'S', 'TENANT#acme')).toEqual({ S: 'TENANT#acme' });
    expect(partitionKeyValue('t', 'N', '-12.5')).toEqual({ N: '-12.5' });
    expect(partitionKeyValue('t', 'B', 'acme')).toEqual({ B: Buffer.from('acme') });
  });

  it.each(['acme', '', '1e3', '007', '1.50', '+1', '-0', ' 1', '1'.repeat(39)])(
    'refuses %j for a number key: DynamoDB would not give it back as written',
    (value) => {
      expect(() => partitionKeyValue('t', 'N', value)).toThrow(PermanentPurgeError);
    },
  );
});

describe('samePartition', () => {
  it('matches the exact value only, never a neighbour sharing a prefix', () => {
    const acme = { S: 'TENANT#acme' };
    expect(samePartition({ S: 'TENANT#acme' }, acme)).toBe(true);
    for (const other of ['TENANT#acme2', 'TENANT#acme-eu', 'TENANT#acme#x', 'TENANT#acm', 'tenant#acme']) {
      expect(samePartition({ S: other }, acme)).toBe(false);
    }
    expect(samePartition({ N: '1' }, { S: '1' })).toBe(false);
    expect(samePartition(undefined, acme)).toBe(false);
  });

  it('compares numbers as DynamoDB writes them and binaries byte by byte', () => {
    expect(samePartition({ N: '42' }, { N: '42' })).toBe(true);
    expect(samePartition({ N: '420' }, { N: '42' })).toBe(false);
    expect(samePartition({ B: Uint8Array.from([1, 2]) }, { B: Buffer.from([1, 2]) })).toBe(true);
    expect(samePartition({ B: Uint8Array.from([1, 2, 3]) }, { B: Buffer.from([1, 2]) })).toBe(false);
  });
});
