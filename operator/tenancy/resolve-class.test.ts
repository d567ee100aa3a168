import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ANNOTATION, API_VERSION, KIND, type ClassSource, type Tenant } from '../../api/tenant.js';
import {
  BUILT_IN_CLASS_NAME,
  CLASS_API_VERSION,
  CLASS_KIND,
  DEFAULT_CLASS_ANNOTATION,
  builtInClass,
  isDefaultClass,
  policyOf,
  type TenantClass,
  type TenantClassSpec,
} from '../../api/tenantclass.js';
import { entry, syncEntry, writtenBy } from '../../testing/stamp.js';
import { CLASS_MESSAGE, fallbackClass, keptClass, resolveClass, tenantsUnder } from './resolve-class.js';

const builtIn = builtInClass('baseline');

function tenantClass(
  name: string,
  options: { isDefault?: boolean; spec?: TenantClassSpec } = {},
): TenantClass {
  const annotations: Record<string, string> =
    options.isDefault === true ? { [DEFAULT_CLASS_ANNOTATION]: 'true' } : {};
  return {
    apiVersion: CLASS_API_VERSION,
    kind: CLASS_KIND,
    metadata: { name, generation: 4, annotations },
    spec: options.spec ?? { namespace: { mode: 'Shared' } },
  };
}

function tenant(specClass?: string, statusClass?: string, source: ClassSource = 'Default'): Tenant {
  return {
    apiVersion: API_VERSION,
    kind: KIND,
    metadata: { name: 'acme', annotations: { [ANNOTATION.table]: 'rows' } },
    spec: specClass === undefined ? {} : { class: specClass },
    ...(statusClass === undefined ? {} : { status: { class: statusClass, classSource: source } }),
  };
}

const shared = tenantClass('shared', { spec: { namespace: { mode: 'Shared' }, limits: { maxReplicas: 2 } } });
const standard = tenantClass('standard', { isDefault: true });
const other = tenantClass('other', { isDefault: true });

describe('resolveClass', () => {
  it('gives the class the row names, with its defaults filled in and its generation', () => {
    const result = resolveClass(tenant('shared'), [standard, shared], builtIn);
    expect(result).toMatchObject({ ok: true, policy: { name: 'shared', generation: 4, mode: 'Shared' } });
    expect(result.ok && result.policy.limits).toMatchObject({ maxReplicas: 2, maxConfigMaps: 50 });
  });

  it('refuses a named class that does not exist with ClassNotFound, even when a default exists', () => {
    expect(resolveClass(tenant('gold'), [standard], builtIn)).toEqual({
      ok: false,
      refusal: { reason: 'ClassNotFound', message: CLASS_MESSAGE.named('gold') },
    });
  });

  it('gives a row without a class the one class annotated as the default', () => {
    expect(resolveClass(tenant(), [shared, standard], builtIn)).toMatchObject({
      ok: true,
      policy: { name: 'standard' },
    });
  });

  it('only the value "true" marks the default', () => {
    const maybe = tenantClass('maybe');
    maybe.metadata.annotations = { [DEFAULT_CLASS_ANNOTATION]: 'True' };
    expect(resolveClass(tenant(), [maybe], builtIn)).toEqual({
      ok: true,
      policy: builtIn,
      source: 'Default',
    });
  });

  it('refuses two default classes with AmbiguousDefaultClass, naming both in order', () => {
    expect(resolveClass(tenant(), [standard, shared, other], builtIn)).toEqual({
      ok: false,
      refusal: {
        reason: 'AmbiguousDefaultClass',
        message: CLASS_MESSAGE.ambiguous(['other', 'standard']),
      },
    });
  });

  it('two defaults do not matter to a row that names its class', () => {
    expect(resolveClass(tenant('shared'), [standard, other, shared], builtIn)).toMatchObject({ ok: true });
  });

  it('gives the built-in class when no class is the default, or none exists', () => {
    expect(resolveClass(tenant(), [shared], builtIn)).toEqual({
      ok: true,
      policy: builtIn,
      source: 'Default',
    });
    expect(resolveClass(tenant(), [], builtIn)).toEqual({ ok: true, policy: builtIn, source: 'Default' });
  });

  it('keeps a tenant under the default class it was given after the annotation moved', () => {
    const moved = tenantClass('standard');
    expect(resolveClass(tenant(undefined, 'standard'), [moved, other], builtIn)).toMatchObject({
      ok: true,
      policy: { name: 'standard' },
    });
  });

  it('refuses with ClassNotFound, and never picks another class, when the class it was given is gone', () => {
    for (const classes of [[], [other], [shared]]) {
      expect(resolveClass(tenant(undefined, 'standard'), classes, builtIn)).toEqual({
        ok: false,
        refusal: { reason: 'ClassNotFound', message: CLASS_MESSAGE.kept('standard') },
      });
    }
  });

  it('moves a tenant under the built-in class to a default class once one is marked', () => {
    expect(resolveClass(tenant(undefined, BUILT_IN_CLASS_NAME), [standard], builtIn)).toMatchObject({
      ok: true,
      policy: { name: 'standard' },
    });
  });

  it('follows the row when it names a class, whatever status says', () => {
    expect(resolveClass(tenant('shared', 'standard'), [shared], builtIn)).toMatchObject({
      ok: true,
      policy: { name: 'shared' },
    });
  });

  it('reads an empty class as none', () => {
    expect(resolveClass(tenant('', ''), [standard], builtIn)).toMatchObject({
      ok: true,
      policy: { name: 'standard' },
    });
  });
});

describe('resolveClass: which rows may use a class', () => {
  const only = (name: string, allowedTables: string[], isDefault = false): TenantClass =>
    tenantClass(name, { isDefault, spec: { namespace: { mode: 'Shared' }, allowedTables } });
  /** A Tenant sync made from `table` (its apply owns the stamp); undefined: none has a table. */
  const fromTable = (table: string | undefined, specClass?: string): Tenant => {
    const t = writtenBy(tenant(specClass), syncEntry());
    t.metadata.annotations = table === undefined ? {} : { [ANNOTATION.table]: table };
    return t;
  };
  const stamped = (table: string) => ({ kind: 'stamped', table }) as const;
  const NONE = { kind: 'none' } as const;

  it('lets a Tenant of a listed table use the class, named or as the default', () => {
    const trusted = only('trusted', ['platform', 'rows']);
    expect(resolveClass(fromTable('rows', 'trusted'), [trusted], builtIn)).toMatchObject({
      ok: true,
      policy: { name: 'trusted', allowedTables: ['platform', 'rows'] },
      source: 'Row',
    });
    const standardOnly = only('standard', ['rows'], true);
    expect(resolveClass(fromTable('rows'), [standardOnly], builtIn)).toMatchObject({
      ok: true,
      source: 'Default',
    });
  });

  it('refuses a Tenant of another table, or of none, with ClassNotAllowed', () => {
    const trusted = only('trusted', ['platform']);
    expect(resolveClass(fromTable('rows', 'trusted'), [trusted, standard], builtIn)).toEqual({
      ok: false,
      refusal: { reason: 'ClassNotAllowed', message: CLASS_MESSAGE.notAllowed('trusted', stamped('rows')) },
    });
    expect(resolveClass(fromTable(undefined, 'trusted'), [trusted], builtIn)).toEqual({
      ok: false,
      refusal: { reason: 'ClassNotAllowed', message: CLASS_MESSAGE.notAllowed('trusted', NONE) },
    });
  });

  describe('trusts the table only where sync wrote it', () => {
    const trusted = only('trusted', ['platform']);
    const refused = {
      ok: false,
      refusal: {
        reason: 'ClassNotAllowed',
        message: CLASS_MESSAGE.notAllowed('trusted', { kind: 'unproven' }),
      },
    };
    const forged = (...entries: Parameters<typeof writtenBy>[1][]): Tenant =>
      writtenBy(fromTable('platform', 'trusted'), ...entries);
    const byHand = { 'f:annotations': { [`f:${ANNOTATION.table}`]: {} } };

    it.each<[string, Tenant]>([
      [
        'a hand-made Tenant naming the allowed table (kubectl create)',
        forged(entry('kubectl-create', 'Update', byHand)),
      ],
      [
        'the annotation changed by a person on a Tenant sync made',
        forged(entry('landlord-sync', 'Apply', {}), entry('kubectl-annotate', 'Update', byHand)),
      ],
      ['no managedFields at all', forged()],
    ])("%s: ClassNotAllowed, saying the annotation is not sync's", (_name, t) => {
      expect(resolveClass(t, [trusted], builtIn)).toEqual(refused);
    });

    it('says why: the annotation was not written by sync, so the Tenant has no table', () => {
      const message = CLASS_MESSAGE.notAllowed('trusted', { kind: 'unproven' });
      expect(message).toContain(`${ANNOTATION.table} annotation was not written by landlord sync`);
      expect(message).not.toContain('platform');
    });

    it("lets sync's stamp in, from its create as from its apply", () => {
      expect(resolveClass(forged(syncEntry('Update')), [trusted], builtIn)).toMatchObject({ ok: true });
      expect(resolveClass(forged(syncEntry('Apply')), [trusted], builtIn)).toMatchObject({ ok: true });
    });

    it('asks nothing of a Tenant under a class without allowedTables', () => {
      expect(resolveClass(writtenBy(tenant('shared')), [shared], builtIn)).toMatchObject({ ok: true });
    });
  });

  it('compares table names exactly: no other case, no prefix', () => {
    const trusted = only('trusted', ['Platform']);
    for (const table of ['platform', 'Platform-2', 'Plat'])
      expect(resolveClass(fromTable(table, 'trusted'), [trusted], builtIn)).toMatchObject({ ok: false });
  });

  it('an empty list lets no table in; no list lets every table in', () => {
    expect(resolveClass(fromTable('rows', 'none'), [only('none', [])], builtIn)).toMatchObject({
      ok: false,
      refusal: { reason: 'ClassNotAllowed' },
    });
    expect(resolveClass(fromTable(undefined, 'shared'), [shared], builtIn)).toMatchObject({ ok: true });
  });

  it('refuses a default class that leaves the table out, rather than falling back to another', () => {
    const standardOnly = only('standard', ['platform'], true);
    expect(resolveClass(fromTable('rows'), [standardOnly, shared], builtIn)).toMatchObject({
      ok: false,
      refusal: { reason: 'ClassNotAllowed', message: CLASS_MESSAGE.notAllowed('standard', stamped('rows')) },
    });
  });
});

describe('resolveClass: a class the row stops naming', () => {
  const privileged = tenantClass('privileged', { spec: { podSecurity: 'privileged' } });

  it('puts a Tenant back under the default class when its row drops the class it named', () => {
    const dropped = tenant(undefined, 'privileged', 'Row');
    expect(resolveClass(dropped, [privileged, standard], builtIn)).toMatchObject({
      ok: true,
      policy: { name: 'standard' },
      source: 'Default',
    });
  });

  it('treats a class recorded without its source (before classSource existed) as not kept', () => {
    const legacy = tenant(undefined, 'privileged');
    delete legacy.status!.classSource;
    expect(resolveClass(legacy, [privileged, standard], builtIn)).toMatchObject({
      policy: { name: 'standard' },
    });
  });

  it('reports how the class was chosen', () => {
    expect(resolveClass(tenant('privileged'), [privileged, standard], builtIn)).toMatchObject({
      source: 'Row',
    });
    expect(resolveClass(tenant(undefined, 'standard'), [standard], builtIn)).toMatchObject({
      source: 'Default',
    });
  });
});

describe('resolveClass: no default class', () => {
  it('makes a Tenant wait with NoDefaultClass unless the built-in class is configured', () => {
    expect(resolveClass(tenant(), [shared], undefined)).toEqual({
      ok: false,
      refusal: { reason: 'NoDefaultClass', message: CLASS_MESSAGE.noDefault },
    });
    expect(resolveClass(tenant(undefined, BUILT_IN_CLASS_NAME), [], undefined)).toMatchObject({
      ok: false,
      refusal: { reason: 'NoDefaultClass' },
    });
  });

  it('still gives a named class, or a kept default, without the built-in class', () => {
    expect(resolveClass(tenant('shared'), [shared], undefined)).toMatchObject({ ok: true });
    const moved = tenantClass('standard');
    expect(resolveClass(tenant(undefined, 'standard'), [moved], undefined)).toMatchObject({ ok: true });
  });

  it('gives the default class once one is annotated', () => {
    expect(resolveClass(tenant(), [shared, standard], undefined)).toMatchObject({
      ok: true,
      policy: { name: 'standard' },
    });
  });
});

describe('fallbackClass', () => {
  it('is the built-in class only when the operator is configured to use it', () => {
    expect(fallbackClass({ tenantClass: builtIn, useBuiltInClass: true })).toBe(builtIn);
    expect(fallbackClass({ tenantClass: builtIn, useBuiltInClass: false })).toBeUndefined();
    expect(fallbackClass({ tenantClass: builtIn })).toBeUndefined();
  });
});

describe('keptClass', () => {
  it('is the recorded default class of a tenant whose row names none, except the built-in one', () => {
    expect(keptClass(tenant(undefined, 'standard'))).toBe('standard');
    expect(keptClass(tenant(undefined, 'standard', 'Row'))).toBeUndefined();
    expect(keptClass(tenant(undefined, BUILT_IN_CLASS_NAME))).toBeUndefined();
    expect(keptClass(tenant('shared', 'standard'))).toBeUndefined();
    expect(keptClass(tenant())).toBeUndefined();
  });
});

describe('tenantsUnder', () => {
  const names = (tenants: Tenant[]): (string | undefined)[] =>
    tenants.map((t) => t.spec?.class ?? t.status?.class);
  const tenants = [
    tenant('shared'),
    tenant(undefined, 'shared', 'Row'),
    tenant(undefined, 'standard'),
    tenant(undefined, BUILT_IN_CLASS_NAME),
    tenant(),
    tenant('other', 'shared'),
  ];

  it('gives the Tenants whose row names the class or whose status records it', () => {
    expect(names(tenantsUnder(tenants, 'shared', false))).toEqual(['shared', 'shared', 'other']);
  });

  it('adds, for the default class, the Tenants that follow the default and only those', () => {
    expect(tenantsUnder(tenants, 'standard', true)).toEqual([tenants[1], tenants[2], tenants[3], tenants[4]]);
  });
});

const CLASS_NAMES = ['shared', 'standard', 'other', BUILT_IN_CLASS_NAME] as const;
const anyTenant = fc
  .record({
    row: fc.option(fc.constantFrom('', ...CLASS_NAMES), { nil: undefined }),
    status: fc.option(fc.constantFrom(...CLASS_NAMES), { nil: undefined }),
    source: fc.constantFrom<ClassSource>('Default', 'Row'),
  })
  .map(({ row, status, source }) => tenant(row, status, source));
const anyClasses = fc.subarray([shared, standard, other, tenantClass('plain')]);

describe('tenantsUnder properties', () => {
  it('never leaves out a Tenant that resolveClass puts under the class', () => {
    fc.assert(
      fc.property(anyTenant, anyClasses, fc.boolean(), (t, classes, useBuiltIn) => {
        const resolved = resolveClass(t, classes, useBuiltIn ? builtIn : undefined);
        for (const tc of classes) {
          if (!resolved.ok || resolved.policy.name !== tc.metadata.name) continue;
          expect(tenantsUnder([t], resolved.policy.name, isDefaultClass(tc))).toEqual([t]);
        }
      }),
    );
  });
});

describe('policyOf', () => {
  it('resolves a cached class once, frozen, and a changed class (a new object from the watch) anew', () => {
    const first = policyOf(shared);
    expect(policyOf(shared)).toBe(first);
    expect(Object.isFrozen(first.limits)).toBe(true);
    expect(first.limits.maxReplicas).toBe(2);
    const changed = tenantClass('shared', {
      spec: { namespace: { mode: 'Shared' }, limits: { maxReplicas: 3 } },
    });
    expect(policyOf(changed).limits.maxReplicas).toBe(3);
  });
});
