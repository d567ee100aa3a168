// Issue 55, attack 9: a tenant team floods the operator's caches. Objects labelled like landlord's
// children were held whole by its informers: 160 Secrets with 32 MB of annotations grew the operator
// by 47 MiB of its 384 MiB limit, and every re-list would hold them again. The caches now keep only
// what landlord made for a Tenant whole, and anything else as a stub of the few fields the decisions
// read (docs/adr/0012-foreign-objects-in-caches.md). Here: the honest path first (a tenant converges,
// an edited child is put back), then 1,000 Secrets with landlord's tenant label and 200 KB of
// annotations each in the tenant's namespace; the operator's heap grows by less than 16 MiB after it
// has seen them, and a restarted operator (which lists them afresh) holds no more.
//
// The operator runs with the manifests' NODE_OPTIONS (--max-old-space-size=160: the flood whole would
// not fit). Heap is read as memory.test.ts reads it: landlord_nodejs_heap_size_used_bytes right after
// a heap snapshot, which Node takes only after a full collection. The resident set, V8's reserved
// heap and external memory are printed beside it: they hold what a burst left and was not yet
// handed back (runtime/memory-return.ts), not what the caches keep.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { V1ConfigMap } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deployedNodeOptions } from '../bench/deployed.js';
import { LABEL, type Tenant } from '../api/tenant.js';
import { waitUntil } from '../harness/wait.js';
import { clients, uniqueName } from './support/env.js';
import { createClass, deleteClass, ready, tenantOf } from './support/escape.js';
import { kubectl } from './support/kubectl.js';
import { componentEnv, metricValue, startLandlord, type LandlordProcess } from './support/landlord.js';
import { inBatches } from './support/suite.js';
import { deleteTenant, createTenant } from './support/tenants.js';

const SECRETS = 1000;
/** Under the API server's 256 KiB limit on all of an object's annotations. */
const ANNOTATION_BYTES = 200 * 1024;
const ALLOWED_GROWTH = 16 * 2 ** 20;
const FLOOD = 'flood.example/batch';

const { core, custom } = clients();
const id = uniqueName('flood');
const className = `${id}-class`;
const tenant = `${id}-t`;
let namespace: string;
let snapshots: string;
let operator: LandlordProcess;

const mib = (bytes: number): string => (bytes / 2 ** 20).toFixed(1);

/** As deployed (config/manager/operator.yaml's NODE_OPTIONS, the image's malloc arenas), and able to snapshot. */
function startOperator(): LandlordProcess {
  const node = `${deployedNodeOptions('operator')} --heapsnapshot-signal=SIGUSR2 --diagnostic-dir=${snapshots}`;
  const env = { LANDLORD_LOG_LEVEL: 'info', NODE_OPTIONS: node, MALLOC_ARENA_MAX: '2' };
  return startLandlord('operator', componentEnv(env));
}

interface Memory {
  heap: number;
  /** Resident set, V8's heap as reserved and memory outside it (buffers), printed beside. */
  rss: number;
  heapTotal: number;
  external: number;
}

/** What it holds after a full collection (the lowest of a few reads), and its resident set. */
async function memory(): Promise<Memory> {
  // Read before the snapshots, which raise them for a while.
  const text = await operator.metrics();
  const rss = metricValue(text, 'landlord_process_resident_memory_bytes');
  const heapTotal = metricValue(text, 'landlord_nodejs_heap_size_total_bytes');
  const external = metricValue(text, 'landlord_nodejs_external_memory_bytes');
  let heap = Infinity;
  for (let i = 0; i < 3; i++) {
    operator.kill('SIGUSR2');
    heap = Math.min(heap, metricValue(await operator.metrics(), 'landlord_nodejs_heap_size_used_bytes'));
  }
  return { heap, rss, heapTotal, external };
}

const described = (m: Memory): string =>
  `heap ${mib(m.heap)} MiB (V8 reserved ${mib(m.heapTotal)}, external ${mib(m.external)}, RSS ${mib(m.rss)})`;

/** The Secrets' watch events the operator has handled. */
async function secretEvents(): Promise<number> {
  return metricValue(await operator.metrics(), 'landlord_watch_events_total', { kind: 'Secret' });
}

/** A Secret a team could make: landlord's tenant label, 200 KB of annotations of its own. */
function floodSecret(i: number): object {
  const blob = `${i}:${Math.random().toString(36)}:`.padEnd(ANNOTATION_BYTES, 'x');
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: {
      name: `flood-${i}`,
      labels: { [LABEL.tenant]: tenant, [FLOOD]: id },
      annotations: { 'flood.example/blob': blob },
    },
    data: { key: Buffer.from(`value-${i}`).toString('base64') },
  };
}

const configName = `${tenant}-config-0`;

/** The team edits landlord's ConfigMap; the operator puts it back. */
async function editedChildIsPutBack(): Promise<void> {
  await kubectl(
    'patch',
    'configmap',
    configName,
    '-n',
    namespace,
    '--type=merge',
    '-p',
    '{"data":{"key":"tampered"}}',
  );
  await waitUntil(
    `ConfigMap ${configName} to be put back`,
    async () => {
      const cm: V1ConfigMap = await core.readNamespacedConfigMap({ name: configName, namespace });
      return cm.data?.key === 'value' || undefined;
    },
    { timeoutMs: 60_000, abortIf: operator.assertRunning },
  );
}

beforeAll(async () => {
  snapshots = await mkdtemp(join(tmpdir(), 'landlord-flood-'));
  await createClass(custom, className, { namespace: { mode: 'PerTenant', nameTemplate: 'tenant-{name}' } });
  operator = startOperator();
  await operator.ready();
});

afterAll(async () => {
  if (namespace !== undefined) {
    await core.deleteCollectionNamespacedSecret({ namespace, labelSelector: `${FLOOD}=${id}` });
  }
  await deleteTenant(custom, tenant).catch(() => undefined);
  expect(await operator.stop()).toBe(0);
  await deleteClass(custom, className);
  await rm(snapshots, { recursive: true, force: true });
}, 120_000);

describe("Secrets labelled like landlord's children, with large annotations", () => {
  it('leaves the honest path as it was: a tenant converges, an edited child is put back', async () => {
    await createTenant(custom, tenantOf(tenant, className));
    const made: Tenant = await ready(custom, tenant);
    namespace = made.status!.namespace!;
    await editedChildIsPutBack();
  }, 180_000);

  it(`cost the operator under ${mib(ALLOWED_GROWTH)} MiB for ${SECRETS}, and again once re-listed`, async () => {
    const before = await memory();
    const seenBefore = await secretEvents();
    await inBatches(
      Array.from({ length: SECRETS }, (_, i) => i),
      16,
      (i) => core.createNamespacedSecret({ namespace, body: floodSecret(i) }),
    );
    await waitUntil(
      `the operator to see ${SECRETS} Secrets`,
      async () => (await secretEvents()) - seenBefore >= SECRETS || undefined,
      { timeoutMs: 300_000, abortIf: operator.assertRunning },
    );
    // Drift detection of its own children is unchanged among them.
    await editedChildIsPutBack();
    const flooded = await memory();
    console.log(
      `operator before: ${described(before)}; after ${SECRETS} Secrets of ${ANNOTATION_BYTES / 1024} KB ` +
        `annotations: ${described(flooded)}; heap growth ${mib(flooded.heap - before.heap)} MiB`,
    );
    expect(flooded.heap - before.heap).toBeLessThan(ALLOWED_GROWTH);

    // A restart lists every Secret afresh, page by page, as a re-list after 410 Gone does.
    expect(await operator.stop()).toBe(0);
    operator = startOperator();
    await operator.ready();
    await ready(custom, tenant);
    await editedChildIsPutBack();
    const relisted = await memory();
    console.log(
      `restarted operator, having listed them: ${described(relisted)}; heap growth over the first's ` +
        `before the flood ${mib(relisted.heap - before.heap)} MiB`,
    );
    expect(relisted.heap - before.heap).toBeLessThan(ALLOWED_GROWTH);
  }, 900_000);
});
