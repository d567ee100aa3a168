// The row parser against every way a row can be written or broken, one case per attribute and
// problem. The cases are the row contract's specification, so they stay together in one file.
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TENANT_STATES } from '../../api/tenant.js';
import { contentHash } from '../../util/canonical-json.js';
import { DNS1123_LABEL_RULE } from '../../util/names.js';
import { canonicalJson, isDns1123Label, parseRow, rowHash } from './index.js';
import type { ParsedRow, RowProblemAttribute } from './index.js';
import { nativeForm } from '../../testing/rows.js';

type Item = Record<string, AttributeValue>;

// The seed row exactly as users write it (DocumentClient form): the contract this module keeps.
const EXAMPLE_ROW = String.raw`{"name":"tenant-1","spec":"{\"apiVersion\":\"apps/v1\",\"kind\":\"Deployment\",\"metadata\":{\"name\":\"tenant-1-app\",\"namespace\":\"default\"},\"spec\":{\"replicas\":1,\"selector\":{\"matchLabels\":{\"app\":\"tenant-1\"}},\"template\":{\"metadata\":{\"labels\":{\"app\":\"tenant-1\"}},\"spec\":{\"containers\":[{\"name\":\"app\",\"image\":\"nginx:latest\"}]}}}}","customizations":"[{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"tenant-1-config\",\"namespace\":\"default\"},\"data\":{\"config.json\":\"{\\\"key\\\": \\\"value\\\"}\"}}]","deleted":false}`;

const DEPLOYMENT = {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'tenant-1-app', namespace: 'default' },
  spec: {
    replicas: 1,
    selector: { matchLabels: { app: 'tenant-1' } },
    template: {
      metadata: { labels: { app: 'tenant-1' } },
      spec: { containers: [{ name: 'app', image: 'nginx:latest' }] },
    },
  },
};

const CONFIG_MAP = {
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name: 'tenant-1-config', namespace: 'default' },
  data: { 'config.json': '{"key": "value"}' },
};

/** A DocumentClient-form row (strings and booleans only, as users write them) as a low-level item. */
function fromDocument(document: Record<string, string | boolean>): Item {
  return Object.fromEntries(
    Object.entries(document).map(([key, value]) => [
      key,
      typeof value === 'string' ? { S: value } : { BOOL: value },
    ]),
  );
}

const exampleItem = (): Item => fromDocument(JSON.parse(EXAMPLE_ROW) as Record<string, string | boolean>);

function row(overrides: Record<string, unknown>): Item {
  return { ...exampleItem(), ...overrides } as Item;
}

function without(attribute: string): Item {
  const item = exampleItem();
  delete item[attribute];
  return item;
}

function problemOf(result: ParsedRow): { attribute: RowProblemAttribute; message: string } | undefined {
  return result.kind === 'invalid' ? result.problem : undefined;
}

// Size cases run real 400 KB inputs: quadratic work would show as a hung test, never as an assertion on time.
function timed<T>(work: () => T): { value: T } {
  return { value: work() };
}

describe('parseRow: the example row', () => {
  it('parses to the Deployment tenant-1-app and the ConfigMap tenant-1-config', () => {
    const result = parseRow(exampleItem());
    expect(result).toEqual({
      kind: 'tenant',
      name: 'tenant-1',
      spec: { deployment: DEPLOYMENT, configMaps: [CONFIG_MAP], state: 'active' },
      hash: rowHash({ deployment: DEPLOYMENT, configMaps: [CONFIG_MAP] }),
    });
  });

  it('hashes as it did before rows had a state, so upgrading sync rewrites no Tenant', () => {
    const result = parseRow(exampleItem());
    // The seed row's hash as the release before states computed it.
    const before = contentHash({ deployment: DEPLOYMENT, configMaps: [CONFIG_MAP] });
    expect(result.kind === 'tenant' ? result.hash : undefined).toBe(before);
  });

  it('parses the same from native M and L, with the same hash', () => {
    const native = row({ spec: nativeForm(DEPLOYMENT), customizations: nativeForm([CONFIG_MAP]) });
    expect(native.spec).toHaveProperty('M.spec.M.replicas', { N: '1' });
    expect(parseRow(native)).toEqual(parseRow(exampleItem()));
  });

  it('reads a native N as a JS number', () => {
    const deployment = { ...DEPLOYMENT, spec: { ...DEPLOYMENT.spec, replicas: 3 } };
    const result = parseRow(row({ spec: nativeForm(deployment) }));
    expect(result.kind === 'tenant' ? result.spec.deployment?.spec?.replicas : undefined).toBe(3);
  });

  it('hashes the same whatever the key order of the JSON text', () => {
    const reordered = {
      spec: DEPLOYMENT.spec,
      metadata: DEPLOYMENT.metadata,
      kind: 'Deployment',
      apiVersion: 'apps/v1',
    };
    const a = parseRow(exampleItem());
    const b = parseRow(row({ spec: { S: JSON.stringify(reordered, null, 2) } }));
    expect(b.kind === 'tenant' && a.kind === 'tenant' && b.hash === a.hash).toBe(true);
  });

  it('hashes differently when a value differs', () => {
    const a = parseRow(exampleItem());
    const b = parseRow(row({ spec: { S: JSON.stringify({ ...DEPLOYMENT, kind: 'deployment' }) } }));
    expect(a.kind === 'tenant' && b.kind === 'tenant' && a.hash !== b.hash).toBe(true);
  });

  it('ignores attributes it does not know', () => {
    const extra = row({
      owner: { S: 'team-a' },
      region: { N: '2' },
      tags: { SS: ['x'] },
      constructor: { S: 'x' },
    });
    expect(parseRow(extra)).toEqual(parseRow(exampleItem()));
  });

  it('returns fresh objects on every call', () => {
    const item = row({ spec: nativeForm(DEPLOYMENT) });
    const first = parseRow(item);
    const second = parseRow(item);
    expect(first).toEqual(second);
    expect(first.kind === 'tenant' && second.kind === 'tenant' && first.spec !== second.spec).toBe(true);
    if (first.kind === 'tenant') {
      first.spec.deployment = undefined;
    }
    expect(parseRow(item)).toEqual(second);
  });
});

describe('parseRow: no ConfigMaps', () => {
  const none = parseRow(row({ customizations: { S: '[]' } }));

  it.each<[string, Item]>([
    ['absent', without('customizations')],
    ['NULL', row({ customizations: { NULL: true } })],
    ['an empty L', row({ customizations: { L: [] } })],
  ])('reads customizations %s as none, with the same hash as "[]"', (_case, item) => {
    const result = parseRow(item);
    expect(result).toEqual(none);
    expect(result.kind === 'tenant' ? result.spec.configMaps : undefined).toEqual([]);
  });
});

describe('parseRow: state', () => {
  const ALLOWED = 'allowed: active, suspended, archived, purged (absent: active)';
  const stateOf = (result: ParsedRow): string | undefined =>
    result.kind === 'tenant' ? result.spec.state : undefined;
  const hashOf = (result: ParsedRow): string | undefined =>
    result.kind === 'tenant' ? result.hash : undefined;

  it.each(TENANT_STATES)('reads state %s', (state) => {
    expect(stateOf(parseRow(row({ state: { S: state } })))).toBe(state);
  });

  it.each<[string, Item]>([
    ['absent', exampleItem()],
    ['NULL', row({ state: { NULL: true } })],
    ['"active"', row({ state: { S: 'active' } })],
  ])('reads state %s as active, with the hash of a row without one', (_case, item) => {
    const result = parseRow(item);
    expect(stateOf(result)).toBe('active');
    expect(hashOf(result)).toBe(hashOf(parseRow(without('state'))));
  });

  it('hashes every state differently, so a changed state is applied', () => {
    const hashes = TENANT_STATES.map((state) => hashOf(parseRow(row({ state: { S: state } }))));
    expect(new Set(hashes).size).toBe(TENANT_STATES.length);
  });

  it.each<[string, Item, string]>([
    ['misspelt', row({ state: { S: 'archvied' } }), `state: "archvied" is not a state; ${ALLOWED}`],
    ['capitalised', row({ state: { S: 'Suspended' } }), `state: "Suspended" is not a state; ${ALLOWED}`],
    ['empty', row({ state: { S: '' } }), `state: "" is not a state; ${ALLOWED}`],
    [
      '"paused" (an annotation, not a state)',
      row({ state: { S: 'paused' } }),
      `state: "paused" is not a state; ${ALLOWED}`,
    ],
    ['a BOOL', row({ state: { BOOL: true } }), `state: must be a string (S), got BOOL true; ${ALLOWED}`],
    ['an N', row({ state: { N: '2' } }), `state: must be a string (S), got N 2; ${ALLOWED}`],
    [
      'an SS',
      row({ state: { SS: ['active'] } }),
      `state: must be a string (S), got SS (string set); ${ALLOWED}`,
    ],
  ])('refuses a state that is %s, naming the allowed values', (_case, item, message) => {
    expect(parseRow(item)).toEqual({
      kind: 'invalid',
      name: 'tenant-1',
      deleted: false,
      problem: { attribute: 'state', message },
    });
  });

  it('keeps a long unknown state short in its message', () => {
    const message = problemOf(parseRow(row({ state: { S: 'x'.repeat(5_000) } })))?.message ?? '';
    expect(message.length).toBeLessThan(200);
  });

  it('lets deleted: true win over a bad state', () => {
    expect(parseRow(row({ deleted: { BOOL: true }, state: { S: 'gone' } }))).toEqual({
      kind: 'deleted',
      name: 'tenant-1',
    });
  });
});

describe('parseRow: class', () => {
  const classOf = (result: ParsedRow): string | undefined =>
    result.kind === 'tenant' ? result.spec.class : undefined;
  const hashOf = (result: ParsedRow): string | undefined =>
    result.kind === 'tenant' ? result.hash : undefined;

  it('reads the class the row names into spec.class, and hashes it, so a class change is applied', () => {
    const gold = parseRow(row({ class: { S: 'gold' } }));
    expect(classOf(gold)).toBe('gold');
    expect(classOf(parseRow(row({ class: { S: 'team.gold-2' } })))).toBe('team.gold-2');
    const hashes = new Set(
      [gold, parseRow(row({ class: { S: 'silver' } })), parseRow(without('class'))].map(hashOf),
    );
    expect(hashes.size).toBe(3);
  });

  it.each<[string, Item]>([
    ['absent', without('class')],
    ['NULL', row({ class: { NULL: true } })],
  ])('reads class %s as none, with the hash of a row from before classes', (_case, item) => {
    const result = parseRow(item);
    expect(result.kind === 'tenant' && 'class' in result.spec).toBe(false);
    expect(result).toEqual(parseRow(exampleItem()));
  });

  it.each<[string, Item, string]>([
    ['an N', row({ class: { N: '1' } }), 'class: must be a string (S), got N 1'],
    ['a BOOL', row({ class: { BOOL: true } }), 'class: must be a string (S), got BOOL true'],
    ['upper case', row({ class: { S: 'Gold' } }), 'class: "Gold" is not a TenantClass name'],
    ['empty', row({ class: { S: '' } }), 'class: "" is not a TenantClass name'],
    ['with a slash', row({ class: { S: 'a/b' } }), 'class: "a/b" is not a TenantClass name'],
  ])('refuses a class that is %s, saying why', (_case, item, message) => {
    const result = parseRow(item);
    expect(result).toMatchObject({ kind: 'invalid', name: 'tenant-1', problem: { attribute: 'class' } });
    expect(problemOf(result)?.message).toContain(message);
  });

  it('keeps a long class short in its message', () => {
    const message = problemOf(parseRow(row({ class: { S: 'x'.repeat(5_000) } })))?.message ?? '';
    expect(message.length).toBeLessThan(300);
  });
});

describe('parseRow: cluster', () => {
  it('hashes a row the same whatever its cluster: the cluster places the Tenant, it is not its content', () => {
    const plain = parseRow(exampleItem());
    for (const cluster of [{ S: 'eu-1' }, { S: 'prod.eu-1' }, { NULL: true }] as const)
      expect(parseRow(row({ cluster }))).toEqual(plain);
  });

  it.each([
    [{ N: '2' }, 'cluster: must be a string (S), got N 2'],
    [{ S: 'EU_1' }, 'cluster: "EU_1" is not a DNS-1123 label or subdomain of at most 63 characters'],
    [{ S: 'a'.repeat(64) }, 'is not a DNS-1123 label or subdomain of at most 63 characters'],
  ])('refuses cluster %j', (cluster, message) => {
    const parsed = parseRow(row({ cluster }));
    expect(parsed).toMatchObject({ kind: 'invalid', name: 'tenant-1', problem: { attribute: 'cluster' } });
    if (parsed.kind === 'invalid') expect(parsed.problem.message).toContain(message);
  });
});

describe('parseRow: deleted', () => {
  it.each<[string, Item]>([
    ['a valid row', row({ deleted: { BOOL: true } })],
    ['a spec that is not JSON', row({ deleted: { BOOL: true }, spec: { S: '{oops' } })],
    ['no spec at all', { name: { S: 'tenant-1' }, deleted: { BOOL: true } }],
    ['bad customizations', row({ deleted: { BOOL: true }, customizations: { N: '1' } })],
  ])('wins over %s', (_case, item) => {
    expect(parseRow(item)).toEqual({ kind: 'deleted', name: 'tenant-1' });
  });

  it.each<[string, Item]>([
    ['false', row({ deleted: { BOOL: false } })],
    ['NULL', row({ deleted: { NULL: true } })],
    ['absent', without('deleted')],
  ])('keeps the tenant when deleted is %s', (_case, item) => {
    expect(parseRow(item).kind).toBe('tenant');
  });

  it('cannot delete through an invalid name, but says the row asked to', () => {
    expect(parseRow(row({ name: { S: 'Tenant_1' }, deleted: { BOOL: true } }))).toMatchObject({
      kind: 'invalid',
      name: undefined,
      deleted: true,
      problem: { attribute: 'name' },
    });
  });

  it('reports the name first when both name and deleted are bad', () => {
    expect(parseRow(row({ name: { N: '1' }, deleted: { S: 'true' } }))).toMatchObject({
      kind: 'invalid',
      name: undefined,
      deleted: false,
      problem: { attribute: 'name' },
    });
  });
});

const DNS_RULE = `(${DNS1123_LABEL_RULE})`;

describe('parseRow: refused rows', () => {
  it.each<[string, Item, RowProblemAttribute, string | RegExp]>([
    ['no name', without('name'), 'name', 'name: required'],
    ['name as N', row({ name: { N: '1' } }), 'name', 'name: must be a string (S), got N 1'],
    ['name as NULL', row({ name: { NULL: true } }), 'name', 'name: must be a string (S), got NULL'],
    [
      'name in upper case',
      row({ name: { S: 'Tenant_1' } }),
      'name',
      `name: "Tenant_1" is not a DNS-1123 label ${DNS_RULE}`,
    ],
    [
      'name with a dot',
      row({ name: { S: 'tenant.1' } }),
      'name',
      /^name: "tenant\.1" is not a DNS-1123 label/,
    ],
    ['name of 64 characters', row({ name: { S: 'a'.repeat(64) } }), 'name', /is not a DNS-1123 label/],
    ['name in unicode', row({ name: { S: 'tenänt' } }), 'name', /^name: "tenänt" is not/],
    ['empty name', row({ name: { S: '' } }), 'name', /^name: "" is not/],
    ['deleted as S', row({ deleted: { S: 'true' } }), 'deleted', 'deleted: must be a BOOL, got S "true"'],
    ['deleted as N', row({ deleted: { N: '1' } }), 'deleted', 'deleted: must be a BOOL, got N 1'],
    [
      'deleted malformed',
      row({ deleted: { BOOL: 'true' } }),
      'deleted',
      'deleted: must be a BOOL, got a value that is not a DynamoDB AttributeValue',
    ],
    ['no spec', without('spec'), 'spec', 'spec: required'],
    [
      'spec as NULL',
      row({ spec: { NULL: true } }),
      'spec',
      'spec: must be S (JSON text of an object or an array), M (map) or L (list of maps), got NULL',
    ],
    [
      'spec as N',
      row({ spec: { N: '5' } }),
      'spec',
      'spec: must be S (JSON text of an object or an array), M (map) or L (list of maps), got N 5',
    ],
    [
      'spec as an empty L',
      row({ spec: { L: [] } }),
      'spec',
      'spec: lists no Deployment; a row runs at least one',
    ],
    [
      'spec L holding an S',
      row({ spec: { L: [{ S: '{}' }] } }),
      'spec',
      'spec[0]: must be M (map), got S "{}"',
    ],
    [
      'spec an empty JSON array',
      row({ spec: { S: '[]' } }),
      'spec',
      'spec: lists no Deployment; a row runs at least one',
    ],
    [
      'spec an array holding a number',
      row({ spec: { S: '[{}, 3]' } }),
      'spec',
      'spec[1]: must be a JSON object, got number',
    ],
    [
      'spec a v1 List without items',
      row({ spec: { S: '{"apiVersion":"v1","kind":"List"}' } }),
      'spec',
      'spec.items: a v1 List must hold its Deployments in items, an array',
    ],
    [
      'spec with a trailing comma',
      row({ spec: { S: '{"kind":"Deployment",}' } }),
      'spec',
      /^spec: invalid JSON: \S/,
    ],
    ['spec cut short', row({ spec: { S: EXAMPLE_ROW.slice(0, 50) } }), 'spec', /^spec: invalid JSON: /],
    ['spec empty', row({ spec: { S: '' } }), 'spec', 'spec: invalid JSON: Unexpected end of JSON input'],
    [
      'spec JSON null',
      row({ spec: { S: 'null' } }),
      'spec',
      'spec: must be a JSON object or an array of them, got null',
    ],
    [
      'spec a JSON string',
      row({ spec: { S: '"{}"' } }),
      'spec',
      'spec: must be a JSON object or an array of them, got string',
    ],
    [
      'spec a JSON number',
      row({ spec: { S: '42' } }),
      'spec',
      'spec: must be a JSON object or an array of them, got number',
    ],
    [
      'spec a JSON boolean',
      row({ spec: { S: 'true' } }),
      'spec',
      'spec: must be a JSON object or an array of them, got boolean',
    ],
    [
      'spec M with a set',
      row({ spec: { M: { kind: { SS: ['a'] } } } }),
      'spec',
      'spec.kind: SS (string set) has no JSON form',
    ],
    [
      'spec M with a bad number',
      row({ spec: { M: { spec: { M: { replicas: { N: 'three' } } } } } }),
      'spec',
      'spec.spec.replicas: N "three" is not a finite number',
    ],
    [
      'spec nested too deep',
      row({ spec: { S: `{"a":${'['.repeat(64)}${']'.repeat(64)}}` } }),
      'spec',
      'spec: nested deeper than 64 levels',
    ],
    [
      'customizations as N',
      row({ customizations: { N: '3' } }),
      'customizations',
      'customizations: must be S (JSON text of an array) or L (list), got N 3',
    ],
    [
      'customizations as M',
      row({ customizations: { M: {} } }),
      'customizations',
      'customizations: must be S (JSON text of an array) or L (list), got M (map)',
    ],
    [
      'customizations not JSON',
      row({ customizations: { S: '[{]' } }),
      'customizations',
      /^customizations: invalid JSON: /,
    ],
    [
      'customizations a JSON object',
      row({ customizations: { S: JSON.stringify(CONFIG_MAP) } }),
      'customizations',
      'customizations: must be a JSON array, got object',
    ],
    [
      'customizations holding a number',
      row({ customizations: { S: '[{}, {}, 3]' } }),
      'customizations',
      'customizations[2]: must be a JSON object, got number',
    ],
    [
      'customizations holding an array',
      row({ customizations: { S: '[[]]' } }),
      'customizations',
      'customizations[0]: must be a JSON object, got array',
    ],
    [
      'customizations holding null',
      row({ customizations: { S: '[null]' } }),
      'customizations',
      'customizations[0]: must be a JSON object, got null',
    ],
    [
      'customizations L holding an S',
      row({ customizations: { L: [{ M: {} }, { S: '{}' }] } }),
      'customizations',
      'customizations[1]: must be M (map), got S "{}"',
    ],
    [
      'customizations L with a bad value inside',
      row({ customizations: { L: [{ M: { data: { M: { k: { B: new Uint8Array() } } } } }] } }),
      'customizations',
      'customizations[0].data.k: B (binary) has no JSON form',
    ],
  ])('refuses %s', (_case, item, attribute, message) => {
    const result = parseRow(item);
    expect(result.kind).toBe('invalid');
    expect(problemOf(result)?.attribute).toBe(attribute);
    if (typeof message === 'string') {
      expect(problemOf(result)?.message).toBe(message);
    } else {
      expect(problemOf(result)?.message).toMatch(message);
    }
    // A valid name is kept so the Tenant can say why; an invalid one cannot name a Tenant.
    expect(result).toMatchObject({ name: attribute === 'name' ? undefined : 'tenant-1', deleted: false });
  });

  it.each<[string, unknown, string]>([
    ['null', null, 'item: must be a map of attributes, got null'],
    ['an array', [], 'item: must be a map of attributes, got array'],
    ['a string', 'tenant-1', 'item: must be a map of attributes, got string'],
  ])('refuses an item that is %s', (_case, item, message) => {
    expect(parseRow(item as Item)).toEqual({
      kind: 'invalid',
      name: undefined,
      deleted: false,
      problem: { attribute: 'item', message },
    });
  });

  it('does not read attributes from the prototype', () => {
    const item = Object.assign(Object.create({ name: { S: 'inherited' } }) as Item, { spec: { S: '{}' } });
    expect(problemOf(parseRow(item))).toEqual({ attribute: 'name', message: 'name: required' });
  });

  it('survives an item whose getters throw', () => {
    const hostile = new Proxy(
      {},
      {
        ownKeys: () => {
          throw new Error('secret-token');
        },
        has: () => true,
        getOwnPropertyDescriptor: () => {
          throw new Error('secret-token');
        },
      },
    );
    expect(parseRow(hostile as Item)).toEqual({
      kind: 'invalid',
      name: undefined,
      deleted: false,
      problem: { attribute: 'item', message: 'item: could not be read' },
    });
  });
});

describe('parseRow: size', () => {
  const big = 'x'.repeat(400_000);

  it('parses a 400 KB spec quickly', () => {
    const deployment = { ...DEPLOYMENT, metadata: { ...DEPLOYMENT.metadata, annotations: { note: big } } };
    const text = timed(() => parseRow(row({ spec: { S: JSON.stringify(deployment) } })));
    const native = timed(() => parseRow(row({ spec: nativeForm(deployment) })));
    expect(text.value.kind).toBe('tenant');
    expect(native.value).toEqual(text.value);
  });

  it('refuses 400 KB of nesting quickly', () => {
    const { value } = timed(() =>
      parseRow(row({ spec: { S: `${'{"a":'.repeat(80_000)}1${'}'.repeat(80_000)}` } })),
    );
    expect(problemOf(value)?.message).toBe('spec: nested deeper than 64 levels');
  });

  it.each<[string, Item]>([
    ['400 KB of garbage as spec', row({ spec: { S: `{${big}` } })],
    ['400 KB of garbage as customizations', row({ customizations: { S: big } })],
    ['a 400 KB name', row({ name: { S: big } })],
    ['a 400 KB deleted', row({ deleted: { S: big } })],
    ['a 400 KB spec of the wrong type', row({ spec: { N: big } })],
  ])('echoes only a little of %s', (_case, item) => {
    const { value } = timed(() => parseRow(item));
    expect(problemOf(value)?.message.length).toBeLessThanOrEqual(300);
  });
});

describe('parseRow: "__proto__" keys', () => {
  it.each<[string, Item]>([
    ['JSON text', row({ spec: { S: '{"kind":"Deployment","__proto__":{"polluted":true}}' } })],
    [
      'a native M',
      row({
        spec: JSON.parse(
          '{"M":{"kind":{"S":"Deployment"},"__proto__":{"M":{"polluted":{"BOOL":true}}}}}',
        ) as AttributeValue,
      }),
    ],
  ])('keeps one in %s as data, changing no prototype', (_case, item) => {
    const result = parseRow(item);
    const deployment = result.kind === 'tenant' ? (result.spec.deployment as object) : {};
    expect(Object.keys(deployment)).toEqual(['kind', '__proto__']);
    expect(Object.getPrototypeOf(deployment)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('gives both forms the same hash', () => {
    const text = parseRow(row({ spec: { S: '{"__proto__":{"a":1}}' } }));
    const native = parseRow(
      row({ spec: JSON.parse('{"M":{"__proto__":{"M":{"a":{"N":"1"}}}}}') as AttributeValue }),
    );
    expect(native).toEqual(text);
    expect(text.kind === 'tenant' ? canonicalJson(text.spec.deployment) : '').toBe('{"__proto__":{"a":1}}');
  });
});

describe('parseRow: properties', () => {
  const label = fc.stringMatching(/^[a-z0-9](?:[-a-z0-9]{0,20}[a-z0-9])?$/);
  const jsonObject = fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 3 }));
  const jsonText = fc.oneof(
    fc.json(),
    fc.string(),
    jsonObject.map((object) => JSON.stringify(object)),
    fc.json().map((text) => text.slice(1)),
  );
  const { attribute } = fc.letrec<{ attribute: unknown }>((tie) => ({
    attribute: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      fc.record({ S: fc.oneof(fc.string(), jsonText, label) }),
      fc.record({ N: fc.oneof(fc.string(), fc.double().map(String), fc.integer().map(String)) }),
      fc.record({ BOOL: fc.boolean() }),
      fc.constant({ NULL: true }),
      fc.record({ B: fc.uint8Array() }),
      fc.record({ SS: fc.array(fc.string()) }),
      fc.record({ M: fc.dictionary(fc.string(), tie('attribute')) }),
      fc.record({ L: fc.array(tie('attribute')) }),
      fc.anything(),
    ),
  }));
  const configMaps = fc.array(jsonObject, { maxLength: 3 });
  const core = fc.record(
    {
      name: fc.oneof(
        label.map((S) => ({ S })),
        attribute,
      ),
      spec: fc.oneof(
        jsonObject.map((o) => ({ S: JSON.stringify(o) })),
        jsonObject.map(nativeForm),
        attribute,
      ),
      customizations: fc.oneof(
        configMaps.map((a) => ({ S: JSON.stringify(a) })),
        configMaps.map(nativeForm),
        attribute,
      ),
      deleted: fc.oneof(
        fc.boolean().map((BOOL) => ({ BOOL })),
        attribute,
      ),
      state: fc.oneof(
        fc.constantFrom(...TENANT_STATES).map((S) => ({ S })),
        attribute,
      ),
    },
    { requiredKeys: [] },
  );
  const item = fc
    .tuple(fc.dictionary(fc.string(), attribute), core)
    .map(([extra, attributes]) => ({ ...extra, ...attributes }) as Item);

  function expectWellFormed(result: ParsedRow): void {
    if (result.kind === 'invalid') {
      expect(result.problem.message.startsWith(result.problem.attribute)).toBe(true);
      expect(result.problem.message.length).toBeGreaterThan(result.problem.attribute.length + 2);
      expect(result.problem.message.length).toBeLessThanOrEqual(300);
      expect(result.name === undefined || isDns1123Label(result.name)).toBe(true);
      return;
    }
    expect(isDns1123Label(result.name)).toBe(true);
    if (result.kind === 'tenant') {
      expect(result.hash).toBe(rowHash(result.spec));
      expect(canonicalJson(result.spec.deployment)).toMatch(/^\{/);
      expect(result.spec.configMaps?.every((configMap) => canonicalJson(configMap).startsWith('{'))).toBe(
        true,
      );
    }
  }

  it('never throws on AttributeValue-shaped items and always returns one of the three kinds', () => {
    const prototypeKeys = Object.getOwnPropertyNames(Object.prototype);
    fc.assert(
      fc.property(item, (generated) => {
        const result = parseRow(generated);
        expect(['tenant', 'deleted', 'invalid']).toContain(result.kind);
        expectWellFormed(result);
      }),
      { numRuns: 500 },
    );
    expect(Object.getOwnPropertyNames(Object.prototype)).toEqual(prototypeKeys);
  });

  it('never throws on anything at all', () => {
    fc.assert(
      fc.property(fc.anything({ withNullPrototype: true, withMap: true, withBigInt: true }), (generated) => {
        expectWellFormed(parseRow(generated as Item));
      }),
    );
  });

  it('parses JSON text and its native form to the same tenant and hash', () => {
    fc.assert(
      fc.property(label, jsonObject, configMaps, (name, spec, maps) => {
        const text = parseRow({
          name: { S: name },
          spec: { S: JSON.stringify(spec) },
          customizations: { S: JSON.stringify(maps) },
        });
        const native = parseRow({
          name: { S: name },
          spec: nativeForm(spec),
          customizations: nativeForm(maps),
        });
        expect(text.kind).toBe('tenant');
        expect(native).toEqual(text);
      }),
    );
  });
});
