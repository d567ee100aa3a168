// charts/landlord's values.schema.json against the code: each component's `settings` are exactly
// the environment variables that component reads (`landlord <component> --help`), with the same
// checks, so a setting added, renamed or tightened in the code fails here until the chart follows.
// The settings the chart sets itself (namespace, identity, port, leader election, CRD install, the
// memory request from the downward API) are not values.
import { readFileSync } from 'node:fs';
import { Ajv } from 'ajv';
import { load } from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { OPERATOR_SETTINGS } from '../operator/settings.js';
import { PURGER_SETTINGS } from '../purger/settings.js';
import { COMMON_SETTINGS } from '../runtime/component.js';
import type { SettingSpec } from '../runtime/config.js';
import { SYNC_SETTINGS } from '../sync/settings.js';

const chartFile = (path: string): string =>
  readFileSync(new URL(`../charts/landlord/${path}`, import.meta.url), 'utf8');

interface ObjectSchema {
  properties: Record<string, ObjectSchema & Record<string, unknown>>;
  patternProperties?: Record<string, unknown>;
  required?: string[];
}
const schema = JSON.parse(chartFile('values.schema.json')) as ObjectSchema & Record<string, unknown>;
const values = load(chartFile('values.yaml')) as Record<string, unknown>;

const CHART_OWNED = [
  'POD_NAMESPACE',
  'LANDLORD_IDENTITY',
  'LANDLORD_HTTP_PORT',
  'LANDLORD_LEADER_ELECTION',
  'LANDLORD_INSTALL_CRD',
  'LANDLORD_MEMORY_REQUEST',
];

function expected(specs: Record<string, SettingSpec>[]): Record<string, unknown> {
  const all = specs.flatMap((s) => Object.values(s)).filter((s) => !CHART_OWNED.includes(s.env));
  return Object.fromEntries(all.map((s) => [s.env, { description: s.description, ...s.schema }]));
}

const settingsOf = (component: 'operator' | 'sync' | 'purger'): ObjectSchema =>
  schema.properties[component]!.properties.settings!;

describe('charts/landlord values.schema.json', () => {
  it("gives the operator exactly the operator's settings", () => {
    expect(settingsOf('operator').properties).toEqual(expected([COMMON_SETTINGS, OPERATOR_SETTINGS]));
  });

  it("gives sync exactly sync's settings, plus the AWS SDK's own variables", () => {
    const { AWS_REGION, ...rest } = settingsOf('sync').properties;
    expect(rest).toEqual(expected([COMMON_SETTINGS, SYNC_SETTINGS]));
    expect(AWS_REGION).toMatchObject({ type: 'string' });
    expect(Object.keys(settingsOf('sync').patternProperties ?? {})).toEqual(['^AWS_[A-Z0-9_]+$']);
    expect(settingsOf('sync').required).toEqual(['DYNAMODB_TABLE']);
  });

  it("gives the purger exactly the purger's settings, plus the AWS SDK's own variables", () => {
    const { AWS_REGION, ...rest } = settingsOf('purger').properties;
    expect(rest).toEqual(expected([COMMON_SETTINGS, PURGER_SETTINGS]));
    expect(AWS_REGION).toMatchObject({ type: 'string' });
    expect(Object.keys(settingsOf('purger').patternProperties ?? {})).toEqual(['^AWS_[A-Z0-9_]+$']);
    expect(settingsOf('purger').required).toEqual(['LANDLORD_PURGER_TENANT_TABLES']);
    expect((values.purger as { enabled: boolean }).enabled).toBe(false);
  });

  it('accepts values.yaml, and refuses what helm would refuse', () => {
    const validate = new Ajv({ strict: false }).compile(schema);
    expect(validate(values), JSON.stringify(validate.errors)).toBe(true);
    const withReplicas = (replicas: unknown): unknown => ({
      ...values,
      operator: { ...(values.operator as object), replicas },
    });
    expect(validate(withReplicas(-1))).toBe(false);
    expect(validate(withReplicas('2'))).toBe(false);
    expect(validate({ ...values, unknown: true })).toBe(false);
  });
});
