// The bench's command line and the rows it writes: pure, no cluster.
import { describe, expect, it } from 'vitest';
import { parseArgs } from './args.js';
import { benchReplicas, deployment, row } from './rows.js';

describe('--no-pods', () => {
  it('is off by default: every Deployment runs one pod', () => {
    const options = parseArgs(['--quick']);
    expect(options.pods).toBe(true);
    expect(benchReplicas(options)).toBe(1);
  });

  it('gives Deployments no replica, in the rows and the baseline alike', () => {
    const options = parseArgs(['--quick', '--no-pods']);
    expect(options.pods).toBe(false);
    const replicas = benchReplicas(options);
    expect(replicas).toBe(0);
    expect(deployment('t-00001', 'nginx:1.27', replicas).spec?.replicas).toBe(0);
    const spec = JSON.parse(row('t-00001', replicas).spec!.S!) as { spec: { replicas: number } };
    expect(spec.spec.replicas).toBe(0);
  });
});

describe('--expose', () => {
  it('is off by default, and on when asked', () => {
    expect(parseArgs(['--quick']).expose).toBe(false);
    expect(parseArgs(['--quick', '--expose']).expose).toBe(true);
  });
});
