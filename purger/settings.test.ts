import { describe, expect, it } from 'vitest';
import type { CommonSettings } from '../runtime/component.js';
import { ConfigError, formerNamesInUse, loadSettings } from '../runtime/config.js';
import { PURGER_SETTINGS, purgePolicy, type PurgerSettings } from './settings.js';

type Own = Omit<PurgerSettings, keyof CommonSettings>;
const loadOwn = (env: Record<string, string>): Own => loadSettings<Own>(PURGER_SETTINGS, env);

/** The one setting without a default: the tenant table whose Tenants may be purged. */
const TENANT_TABLE = { LANDLORD_PURGER_TENANT_TABLES: 'tenants' };
const load = (env: Record<string, string>): Own => loadOwn({ ...TENANT_TABLE, ...env });

describe('purger settings', () => {
  it('defaults: a day of delay, no tables, no rate ceiling, 10 purges an hour', () => {
    const settings = load({});
    expect(settings).toMatchObject({ delay: '24h', tables: '[]', rate: 0, budget: 10 });
    expect(purgePolicy(settings)).toEqual({
      delayMs: 86_400_000,
      tables: [],
      tenantTables: ['tenants'],
      budgetPerHour: 10,
    });
  });

  it('reads the tenant tables as a comma-separated list, and refuses an empty name', () => {
    const settings = load({ LANDLORD_PURGER_TENANT_TABLES: 'tenants,tenants-eu' });
    expect(purgePolicy(settings).tenantTables).toEqual(['tenants', 'tenants-eu']);
    expect(() => load({ LANDLORD_PURGER_TENANT_TABLES: 'tenants,' })).toThrow(
      /LANDLORD_PURGER_TENANT_TABLES=/,
    );
  });

  it.each<Record<string, string>>([{}, { LANDLORD_PURGER_TENANT_TABLES: '' }])(
    'stops start-up without a tenant table (%j): one ConfigError naming the variable',
    (env) => {
      const missing = (): Own => loadOwn(env);
      expect(missing).toThrow(ConfigError);
      expect(missing).toThrow(/^LANDLORD_PURGER_TENANT_TABLES is required: Comma-separated tenant tables/);
    },
  );

  it.each(['0', '-1', 'ten'])('refuses the budget %s', (budget) => {
    expect(() => load({ LANDLORD_PURGER_BUDGET: budget })).toThrow(/LANDLORD_PURGER_BUDGET/);
  });

  it.each(['0s', '0', '90s', '1h30m', '500ms'])('accepts the delay %s', (delay) => {
    expect(() => purgePolicy(load({ LANDLORD_PURGER_DELAY: delay }))).not.toThrow();
  });

  it.each(['1d', '-1h', '24', 'soon'])('refuses the delay %s, naming the variable', (delay) => {
    expect(() => load({ LANDLORD_PURGER_DELAY: delay })).toThrow(/LANDLORD_PURGER_DELAY="/);
  });

  it('reads the tables, and refuses a bad entry with a ConfigError naming the variable', () => {
    const tables = '[{"table":"orders","partitionKey":"tenant","valueTemplate":"{name}"}]';
    expect(purgePolicy(load({ LANDLORD_PURGER_TABLES: tables })).tables).toEqual([
      { table: 'orders', partitionKey: 'tenant', valueTemplate: '{name}' },
    ]);
    const bad = () => purgePolicy(load({ LANDLORD_PURGER_TABLES: '[{"table":"orders"}]' }));
    expect(bad).toThrow(ConfigError);
    expect(bad).toThrow(/^LANDLORD_PURGER_TABLES: data table 0/);
  });
});

describe('purger settings under their former names (LANDLORD_PURGE_*)', () => {
  it('reads a former name when the current one is unset, and says so once', () => {
    const env = { LANDLORD_PURGE_DELAY: '90s', LANDLORD_PURGE_RATE: '50' };
    expect(load(env)).toMatchObject({ delay: '90s', rate: 50 });
    expect(formerNamesInUse(PURGER_SETTINGS, env)).toEqual([
      'LANDLORD_PURGE_DELAY is read as LANDLORD_PURGER_DELAY, its new name; rename it before the old name goes',
      'LANDLORD_PURGE_RATE is read as LANDLORD_PURGER_RATE, its new name; rename it before the old name goes',
    ]);
  });

  it('prefers nothing silently: both names with different values stop start-up', () => {
    const env = { LANDLORD_PURGE_DELAY: '90s', LANDLORD_PURGER_DELAY: '1h' };
    expect(() => load(env)).toThrow(
      /^LANDLORD_PURGER_DELAY and LANDLORD_PURGE_DELAY \(its former name\) are both set/,
    );
  });

  it('both names with one value, or only the current name: no warning', () => {
    const same = { LANDLORD_PURGE_DELAY: '90s', LANDLORD_PURGER_DELAY: '90s' };
    expect(load(same).delay).toBe('90s');
    expect(formerNamesInUse(PURGER_SETTINGS, same)).toEqual([]);
    expect(formerNamesInUse(PURGER_SETTINGS, { LANDLORD_PURGER_DELAY: '1h' })).toEqual([]);
  });

  it('an empty former name counts as unset, as an empty current one does', () => {
    expect(load({ LANDLORD_PURGE_DELAY: '' }).delay).toBe('24h');
  });
});
