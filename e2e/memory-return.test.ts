// A component hands V8's spare pages back to the system once it is quiet (runtime/memory-return.ts):
// after start-up, with the manifests' NODE_OPTIONS (which include --expose-gc), the operator logs one
// return that lowered its resident set, and at rest it does not collect again; without --expose-gc
// it says once why it does not.
import { afterAll, describe, expect, it } from 'vitest';
import { deployedNodeOptions } from '../bench/deployed.js';
import { CHECK_MS } from '../runtime/memory-return.js';
import { componentEnv, startLandlord, type LandlordProcess, type LogLine } from './support/landlord.js';

const RETURNED = 'returned spare heap pages to the system';
/** As deployed: the NODE_OPTIONS of config/manager/operator.yaml. */
const DEPLOYED = deployedNodeOptions('operator');

const started: LandlordProcess[] = [];
const start = (nodeOptions: string): LandlordProcess => {
  const operator = startLandlord(
    'operator',
    componentEnv({ LANDLORD_LOG_LEVEL: 'info', NODE_OPTIONS: nodeOptions }),
  );
  started.push(operator);
  return operator;
};

afterAll(async () => {
  for (const operator of started) expect(await operator.stop()).toBe(0);
});

describe('returning spare heap pages', () => {
  it("runs with the manifests' NODE_OPTIONS, which expose it", () => {
    expect(DEPLOYED.split(/\s+/)).toContain('--expose-gc');
  });

  it("lowers a quiet operator's resident set once after start-up, then not again at rest", async () => {
    const operator = start(DEPLOYED);
    await operator.ready();
    const line: LogLine = await operator.waitForLog((l) => l.msg === RETURNED);
    const before = Number(line.rssBeforeMiB);
    const after = Number(line.rssAfterMiB);
    // Measured: 10-12 MiB per component at rest (docs/performance-notes/memory.md, "V8's page pool").
    expect(after).toBeLessThanOrEqual(before - 4);
    await new Promise((resolve) => setTimeout(resolve, 3 * CHECK_MS));
    expect(operator.logs.filter((l) => l.msg === RETURNED)).toHaveLength(1);
  }, 90_000);

  it('says why it does not when node runs without --expose-gc', async () => {
    const operator = start(DEPLOYED.replace('--expose-gc', ''));
    await operator.waitForLog(
      (l) => typeof l.msg === 'string' && l.msg.startsWith("V8's spare pages stay resident"),
    );
    expect(operator.logs.some((l) => l.msg === RETURNED)).toBe(false);
  }, 60_000);
});
