import { describe, expect, it } from 'vitest';
import type { CommonSettings } from '../runtime/component.js';
import { ConfigError, loadSettings } from '../runtime/config.js';
import { PURGER_SETTINGS, purgePolicy, type PurgerSettings } from './settings.js';

type Own = Omit<PurgerSettings, keyof CommonSettings>;
const load = (env: Record<string, string>): Own => loadSettings<Own>(PURGER_SETTINGS, env);

describe('purger settings', () => {
  it('defaults: a day of delay, no tables, no rate ceiling', () => {
    const settings = load({});
    expect(settings).toMatchObject({ delay: '24h', tables: '[]', rate: 0 });
    expect(purgePolicy(settings)).toEqual({ delayMs: 86_400_000, tables: [] });
  });

  it.each(['0s', '0', '90s', '1h30m', '500ms'])('accepts the delay %s', (delay) => {
    expect(() => purgePolicy(load({ LANDLORD_PURGE_DELAY: delay }))).not.toThrow();
  });

  it.each(['1d', '-1h', '24', 'soon'])('refuses the delay %s, naming the variable', (delay) => {
    expect(() => load({ LANDLORD_PURGE_DELAY: delay })).toThrow(/LANDLORD_PURGE_DELAY="/);
  });

  it('reads the tables, and refuses a bad entry with a ConfigError naming the variable', () => {
    const tables = '[{"table":"orders","partitionKey":"tenant","valueTemplate":"{name}"}]';
    expect(purgePolicy(load({ LANDLORD_PURGE_TABLES: tables })).tables).toEqual([
      { table: 'orders', partitionKey: 'tenant', valueTemplate: '{name}' },
    ]);
    const bad = () => purgePolicy(load({ LANDLORD_PURGE_TABLES: '[{"table":"orders"}]' }));
    expect(bad).toThrow(ConfigError);
    expect(bad).toThrow(/^LANDLORD_PURGE_TABLES: data table 0/);
  });
});
