import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { fromTables, sourceTableLabel, tableMismatch } from './table-identity.js';
import { ANNOTATION, API_VERSION, KIND, LABEL, MANAGED_BY, type Tenant } from './tenant.js';

function tenant(labels: Record<string, string>, annotations: Record<string, string> = {}): Tenant {
  return { apiVersion: API_VERSION, kind: KIND, metadata: { name: 'acme', labels, annotations } };
}

const marked = (table: string, annotated = table): Tenant =>
  tenant(
    { [LABEL.managedBy]: MANAGED_BY.sync, [LABEL.sourceTable]: sourceTableLabel(table) },
    { [ANNOTATION.table]: annotated },
  );

/** sync's labels without the annotation (removed by hand, or made before it existed). */
const unannotated = (table: string): Tenant => {
  const t = marked(table);
  t.metadata.annotations = {};
  return t;
};

describe('sourceTableLabel', () => {
  it('is 16 hex digits of sha256 of the name, a valid label value for a 255-character name', () => {
    const sha = createHash('sha256').update('tenants').digest('hex');
    expect(sourceTableLabel('tenants')).toBe(sha.slice(0, 16));
    expect(sourceTableLabel('a'.repeat(255))).toMatch(/^[0-9a-f]{16}$/);
    expect(sourceTableLabel('tenants')).not.toBe(sourceTableLabel('tenants-eu'));
  });
});

describe('tableMismatch', () => {
  it.each<[string, Tenant, ReturnType<typeof tableMismatch>]>([
    ["sync's marks for the table", marked('tenants'), undefined],
    ['the label without the annotation', unannotated('tenants'), undefined],
    ['no managed-by label (made by hand)', tenant({}), { cause: 'unmarked' }],
    [
      "managed by the operator's value, not sync's",
      tenant({ [LABEL.managedBy]: MANAGED_BY.operator, [LABEL.sourceTable]: sourceTableLabel('tenants') }),
      { cause: 'unmarked' },
    ],
    ["another table's marks", marked('billing'), { cause: 'otherTable', otherTable: 'billing' }],
    ["another table's label, no annotation", unannotated('billing'), { cause: 'otherTable' }],
    [
      "this table's label, another's annotation",
      marked('tenants', 'billing'),
      { cause: 'otherTable', otherTable: 'billing' },
    ],
    [
      "another table's label, this table's annotation (written by hand)",
      marked('billing', 'tenants'),
      { cause: 'otherTable', otherTable: 'tenants' },
    ],
  ])('%s', (_name, t, expected) => {
    expect(tableMismatch(t, 'tenants')).toEqual(expected);
  });
});

describe('fromTables', () => {
  it.each<[string, Tenant, string[], ReturnType<typeof fromTables>]>([
    ['the first table', marked('tenants'), ['tenants', 'tenants-eu'], { table: 'tenants' }],
    ['the second table', marked('tenants-eu'), ['tenants', 'tenants-eu'], { table: 'tenants-eu' }],
    [
      'none of them',
      marked('billing'),
      ['tenants', 'tenants-eu'],
      { mismatch: { cause: 'otherTable', otherTable: 'billing' } },
    ],
    [
      'no table configured, marked',
      marked('tenants'),
      [],
      { mismatch: { cause: 'otherTable', otherTable: 'tenants' } },
    ],
    ['no table configured, by hand', tenant({}), [], { mismatch: { cause: 'unmarked' } }],
    ['by hand, tables configured', tenant({}), ['tenants'], { mismatch: { cause: 'unmarked' } }],
  ])('%s', (_name, t, tables, expected) => {
    expect(fromTables(t, tables)).toEqual(expected);
  });
});
