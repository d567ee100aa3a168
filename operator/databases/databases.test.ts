// The databases facet's pure parts: the statements each engine runs, the Secret, the condition.
import { describe, expect, it } from 'vitest';
import type { TenantDatabase } from '../../api/databases.js';
import { DATABASES_REASON } from './reasons.js';
import { mysqlStatements, postgresStatements } from './create.js';
import { databasesCondition, decideDatabases } from './decision.js';
import { databaseSecret, databaseUrl } from './secret.js';

const target = (over: Partial<TenantDatabase> = {}): TenantDatabase => ({
  entry: 'main',
  engine: 'postgres',
  adminSecret: 'pg-admin',
  database: 't_my-shop',
  role: 't_my-shop',
  secretName: 'db-main',
  ...over,
});

describe('statements', () => {
  it('PostgreSQL: a role that logs in, a database it owns, closed to everyone else', () => {
    expect(postgresStatements(target(), "p'w", { role: false, database: false })).toEqual([
      `CREATE ROLE "t_my-shop" WITH LOGIN PASSWORD 'p''w'`,
      'GRANT "t_my-shop" TO CURRENT_USER',
      'CREATE DATABASE "t_my-shop" OWNER "t_my-shop"',
      'REVOKE ALL ON DATABASE "t_my-shop" FROM PUBLIC',
    ]);
  });

  it('PostgreSQL, again after a cut-short attempt: the password is set, nothing is made twice', () => {
    const again = postgresStatements(target(), 'pw', { role: true, database: true });
    expect(again[0]).toBe(`ALTER ROLE "t_my-shop" WITH LOGIN PASSWORD 'pw'`);
    expect(again.some((s) => s.startsWith('CREATE'))).toBe(false);
  });

  it('MariaDB: idempotent statements, and a grant on exactly the one database', () => {
    expect(mysqlStatements(target({ engine: 'mysql' }), 'pw')).toEqual([
      'CREATE DATABASE IF NOT EXISTS `t_my-shop`',
      "CREATE USER IF NOT EXISTS 't_my-shop'@'%' IDENTIFIED BY 'pw'",
      "ALTER USER 't_my-shop'@'%' IDENTIFIED BY 'pw'",
      "GRANT ALL PRIVILEGES ON `t\\_my-shop`.* TO 't_my-shop'@'%'",
    ]);
  });

  it('the operator never drops', () => {
    const all = [
      ...postgresStatements(target(), 'pw', { role: false, database: false }),
      ...postgresStatements(target(), 'pw', { role: true, database: true }),
      ...mysqlStatements(target({ engine: 'mysql' }), 'pw'),
    ];
    expect(all.filter((s) => /\bDROP\b/i.test(s))).toEqual([]);
  });
});

describe('databaseSecret', () => {
  it('holds the connection, and its annotation proves the database', () => {
    const secret = databaseSecret(target(), 'shop', { host: 'db.local', port: 5432 }, 'a/b');
    const values = Object.fromEntries(
      Object.entries(secret.data ?? {}).map(([k, v]) => [k, Buffer.from(v, 'base64').toString()]),
    );
    expect(values).toEqual({
      host: 'db.local',
      port: '5432',
      database: 't_my-shop',
      user: 't_my-shop',
      password: 'a/b',
      url: 'postgresql://t_my-shop:a%2Fb@db.local:5432/t_my-shop',
    });
    expect(secret.metadata?.annotations).toEqual({
      'landlord.dev/database': 'postgres/pg-admin/t_my-shop/t_my-shop',
    });
  });

  it('brackets an IPv6 host in the URL', () => {
    expect(databaseUrl(target({ engine: 'mysql' }), { host: '::1', port: 3306 }, 'pw')).toBe(
      'mysql://t_my-shop:pw@[::1]:3306/t_my-shop',
    );
  });
});

describe('DatabasesReady', () => {
  const entries = [
    {
      name: 'main',
      engine: 'postgres' as const,
      server: { secretRef: { name: 'pg' } },
      nameTemplate: 't_{name}',
    },
  ];

  it('is absent for a class without databases, and before the effects ran', () => {
    expect(decideDatabases([], 'acme', 'acme', 'active')).toBeUndefined();
    expect(databasesCondition(decideDatabases(entries, 'acme', 'acme', 'active'))).toBeUndefined();
  });

  it('is True once acted without problems', () => {
    const decision = { ...decideDatabases(entries, 'acme', 'acme', 'active')!, acted: true };
    expect(databasesCondition(decision)).toMatchObject({ status: 'True', reason: DATABASES_REASON.ready });
  });

  it('says why a Shared class gets none', () => {
    const decision = { ...decideDatabases(entries, 'acme', undefined, 'active')!, acted: true };
    expect(databasesCondition(decision)).toMatchObject({
      status: 'False',
      reason: DATABASES_REASON.notAllowed,
    });
  });

  it('names the first failure', () => {
    const decision = {
      ...decideDatabases(entries, 'acme', 'acme', 'active')!,
      acted: true,
      problems: [{ entry: 'main', reason: DATABASES_REASON.authFailed, message: 'database main: denied' }],
    };
    expect(databasesCondition(decision)).toMatchObject({ status: 'False', reason: 'AuthFailed' });
  });
});
