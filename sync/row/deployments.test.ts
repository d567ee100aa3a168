// A row of several Deployments (issue 58): `spec` as a JSON array, a v1 List or an L of M, read to
// spec.deployments; the seed format (one object) read exactly as before; the count, the names and
// the shape of each held to sync's limits, every refusal naming the element.
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { describe, expect, it } from 'vitest';
import { readRow, rowHash, SYNC_ROW_LIMITS } from './index.js';
import type { ParsedRow } from './index.js';
import { DEFAULT_MAX_DEPLOYMENTS } from '../../api/tenantclass.js';

const deployment = (name: string): Record<string, unknown> => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name },
  spec: {
    selector: { matchLabels: { app: name } },
    template: {
      metadata: { labels: { app: name } },
      spec: { containers: [{ name: 'app', image: 'nginx' }] },
    },
  },
});

const item = (spec: AttributeValue): Record<string, AttributeValue> => ({ name: { S: 'acme' }, spec });
const text = (value: unknown): AttributeValue => ({ S: JSON.stringify(value) });
const list = (...names: string[]): Record<string, unknown> => ({
  apiVersion: 'v1',
  kind: 'List',
  items: names.map(deployment),
});

/** The native form DynamoDB's document clients write: M for objects, L for arrays. */
function native(value: unknown): AttributeValue {
  if (Array.isArray(value)) return { L: value.map(native) };
  if (typeof value === 'object' && value !== null)
    return { M: Object.fromEntries(Object.entries(value).map(([k, v]) => [k, native(v)])) };
  return { S: String(value) };
}

function tenantOf(row: ParsedRow): Extract<ParsedRow, { kind: 'tenant' }> {
  if (row.kind !== 'tenant') throw new Error(row.kind === 'invalid' ? row.problem.message : row.kind);
  return row;
}

const problem = (row: ParsedRow): string | undefined =>
  row.kind === 'invalid' ? row.problem.message : undefined;

describe('readRow: a spec of several Deployments', () => {
  it.each<[string, AttributeValue]>([
    ['a JSON array', text([deployment('web'), deployment('worker')])],
    ['a v1 List', text(list('web', 'worker'))],
    ['an L of M', native([deployment('web'), deployment('worker')])],
    ['an M holding a v1 List', native(list('web', 'worker'))],
  ])('reads %s as spec.deployments, in its order, and no spec.deployment', (_, spec) => {
    const { spec: read } = tenantOf(readRow(item(spec)));
    expect(read.deployment).toBeUndefined();
    expect(read.deployments?.map((d) => d.metadata?.name)).toEqual(['web', 'worker']);
  });

  it('reads the seed format (one object) as spec.deployment, as before', () => {
    const { spec, hash } = tenantOf(readRow(item(text(deployment('web')))));
    expect(Object.keys(spec)).toEqual(['deployment', 'configMaps', 'state']);
    // The hash of a row of one is what it was before several existed: no Tenant is rewritten.
    expect(hash).toBe(rowHash({ deployment: spec.deployment!, configMaps: [] }));
  });

  it('hashes a list apart from its one element, and changes with any element', () => {
    const one = tenantOf(readRow(item(text(deployment('web'))))).hash;
    const listed = tenantOf(readRow(item(text([deployment('web')])))).hash;
    const two = tenantOf(readRow(item(text([deployment('web'), deployment('worker')])))).hash;
    const edited = {
      ...deployment('worker'),
      spec: { ...(deployment('worker').spec as object), replicas: 2 },
    };
    const twoEdited = tenantOf(readRow(item(text([deployment('web'), edited])))).hash;
    expect(new Set([one, listed, two, twoEdited]).size).toBe(4);
  });

  it('hashes the text and the native forms alike', () => {
    const two = [deployment('web'), deployment('worker')];
    expect(tenantOf(readRow(item(text(two)))).hash).toBe(tenantOf(readRow(item(native(two)))).hash);
  });

  it(`passes maxDeployments (${DEFAULT_MAX_DEPLOYMENTS}) Deployments, refuses one more`, () => {
    expect(SYNC_ROW_LIMITS.maxDeployments).toBe(DEFAULT_MAX_DEPLOYMENTS);
    const names = Array.from({ length: DEFAULT_MAX_DEPLOYMENTS + 1 }, (_, i) => `svc-${i}`);
    expect(readRow(item(text(names.slice(0, -1).map(deployment)))).kind).toBe('tenant');
    expect(problem(readRow(item(text(names.map(deployment)))))).toMatch(
      /^spec: 6 Deployments, more than the 5 allowed \(maxDeployments; .*default class limits.*\); split the services/,
    );
  });

  it.each<[string, unknown[], string]>([
    [
      'two of one name',
      [deployment('web'), deployment('worker'), deployment('web')],
      `spec[2].metadata.name: "web" is spec[0]'s name too; each Deployment needs its own name`,
    ],
    [
      'a ConfigMap among them',
      [deployment('web'), { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' } }],
      'spec[1].apiVersion: must be "apps/v1", got "v1"',
    ],
    [
      'one without a name',
      [deployment('web'), { apiVersion: 'apps/v1', kind: 'Deployment', metadata: {} }],
      'spec[1].metadata.name: must be a DNS-1123 subdomain of at most 253 characters, got none',
    ],
  ])('refuses %s, naming the element', (_, deployments, message) => {
    const row = readRow(item(text(deployments)));
    expect(row).toMatchObject({ kind: 'invalid', name: 'acme', problem: { attribute: 'spec', message } });
  });

  it('counts every Deployment in the row size', () => {
    const big = (name: string): Record<string, unknown> => ({
      ...deployment(name),
      metadata: { name, annotations: { pad: 'x'.repeat(SYNC_ROW_LIMITS.maxRowBytes / 2) } },
    });
    expect(readRow(item(text([big('web')]))).kind).toBe('tenant');
    expect(problem(readRow(item(text([big('web'), big('worker')]))))).toMatch(/^spec: .*\(maxRowBytes;/);
  });
});
