import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { STATUS_ENTRY, entry, syncEntry, writtenBy } from '../testing/stamp.js';
import {
  fromTables,
  sourceTableLabel,
  stampProof,
  stampedBySync,
  tableMismatch,
  withStampProof,
} from './table-identity.js';
import { ANNOTATION, API_VERSION, FIELD_MANAGER, KIND, LABEL, MANAGED_BY, type Tenant } from './tenant.js';

function tenant(labels: Record<string, string>, annotations: Record<string, string> = {}): Tenant {
  return { apiVersion: API_VERSION, kind: KIND, metadata: { name: 'acme', labels, annotations } };
}

/** sync's marks for the table, written by sync (its apply owns them). */
const marked = (table: string, annotated = table): Tenant =>
  writtenBy(
    tenant(
      { [LABEL.managedBy]: MANAGED_BY.sync, [LABEL.sourceTable]: sourceTableLabel(table) },
      { [ANNOTATION.table]: annotated },
    ),
    syncEntry(),
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
    [
      "sync's marks for the table, written by hand (kubectl)",
      writtenBy(
        marked('tenants'),
        entry('kubectl-create', 'Update', { 'f:labels': {}, 'f:annotations': {} }),
      ),
      ['tenants'],
      { mismatch: { cause: 'unmarked' } },
    ],
  ])('%s', (_name, t, tables, expected) => {
    expect(fromTables(t, tables)).toEqual(expected);
  });
});

describe('stampedBySync', () => {
  const stamped = marked('tenants');
  /** Both fields of the stamp, as an entry records them. */
  const STAMP = {
    'f:annotations': { [`f:${ANNOTATION.table}`]: {} },
    'f:labels': { [`f:${LABEL.sourceTable}`]: {} },
  };
  it.each<[string, Tenant, boolean]>([
    ["sync's apply owns both fields", stamped, true],
    ["sync's create owns both (before its first apply)", writtenBy(stamped, syncEntry('Update')), true],
    [
      "sync's entry among others'",
      writtenBy(stamped, STATUS_ENTRY, syncEntry(), entry('kubectl', 'Update', {})),
      true,
    ],
    ['no managedFields (as a cache without the proof holds it)', writtenBy(stamped), false],
    [
      'written by kubectl, not sync',
      writtenBy(stamped, entry('kubectl-client-side-apply', 'Update', STAMP)),
      false,
    ],
    [
      "sync's entry without the annotation (a person changed it since: it moved to their entry)",
      writtenBy(
        stamped,
        entry(FIELD_MANAGER.sync, 'Apply', { 'f:labels': { [`f:${LABEL.sourceTable}`]: {} } }),
      ),
      false,
    ],
    [
      "sync's entry without the label",
      writtenBy(
        stamped,
        entry(FIELD_MANAGER.sync, 'Apply', { 'f:annotations': { [`f:${ANNOTATION.table}`]: {} } }),
      ),
      false,
    ],
    ["sync's name on a status entry", writtenBy(stamped, { ...syncEntry(), subresource: 'status' }), false],
    [
      'another component of landlord',
      writtenBy(stamped, entry(FIELD_MANAGER.operator, 'Apply', STAMP)),
      false,
    ],
  ])('%s: %s', (_name, t, expected) => {
    expect(stampedBySync(t)).toBe(expected);
  });
});

describe('stampProof: what a Tenant cache keeps of managedFields', () => {
  it("keeps sync's entry cut down to the stamp, one frozen list shared by every Tenant", () => {
    const [a, b] = [stampProof([STATUS_ENTRY, syncEntry()]), stampProof([syncEntry(), STATUS_ENTRY])];
    expect(a).toBe(b);
    expect(Object.isFrozen(a)).toBe(true);
    expect(a).toEqual([
      {
        manager: FIELD_MANAGER.sync,
        operation: 'Apply',
        fieldsType: 'FieldsV1',
        fieldsV1: {
          'f:metadata': {
            'f:annotations': { [`f:${ANNOTATION.table}`]: {} },
            'f:labels': { [`f:${LABEL.sourceTable}`]: {} },
          },
        },
      },
    ]);
    expect(stampProof([syncEntry('Update')])[0]?.operation).toBe('Update');
  });

  it('keeps nothing of a Tenant sync did not stamp', () => {
    expect(stampProof([])).toEqual([]);
    expect(stampProof([STATUS_ENTRY, entry('kubectl', 'Update', {})])).toEqual([]);
  });

  it('proves to stampedBySync what the entries did, and keeps itself when kept again', () => {
    const kept = stampProof([syncEntry()]);
    expect(stampedBySync(writtenBy(marked('tenants'), ...kept))).toBe(true);
    expect(stampProof(kept)).toBe(kept);
  });

  it("withStampProof: the metadata as sync's apply leaves it, stamped once", () => {
    const metadata = withStampProof(writtenBy(marked('tenants'), syncEntry(), STATUS_ENTRY).metadata);
    expect(stampedBySync({ ...marked('tenants'), metadata })).toBe(true);
    expect(metadata.managedFields).toEqual([STATUS_ENTRY, ...stampProof([syncEntry()])]);
  });
});
