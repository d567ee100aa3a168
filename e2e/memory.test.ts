// Memory never grows with the number of edits: one 300 KB row edited over and over (its Tenant's
// spec patched directly, faster than through DynamoDB), each edit applied before the next, leaves
// the operator's heap where it was. The pod asks for an emptyDir of sizeLimit "1024Mi", which the
// API server stores as "1Gi", so every apply takes the path that remembers a normalized manifest:
// the cache that once kept one per hash, a 300 KB copy per edit.
//
// Heap is read from the operator's own /metrics (landlord_nodejs_heap_size_used_bytes) right after
// a heap snapshot, which Node takes (--heapsnapshot-signal) only after a full garbage collection:
// what is left is what the operator holds, not garbage it has yet to collect. By default 100
// edits, compared between edit 30 and 100: a leak of one manifest per edit would show as ~21 MB,
// against 12 MiB allowed and ~2 MiB measured. LANDLORD_SOAK=1 runs the 1,000 edits
// (compared between 100 and 1,000: ~270 MB).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { V1Deployment } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONDITION, type Tenant } from '../api/tenant.js';
import { waitUntil } from '../harness/wait.js';
import { clients, uniqueName } from './support/env.js';
import { componentEnv, metricValue, startLandlord, type LandlordProcess } from './support/landlord.js';
import {
  condition,
  createTenant,
  deleteTenant,
  readTenant,
  setSpec,
  tenantManifest,
} from './support/tenants.js';

const SOAK = process.env.LANDLORD_SOAK === '1';
const EDITS = SOAK ? 1000 : 100;
const BASELINE_AT = SOAK ? 100 : 30;
/** Far below a leak of one 300 KB manifest per edit over the edits between the samples. */
const ALLOWED_GROWTH = (SOAK ? 24 : 12) * 1024 * 1024;
const ROW_BYTES = 300 * 1024;

const { core, custom } = clients();
const ns = uniqueName('mem');
const name = `${ns}-big`;
let operator: LandlordProcess;
let cleanup: () => Promise<void> = () => Promise.resolve();

/** The row's Deployment at edit `i`: 300 KB of environment that changes with every edit. */
function spec(i: number): Tenant['spec'] {
  const tenant = tenantManifest(name, ns, 0);
  const deployment: V1Deployment = tenant.spec!.deployment!;
  deployment.spec!.replicas = 0;
  deployment.spec!.revisionHistoryLimit = 1;
  const container = deployment.spec!.template.spec!.containers[0]!;
  deployment.spec!.template.spec!.volumes = [{ name: 'scratch', emptyDir: { sizeLimit: '1024Mi' } }];
  container.env = [{ name: 'BLOB', value: `${i}:${'x'.repeat(ROW_BYTES)}` }];
  return tenant.spec;
}

async function applied(generation: number): Promise<void> {
  await waitUntil(
    `Tenant ${name} applied at generation ${generation}`,
    async () => {
      const tenant = await readTenant(custom, name);
      const c = condition(tenant, CONDITION.applied);
      return c?.status === 'True' && c.observedGeneration === generation;
    },
    { timeoutMs: 60_000, intervalMs: 25 },
  );
}

/**
 * The heap the operator holds, in bytes: read after a snapshot (so after a full collection). The
 * snapshot blocks the operator's one thread, so the metrics request sent after the signal is
 * answered once it is done (on a connection of its own: e2e/support/landlord.ts says why); the
 * lowest of a few reads allows for a reconcile still finishing.
 */
async function liveHeap(): Promise<number> {
  let lowest = Infinity;
  for (let i = 0; i < 3; i++) {
    operator.kill('SIGUSR2');
    lowest = Math.min(lowest, metricValue(await operator.metrics(), 'landlord_nodejs_heap_size_used_bytes'));
  }
  return lowest;
}

beforeAll(async () => {
  await core.createNamespace({ body: { metadata: { name: ns } } });
  const snapshots = await mkdtemp(join(tmpdir(), 'landlord-heap-'));
  cleanup = () => rm(snapshots, { recursive: true, force: true });
  const node = `--max-old-space-size=256 --heapsnapshot-signal=SIGUSR2 --diagnostic-dir=${snapshots}`;
  operator = startLandlord('operator', componentEnv({ LANDLORD_LOG_LEVEL: 'info', NODE_OPTIONS: node }));
  await operator.ready();
});

afterAll(async () => {
  expect(await operator.stop()).toBe(0);
  await cleanup();
  await core.deleteNamespace({ name: ns });
});

describe('editing one 300 KB row over and over', () => {
  it(
    `${EDITS} edits leave the operator's heap where it was after ${BASELINE_AT}`,
    async () => {
      await createTenant(custom, { ...tenantManifest(name, ns, 0), spec: spec(1) });
      await applied(1);
      let baseline = 0;
      for (let i = 2; i <= EDITS; i++) {
        await setSpec(custom, name, spec(i));
        await applied(i);
        if (i === BASELINE_AT) baseline = await liveHeap();
      }
      const after = await liveHeap();
      const growth = after - baseline;
      console.log(
        `heap after ${BASELINE_AT} edits ${(baseline / 2 ** 20).toFixed(1)} MiB, after ${EDITS} ${(after / 2 ** 20).toFixed(1)} MiB, growth ${(growth / 2 ** 20).toFixed(1)} MiB`,
      );
      expect(growth).toBeLessThan(ALLOWED_GROWTH);
      await deleteTenant(custom, name);
    },
    SOAK ? 1_800_000 : 600_000,
  );
});
