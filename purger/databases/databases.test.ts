// What a purge drops, and how: exactly the tenant's databases, by the class's names, idempotently.
import { describe, expect, it } from 'vitest';
import type { Tenant } from '../../api/tenant.js';
import type { TenantClass } from '../../api/tenantclass.js';
import { dropStatements } from './drop.js';
import { databasesToDrop } from './targets.js';

const tenantClass: TenantClass = {
  apiVersion: 'landlord.dev/v1beta1',
  kind: 'TenantClass',
  metadata: { name: 'dbs' },
  spec: {
    namespace: { mode: 'PerTenant' },
    databases: [
      { name: 'main', engine: 'postgres', server: { secretRef: { name: 'pg' } } },
      { name: 'cache', engine: 'mysql', server: { secretRef: { name: 'my' } }, nameTemplate: 'c_{name}' },
    ],
  },
};

const tenant = (className?: string): Tenant => ({
  apiVersion: 'landlord.dev/v1beta1',
  kind: 'Tenant',
  metadata: { name: 'my-shop' },
  status: className === undefined ? {} : { class: className },
});

describe('databasesToDrop', () => {
  it('names every database of the class for the tenant, each pending', () => {
    expect(databasesToDrop(tenant('dbs'), () => tenantClass)).toEqual([
      {
        name: 'main',
        engine: 'postgres',
        adminSecret: 'pg',
        database: 't_my-shop',
        role: 't_my-shop',
        phase: 'Pending',
      },
      {
        name: 'cache',
        engine: 'mysql',
        adminSecret: 'my',
        database: 'c_my-shop',
        role: 'c_my-shop',
        phase: 'Pending',
      },
    ]);
  });

  it('is none without a resolved class, or when the class is gone', () => {
    expect(databasesToDrop(tenant(), () => tenantClass)).toEqual([]);
    expect(databasesToDrop(tenant('dbs'), () => undefined)).toEqual([]);
  });
});

describe('dropStatements', () => {
  it('PostgreSQL: the database (its sessions ended) and then its role, if they exist', () => {
    expect(dropStatements({ engine: 'postgres', database: 't_my-shop', role: 't_my-shop' })).toEqual([
      'DROP DATABASE IF EXISTS "t_my-shop" WITH (FORCE)',
      'DROP ROLE IF EXISTS "t_my-shop"',
    ]);
  });

  it('MariaDB: the database and its user, if they exist', () => {
    expect(dropStatements({ engine: 'mysql', database: 't_a`b', role: "t_a'b" })).toEqual([
      'DROP DATABASE IF EXISTS `t_a``b`',
      "DROP USER IF EXISTS 't_a\\'b'@'%'",
    ]);
  });
});
