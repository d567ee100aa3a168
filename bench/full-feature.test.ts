// The fullfeature scenario's two sides, its ratios and its table rows: pure, no cluster.
import { describe, expect, it } from 'vitest';
import { parseArgs } from './args.js';
import {
  FULL_FEATURE_SERVICES,
  apiServerMsPerTenant,
  fullFeatureRows,
  fullFeatureTable,
  fullOptions,
  fullOverPlain,
  plainOptions,
} from './full-feature.js';
import type { SizeResult } from './report.js';
import { row, services } from './rows.js';

function sized(n: number, apiServerCpu: number, operatorPeakMiB: number): SizeResult {
  return {
    n,
    ratio: 1.4,
    baseline: { seconds: 50, cpuSeconds: { 'kube-apiserver': apiServerCpu / 2 } } as never,
    landlord: {
      cold: { seconds: 70, cpuSeconds: { 'kube-apiserver': apiServerCpu } } as never,
      memory: { syncPeakMiB: 100, operatorPeakMiB, processes: {} },
    },
  };
}

describe('fullfeature', () => {
  it('is a scenario of its own, run beside nothing else when asked alone', () => {
    expect(parseArgs(['--scenarios=fullfeature']).scenarios).toEqual(['fullfeature']);
    expect(parseArgs([]).scenarios).toContain('fullfeature');
    expect(parseArgs(['--quick']).scenarios).not.toContain('fullfeature');
  });

  it('turns every feature on for the full side and off for the plain one, whatever the flags', () => {
    const options = parseArgs(['--expose', '--secrets']);
    expect(plainOptions(options)).toMatchObject({
      expose: false,
      secrets: false,
      rowStatus: false,
      services: 1,
    });
    expect(fullOptions(parseArgs([]))).toMatchObject({
      expose: true,
      secrets: true,
      rowStatus: true,
      services: FULL_FEATURE_SERVICES,
    });
  });

  it('reads API server CPU per tenant in milliseconds, and the ratios full over plain', () => {
    const plain = sized(1000, 30, 130);
    const full = sized(1000, 39, 156);
    expect(apiServerMsPerTenant(plain, 'landlord')).toBe(30);
    expect(apiServerMsPerTenant(plain, 'baseline')).toBe(15);
    expect(fullOverPlain(plain, full)).toEqual({ apiServerCpu: 1.3, operatorMemory: 1.2 });
    expect(fullOverPlain({ n: 1000 }, full)).toEqual({ apiServerCpu: undefined, operatorMemory: undefined });
  });

  it('prints plain then full at each size, and the ratios under the table', () => {
    const result = { n: 1000, plain: sized(1000, 30, 130), full: sized(1000, 39, 156), fullOverPlain: {} };
    result.fullOverPlain = fullOverPlain(result.plain, result.full);
    expect(fullFeatureRows([result]).map((r) => r.mode)).toEqual(['plain', 'full']);
    const table = fullFeatureTable([result]);
    expect(table).toContain('API CPU ms/tenant');
    expect(table).toMatch(/\| +1000 \| +full \| +1\.40 \| +70\.0 \| +50\.0 \| +39\.0 \| +19\.5 \|/);
    expect(table).toContain(
      'full over plain (goal ≤ 1.5): API server CPU per tenant 1.30, operator peak memory 1.20',
    );
    expect(fullFeatureTable([])).toBe('');
  });
});

describe('rows with several services', () => {
  it('keeps one Deployment as rows have always held it', () => {
    const spec = JSON.parse(row('t-00001', { replicas: 1, services: 1 }).spec!.S!) as { kind: string };
    expect(spec.kind).toBe('Deployment');
  });

  it('writes several as an array, each named and selected apart', () => {
    const list = services('t-00001', { replicas: 0, services: 2 });
    expect(list.map((d) => d.metadata?.name)).toEqual(['t-00001-app', 't-00001-app-2']);
    expect(list[1]!.spec?.selector.matchLabels).toEqual({ app: 't-00001-2' });
    expect(list[1]!.spec?.template.metadata?.labels).toEqual({ app: 't-00001-2' });
    expect(list.every((d) => d.spec?.replicas === 0)).toBe(true);
    const spec = JSON.parse(row('t-00001', { replicas: 0, services: 2 }).spec!.S!) as unknown[];
    expect(spec).toHaveLength(2);
  });
});
