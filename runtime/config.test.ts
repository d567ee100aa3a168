import { describe, expect, it } from 'vitest';
import { ConfigError, describeSettings, expected, loadSettings } from './config.js';
import type { SettingSpec, SettingsOf } from './config.js';

// A spec set shaped like the components' own, to exercise every kind of setting together.
const SPECS = {
  table: {
    env: 'DYNAMODB_TABLE',
    description: 'the DynamoDB table to mirror',
    schema: { type: 'string', minLength: 3, maxLength: 255, pattern: '^[A-Za-z0-9_.-]+$' },
  },
  endpoint: {
    env: 'DYNAMODB_ENDPOINT',
    description: 'DynamoDB endpoint URL, for a local server',
    schema: { type: 'string', pattern: '^https?://' },
    optional: true,
  },
  concurrency: {
    env: 'LANDLORD_OPERATOR_CONCURRENCY',
    description: 'tenants reconciled at once',
    default: '4',
    schema: { type: 'integer', minimum: 1, maximum: 64 },
  },
  maxDeleteShare: {
    env: 'LANDLORD_SYNC_MAX_DELETE_SHARE',
    description: 'largest share of all tenants one scan may delete',
    default: '0.1',
    schema: { type: 'number', minimum: 0, maximum: 1 },
  },
  leaderElect: {
    env: 'LANDLORD_LEADER_ELECT',
    description: 'take part in leader election through a Lease',
    default: 'true',
    schema: { type: 'boolean' },
  },
  logLevel: {
    env: 'LANDLORD_LOG_LEVEL',
    description: 'least severe level logged',
    default: 'info',
    schema: { type: 'string', enum: ['error', 'warn', 'info', 'debug'] },
  },
  awsSecret: {
    env: 'AWS_SECRET_ACCESS_KEY',
    description: 'AWS secret key',
    schema: { type: 'string', minLength: 16 },
    secret: true,
    optional: true,
  },
} as const satisfies Record<string, SettingSpec>;

type Settings = SettingsOf<typeof SPECS>;
const load = (env: NodeJS.ProcessEnv): Settings => loadSettings<Settings>(SPECS, env);
const BASE = { DYNAMODB_TABLE: 'tenants' };

function errorOf(env: NodeJS.ProcessEnv): string {
  try {
    load(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).message;
  }
  throw new Error('expected a ConfigError');
}

describe('loadSettings', () => {
  it('applies defaults and leaves unset optional settings undefined', () => {
    expect(load(BASE)).toEqual({
      table: 'tenants',
      endpoint: undefined,
      concurrency: 4,
      maxDeleteShare: 0.1,
      leaderElect: true,
      logLevel: 'info',
      awsSecret: undefined,
    });
  });

  it('parses each value into its type', () => {
    const settings = load({
      ...BASE,
      DYNAMODB_ENDPOINT: 'http://127.0.0.1:8000',
      LANDLORD_OPERATOR_CONCURRENCY: '16',
      LANDLORD_SYNC_MAX_DELETE_SHARE: '.5',
      LANDLORD_LEADER_ELECT: 'false',
      LANDLORD_LOG_LEVEL: 'debug',
      AWS_SECRET_ACCESS_KEY: 'wJalrXUtnFEMI/K7MDENG',
    });
    expect(settings).toMatchObject({
      concurrency: 16,
      maxDeleteShare: 0.5,
      leaderElect: false,
      logLevel: 'debug',
    });
    expect(settings.endpoint).toBe('http://127.0.0.1:8000');
  });

  it('treats an empty variable as unset', () => {
    expect(load({ ...BASE, LANDLORD_OPERATOR_CONCURRENCY: '' }).concurrency).toBe(4);
    expect(errorOf({ DYNAMODB_TABLE: '' })).toBe('DYNAMODB_TABLE is required: the DynamoDB table to mirror');
  });

  it('names a missing required variable and what it is for', () => {
    expect(errorOf({})).toBe('DYNAMODB_TABLE is required: the DynamoDB table to mirror');
  });

  it.each([
    [
      'LANDLORD_OPERATOR_CONCURRENCY',
      'abc',
      'LANDLORD_OPERATOR_CONCURRENCY="abc": expected an integer ≥ 1 and ≤ 64',
    ],
    [
      'LANDLORD_OPERATOR_CONCURRENCY',
      '0',
      'LANDLORD_OPERATOR_CONCURRENCY="0": expected an integer ≥ 1 and ≤ 64',
    ],
    [
      'LANDLORD_OPERATOR_CONCURRENCY',
      '2.5',
      'LANDLORD_OPERATOR_CONCURRENCY="2.5": expected an integer ≥ 1 and ≤ 64',
    ],
    [
      'LANDLORD_OPERATOR_CONCURRENCY',
      ' 4',
      'LANDLORD_OPERATOR_CONCURRENCY=" 4": expected an integer ≥ 1 and ≤ 64',
    ],
    [
      'LANDLORD_OPERATOR_CONCURRENCY',
      '0x10',
      'LANDLORD_OPERATOR_CONCURRENCY="0x10": expected an integer ≥ 1 and ≤ 64',
    ],
    [
      'LANDLORD_SYNC_MAX_DELETE_SHARE',
      '1.5',
      'LANDLORD_SYNC_MAX_DELETE_SHARE="1.5": expected a number ≥ 0 and ≤ 1',
    ],
    [
      'LANDLORD_SYNC_MAX_DELETE_SHARE',
      'Infinity',
      'LANDLORD_SYNC_MAX_DELETE_SHARE="Infinity": expected a number ≥ 0 and ≤ 1',
    ],
    ['LANDLORD_LEADER_ELECT', 'yes', 'LANDLORD_LEADER_ELECT="yes": expected true or false'],
    ['LANDLORD_LEADER_ELECT', 'TRUE', 'LANDLORD_LEADER_ELECT="TRUE": expected true or false'],
    ['LANDLORD_LOG_LEVEL', 'loud', 'LANDLORD_LOG_LEVEL="loud": expected one of error, warn, info, debug'],
    [
      'DYNAMODB_ENDPOINT',
      'localhost:8000',
      'DYNAMODB_ENDPOINT="localhost:8000": expected a string matching /^https?:///',
    ],
  ])('refuses %s=%j in one line', (variable, value, message) => {
    expect(errorOf({ ...BASE, [variable]: value })).toBe(message);
  });

  it('never shows the value of a secret setting', () => {
    const message = errorOf({ ...BASE, AWS_SECRET_ACCESS_KEY: 'short-secret' });
    expect(message).toBe('AWS_SECRET_ACCESS_KEY="***": expected a string of at least 16 characters');
    expect(message).not.toContain('short-secret');
  });

  it('reports the first bad setting in spec order', () => {
    expect(errorOf({ LANDLORD_LEADER_ELECT: 'maybe', LANDLORD_OPERATOR_CONCURRENCY: 'x' })).toMatch(
      /^DYNAMODB_TABLE/,
    );
    expect(errorOf({ ...BASE, LANDLORD_LEADER_ELECT: 'maybe', LANDLORD_OPERATOR_CONCURRENCY: 'x' })).toMatch(
      /^LANDLORD_OPERATOR_CONCURRENCY/,
    );
  });

  it('keeps the message on one line and short, whatever the value', () => {
    const message = errorOf({ ...BASE, LANDLORD_LOG_LEVEL: `${'x'.repeat(200)}\nINJECTED` });
    expect(message).not.toContain('\n');
    expect(message).not.toContain('INJECTED');
    expect(message.length).toBeLessThan(140);
  });

  it('blames a bad default on the default', () => {
    const specs = {
      port: {
        env: 'PORT',
        description: 'port',
        default: '99999',
        schema: { type: 'integer', maximum: 65535 },
      },
    } as const;
    expect(() => loadSettings<{ port: number }>(specs, {})).toThrow(
      'PORT="99999" (the default): expected an integer ≤ 65535',
    );
  });

  it('refuses a schema keyword that does not fit the type, as a mistake in the spec', () => {
    const specs = {
      port: { env: 'PORT', description: 'port', schema: { type: 'string', minimum: 1 } },
    } as const;
    expect(() => loadSettings<{ port: string }>(specs, { PORT: '80' })).toThrow(/minimum/);
  });

  it('rejects integers past the safe range rather than rounding them', () => {
    const specs = { n: { env: 'N', description: 'n', schema: { type: 'integer' } } } as const;
    expect(() => loadSettings<{ n: number }>(specs, { N: '9007199254740993' })).toThrow(
      'N="9007199254740993": expected an integer',
    );
    expect(loadSettings<{ n: number }>(specs, { N: '-42' }).n).toBe(-42);
  });
});

describe('expected', () => {
  it('words exclusive bounds and lengths', () => {
    expect(expected({ type: 'number', exclusiveMinimum: 0, exclusiveMaximum: 1 })).toBe(
      'a number > 0 and < 1',
    );
    expect(expected({ type: 'string', maxLength: 63 })).toBe('a string of at most 63 characters');
    expect(expected({ type: 'string' })).toBe('a string');
  });
});

describe('describeSettings', () => {
  it('prints an aligned help table with defaults, and hides secrets', () => {
    const table = describeSettings(SPECS).split('\n');
    expect(table[0]).toMatch(/^VARIABLE\s+DEFAULT\s+MEANING$/);
    expect(table).toHaveLength(Object.keys(SPECS).length + 1);
    expect(table[1]).toMatch(/^DYNAMODB_TABLE\s+\(required\)\s+the DynamoDB table to mirror \(a string/);
    expect(table[2]).toMatch(/^DYNAMODB_ENDPOINT\s+\(unset\)\s+/);
    expect(table[3]).toMatch(
      /^LANDLORD_OPERATOR_CONCURRENCY\s+4\s+tenants reconciled at once \(an integer ≥ 1 and ≤ 64\)$/,
    );
    const meaningColumn = table.map((line) =>
      line.search(/(MEANING|the DynamoDB|DynamoDB endpoint|tenants reconciled)/),
    );
    expect(new Set(meaningColumn.slice(0, 4)).size).toBe(1);
  });

  it('prints a Markdown table for docs/configuration.md', () => {
    const table = describeSettings(SPECS, 'markdown').split('\n');
    expect(table.slice(0, 2)).toEqual(['| Variable | Default | Meaning |', '|---|---|---|']);
    expect(table).toContain(
      '| `LANDLORD_LEADER_ELECT` | `true` | take part in leader election through a Lease (true or false) |',
    );
    expect(table).toContain(
      '| `DYNAMODB_TABLE` | (required) | the DynamoDB table to mirror (a string of at least 3 characters and of at most 255 characters and matching /^[A-Za-z0-9_.-]+$/) |',
    );
  });
});
