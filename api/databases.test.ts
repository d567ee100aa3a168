// A tenant's database names: the template, the characters and lengths the engines take.
import { describe, expect, it } from 'vitest';
import { databaseProof, tenantDatabase } from './databases.js';
import type { ClassDatabase } from './tenantclass.js';

const entry = (over: Partial<ClassDatabase> = {}): ClassDatabase => ({
  name: 'main',
  engine: 'postgres',
  server: { secretRef: { name: 'pg-admin' } },
  nameTemplate: 't_{name}',
  ...over,
});

describe('tenantDatabase', () => {
  it('names the database, the role and the Secret', () => {
    const named = tenantDatabase(entry(), 'acme');
    expect(named).toEqual({
      ok: true,
      database: {
        entry: 'main',
        engine: 'postgres',
        adminSecret: 'pg-admin',
        database: 't_acme',
        role: 't_acme',
        secretName: 'db-main',
      },
    });
    if (named.ok) expect(databaseProof(named.database)).toBe('postgres/pg-admin/t_acme/t_acme');
  });

  it.each([
    ['a DNS label with hyphens', 't_{name}', 'my-shop', true],
    ['a template without the name', 'shared', 'acme', true],
    ['a leading digit', '{name}', '1shop', false],
    ['a character the engines would need quoted beyond hyphens', 't.{name}', 'acme', false],
    ['a quote', 't"{name}', 'acme', false],
  ])('%s', (_what, nameTemplate, tenant, ok) => {
    expect(tenantDatabase(entry({ nameTemplate }), tenant).ok).toBe(ok);
  });

  it('keeps to the engines’ lengths', () => {
    const long = 'a'.repeat(40);
    expect(tenantDatabase(entry(), long).ok).toBe(true);
    const refused = tenantDatabase(entry({ engine: 'mysql' }), long);
    expect(refused).toMatchObject({ ok: false, entry: 'main' });
    expect(tenantDatabase(entry(), 'a'.repeat(62)).ok).toBe(false);
  });
});
