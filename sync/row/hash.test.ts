import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { TenantSpec } from '../../api/tenant.js';
import { canonicalJson, rowHash } from './hash.js';

/** The same value with every object's keys in reverse order. */
function reverseKeys(value: unknown): unknown {
  if (Array.isArray(value)) {
    return value.map(reverseKeys);
  }
  if (typeof value !== 'object' || value === null) {
    return value;
  }
  return Object.fromEntries(
    Object.entries(value)
      .reverse()
      .map(([key, child]) => [key, reverseKeys(child)]),
  );
}

/** The same value with every object's keys in an order `order` picks. */
function shuffleKeys(value: unknown, order: (keys: string[]) => string[]): unknown {
  if (Array.isArray(value)) {
    return value.map((child) => shuffleKeys(child, order));
  }
  if (typeof value !== 'object' || value === null) {
    return value;
  }
  const object = value as Record<string, unknown>;
  return Object.fromEntries(order(Object.keys(object)).map((key) => [key, shuffleKeys(object[key], order)]));
}

const deployment = {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'tenant-1-app', namespace: 'default' },
  spec: { replicas: 1 },
};

describe('canonicalJson', () => {
  it.each<[unknown, string]>([
    [null, 'null'],
    [undefined, 'null'],
    ['a"b', '"a\\"b"'],
    [1.5, '1.5'],
    [-0, '0'],
    [Number.NaN, 'null'],
    [true, 'true'],
    [[3, 1, 2], '[3,1,2]'],
    [{ b: 1, a: 2 }, '{"a":2,"b":1}'],
    [{ b: { d: 1, c: [{ f: 1, e: 2 }] }, a: null }, '{"a":null,"b":{"c":[{"e":2,"f":1}],"d":1}}'],
    [{ 10: 'x', 9: 'y', B: 1, a: 2 }, '{"10":"x","9":"y","B":1,"a":2}'],
    [{ a: undefined, b: () => 1, c: 1 }, '{"c":1}'],
    [[undefined, () => 1], '[null,null]'],
    [{ when: new Date(0) }, '{"when":"1970-01-01T00:00:00.000Z"}'],
    [[new String('s'), new Number(1), new Boolean(false)], '["s",1,false]'],
    [JSON.parse('{"__proto__":{"x":1},"a":1}'), '{"__proto__":{"x":1},"a":1}'],
  ])('encodes %j as %s', (value, expected) => {
    expect(canonicalJson(value)).toBe(expected);
  });

  it('writes an array hole as null', () => {
    const holes = new Array<number>(3);
    holes[0] = 1;
    holes[2] = 3;
    expect(canonicalJson(holes)).toBe('[1,null,3]');
  });

  it('throws on a cycle, as JSON.stringify does', () => {
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    expect(() => canonicalJson(cycle)).toThrow();
  });

  it('encodes the same JSON as JSON.stringify', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(JSON.parse(canonicalJson(value))).toEqual(JSON.parse(JSON.stringify(value)));
      }),
    );
  });

  it('is stable under any permutation of keys', () => {
    const order = fc.func(fc.integer()).map((rank) => (keys: string[]) => {
      const ranks = new Map(keys.map((key) => [key, rank(key)]));
      return [...keys].sort((a, b) => (ranks.get(a) ?? 0) - (ranks.get(b) ?? 0));
    });
    fc.assert(
      fc.property(fc.jsonValue(), order, (value, pick) => {
        expect(canonicalJson(shuffleKeys(value, pick))).toBe(canonicalJson(value));
        expect(canonicalJson(reverseKeys(value))).toBe(canonicalJson(value));
      }),
    );
  });

  it('writes keys in code-unit order, integer-like ones included', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.integer()), (object) => {
        const members = Object.keys(object)
          .sort()
          .map((key) => `${JSON.stringify(key)}:${object[key]}`);
        expect(canonicalJson(object)).toBe(`{${members.join(',')}}`);
      }),
    );
  });
});

/** A TenantSpec from plain JSON: the hash sees only JSON, whatever the manifest types say. */
function tenantSpec(deployment: unknown, configMaps?: unknown[]): TenantSpec {
  return { deployment, configMaps } as TenantSpec;
}

describe('rowHash', () => {
  const spec = tenantSpec(deployment, []);

  it('is 32 hex digits of sha256', () => {
    expect(rowHash(spec)).toMatch(/^[0-9a-f]{32}$/);
  });

  it('is the same for the same content in any key order', () => {
    expect(rowHash(tenantSpec(reverseKeys(deployment), []))).toBe(rowHash(spec));
  });

  it('treats absent ConfigMaps as none', () => {
    expect(rowHash(tenantSpec(deployment))).toBe(rowHash(spec));
  });

  it('ignores anything beside the deployment, ConfigMaps and state', () => {
    expect(rowHash({ ...spec, extra: 1 } as TenantSpec)).toBe(rowHash(spec));
  });

  it('treats an absent state as active, and hashes active as a spec from before states', () => {
    expect(rowHash({ ...spec, state: 'active' })).toBe(rowHash(spec));
  });

  it('changes with the class a row names, and not for a row that names none', () => {
    expect(rowHash({ ...spec, class: 'gold' })).not.toBe(rowHash(spec));
    expect(rowHash({ ...spec, class: 'gold' })).not.toBe(rowHash({ ...spec, class: 'silver' }));
    expect(rowHash({ ...spec, class: undefined })).toBe(rowHash(spec));
  });

  it.each(['suspended', 'archived', 'purged'] as const)('changes with state %s', (state) => {
    expect(rowHash({ ...spec, state })).not.toBe(rowHash(spec));
  });

  it.each<[string, TenantSpec]>([
    ['replicas', tenantSpec({ ...deployment, spec: { replicas: 2 } }, [])],
    ['a number written as a string', tenantSpec({ ...deployment, spec: { replicas: '1' } }, [])],
    ['a ConfigMap', tenantSpec(deployment, [{ apiVersion: 'v1', kind: 'ConfigMap' }])],
    ['no deployment', tenantSpec(undefined, [])],
  ])('changes with %s', (_case, changed) => {
    expect(rowHash(changed)).not.toBe(rowHash(spec));
  });

  it('changes with the order of ConfigMaps', () => {
    const a = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a' } };
    const b = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'b' } };
    expect(rowHash(tenantSpec(deployment, [a, b]))).not.toBe(rowHash(tenantSpec(deployment, [b, a])));
  });

  it('changes when any value changes', () => {
    const different = fc
      .tuple(fc.jsonValue(), fc.jsonValue())
      .filter(([a, b]) => canonicalJson(a) !== canonicalJson(b));
    fc.assert(
      fc.property(fc.string(), fc.boolean(), different, (key, inConfigMap, [a, b]) => {
        const withValue = (value: unknown): TenantSpec =>
          inConfigMap
            ? tenantSpec(deployment, [{ kind: 'ConfigMap', data: { [key]: value } }])
            : tenantSpec({ ...deployment, metadata: { name: 'n', labels: { [key]: value } } }, []);
        expect(rowHash(withValue(a))).not.toBe(rowHash(withValue(b)));
      }),
    );
  });
});
