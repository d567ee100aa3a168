// sync's limits on a row, checked before any write: the size, the ConfigMap count, the outer shape
// of each manifest, unique names and the names controllers own, each refusal naming the attribute.
import { describe, expect, it } from 'vitest';
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { builtInClass } from '../../api/tenantclass.js';
import { readRow, SYNC_ROW_LIMITS } from './index.js';
import type { ParsedRow } from './index.js';

const deployment = (name = 'app'): Record<string, unknown> => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name, namespace: 'team-a' },
  spec: { template: { spec: { containers: [{ name: 'app', image: 'nginx' }] } } },
});
const configMap = (name: string, namespace = 'team-a'): Record<string, unknown> => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, namespace },
  data: { key: 'value' },
});

function item(spec: unknown, configMaps: unknown[]): Record<string, AttributeValue> {
  return {
    name: { S: 'tenant-1' },
    spec: { S: JSON.stringify(spec) },
    customizations: { S: JSON.stringify(configMaps) },
  };
}

function problem(row: ParsedRow): { attribute: string; message: string } | undefined {
  return row.kind === 'invalid' ? row.problem : undefined;
}

describe('readRow: the limits sync holds rows to', () => {
  it('are the default class limits', () => {
    expect(SYNC_ROW_LIMITS.maxConfigMaps).toBe(builtInClass().limits.maxConfigMaps);
    expect(SYNC_ROW_LIMITS.maxRowBytes).toBe(builtInClass().limits.maxRowBytes);
  });

  it('passes a row within them, as parsed', () => {
    const row = readRow(item(deployment(), [configMap('a'), configMap('a', 'team-b'), configMap('b')]));
    expect(row.kind).toBe('tenant');
  });

  it('passes the limit itself: exactly maxConfigMaps ConfigMaps', () => {
    const maps = Array.from({ length: SYNC_ROW_LIMITS.maxConfigMaps }, (_, i) => configMap(`c${i}`));
    expect(readRow(item(deployment(), maps)).kind).toBe('tenant');
  });

  it.each<[string, unknown, unknown[], string, RegExp]>([
    [
      'thousands of empty ConfigMaps, counted before any is looked at',
      deployment(),
      Array.from({ length: 5000 }, () => ({})),
      'customizations',
      /^customizations: 5000 ConfigMaps, more than the 50 allowed \(maxConfigMaps; .*default class limits/,
    ],
    [
      'one ConfigMap past the limit',
      deployment(),
      Array.from({ length: 51 }, (_, i) => configMap(`c${i}`)),
      'customizations',
      /^customizations: 51 ConfigMaps/,
    ],
    [
      'a Deployment over the size limit',
      { ...deployment(), spec: { blob: 'x'.repeat(400 * 1024) } },
      [],
      'spec',
      /^spec: spec and customizations are \d+ bytes of JSON, more than the 409600 allowed \(maxRowBytes/,
    ],
    [
      'ConfigMaps over the size limit together',
      deployment(),
      Array.from({ length: 20 }, (_, i) => ({ ...configMap(`c${i}`), data: { k: 'y'.repeat(21_000) } })),
      'customizations',
      /^customizations: spec and customizations are \d+ bytes/,
    ],
    [
      'a Service instead of a Deployment',
      { ...deployment(), apiVersion: 'v1', kind: 'Service' },
      [],
      'spec',
      /^spec\.apiVersion: must be "apps\/v1", got "v1"/,
    ],
    [
      'a Deployment without a kind',
      { ...deployment(), kind: undefined },
      [],
      'spec',
      /^spec\.kind: must be "Deployment", got nothing/,
    ],
    [
      'a Deployment without metadata',
      { ...deployment(), metadata: undefined },
      [],
      'spec',
      /^spec\.metadata: must be an object/,
    ],
    [
      'a Deployment named by generateName only',
      { ...deployment(), metadata: { generateName: 'app-' } },
      [],
      'spec',
      /^spec\.metadata\.name: must be a DNS-1123 subdomain .*got none/,
    ],
    [
      'a Secret among the ConfigMaps',
      deployment(),
      [configMap('a'), { ...configMap('b'), kind: 'Secret' }],
      'customizations',
      /^customizations\[1\]\.kind: must be "ConfigMap", got "Secret"/,
    ],
    [
      'an empty ConfigMap',
      deployment(),
      [{}],
      'customizations',
      /^customizations\[0\]\.apiVersion: must be "v1", got nothing/,
    ],
    [
      'a ConfigMap name that is not a DNS-1123 subdomain',
      deployment(),
      [configMap('Not_A_Name')],
      'customizations',
      /^customizations\[0\]\.metadata\.name: must be a DNS-1123 subdomain .*"Not_A_Name"/,
    ],
    [
      'two ConfigMaps of one name in one namespace',
      deployment(),
      [configMap('a'), configMap('b'), configMap('a')],
      'customizations',
      /^customizations\[2\]\.metadata\.name: "a" is customizations\[0\]'s name too/,
    ],
    [
      "kube-controller-manager's kube-root-ca.crt",
      deployment(),
      [configMap('kube-root-ca.crt', 'default')],
      'customizations',
      /^customizations\[0\]\.metadata\.name: "kube-root-ca\.crt" is written in every namespace by .*root CA publisher/,
    ],
    [
      "Istio's istio-ca-root-cert",
      deployment(),
      [configMap('a'), configMap('istio-ca-root-cert')],
      'customizations',
      /^customizations\[1\]\.metadata\.name: "istio-ca-root-cert" .*Istio/,
    ],
  ])('refuses %s, naming the attribute', (...[, spec, maps, attribute, message]) => {
    const row = readRow(item(spec, maps));
    expect(row).toMatchObject({ kind: 'invalid', name: 'tenant-1', deleted: false });
    expect(problem(row)?.attribute).toBe(attribute);
    expect(problem(row)?.message).toMatch(message);
  });

  it('lets a row say deleted: true whatever its manifests hold', () => {
    const row = readRow({ ...item(deployment(), [{}, {}]), deleted: { BOOL: true } });
    expect(row).toEqual({ kind: 'deleted', name: 'tenant-1' });
  });

  it('measures native rows as the JSON they become', () => {
    // Small in DynamoDB (one-letter keys and values), over the limit as JSON.
    const keys = Object.fromEntries(Array.from({ length: 60_000 }, (_, i) => [i.toString(36), { S: 'v' }]));
    const native: Record<string, AttributeValue> = {
      name: { S: 'tenant-1' },
      spec: {
        M: {
          apiVersion: { S: 'apps/v1' },
          kind: { S: 'Deployment' },
          metadata: { M: { name: { S: 'app' } } },
          spec: { M: keys },
        },
      },
    };
    expect(problem(readRow(native))?.message).toMatch(/^spec: spec and customizations are \d+ bytes of JSON/);
  });
});
