import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { describe, expect, it } from 'vitest';
import { readNote } from './note.js';
import { parseRow } from './parse.js';

const SPEC = JSON.stringify({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web' } });
const row = (extra: Record<string, AttributeValue> = {}): Record<string, AttributeValue> => ({
  name: { S: 'acme' },
  spec: { S: SPEC },
  ...extra,
});

describe('readNote', () => {
  it('carries changedBy and changeReason, and leaves the hash alone', () => {
    const plain = parseRow(row());
    const noted = parseRow(row({ changedBy: { S: 'alice' }, changeReason: { S: 'bump' } }));
    expect(noted).toMatchObject({ kind: 'tenant', note: { changedBy: 'alice', changeReason: 'bump' } });
    expect(plain).not.toHaveProperty('note');
    expect(noted.kind === 'tenant' && plain.kind === 'tenant' && noted.hash === plain.hash).toBe(true);
  });

  it('ignores a note of the wrong type or empty, as it ignores any attribute it does not know', () => {
    expect(readNote(row({ changedBy: { N: '1' }, changeReason: { S: '' } }), 'h')).toBeUndefined();
    expect(parseRow(row({ changedBy: { BOOL: true } }))).toEqual(parseRow(row()));
  });

  it('reads a rollback only while the content is the one the rollback wrote', () => {
    const plain = parseRow(row());
    const hash = plain.kind === 'tenant' ? plain.hash : '';
    expect(parseRow(row({ rollbackHash: { S: hash } }))).toMatchObject({ note: { rollback: true } });
    const edited = row({ rollbackHash: { S: hash }, state: { S: 'suspended' } });
    expect(parseRow(edited)).not.toHaveProperty('note');
  });

  it('cuts a long note short', () => {
    const note = readNote(row({ changeReason: { S: 'x'.repeat(1000) } }), 'h');
    expect(note?.changeReason?.length).toBeLessThanOrEqual(257);
  });
});
