// The heap-by-kind reading on a real snapshot of this process: a client-node ListWatch holding
// objects is named by its path and selector, and retains what only it holds, not what it shares.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeHeapSnapshot } from 'node:v8';
import { ListWatch, type KubernetesObject, type Watch } from '@kubernetes/client-node';
import { afterAll, describe, expect, it } from 'vitest';
import { holdersOf } from '../heap-by-kind.js';
import { HeapGraph, type HeapSnapshotFile } from './heap-snapshot.js';

const OBJECTS = 500;
const UNIQUE = 2_000;
const SHARED = 4_000_000;

/** Held by the cache and by the index alike, so by neither alone. */
const shared = { text: 's'.repeat(SHARED) };

class ChildIndex {
  readonly keys = Array.from({ length: OBJECTS }, () => randomBytes(50).toString('hex'));
  readonly common = shared;
}

function service(i: number): KubernetesObject & { spec: unknown } {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name: `svc-${i}`, namespace: 'tenant-a', resourceVersion: '1' },
    spec: { note: randomBytes(UNIQUE / 2).toString('hex'), common: shared },
  };
}

/** A ListWatch that listed OBJECTS Services and whose watch never sends anything. */
async function listedCache(): Promise<ListWatch<KubernetesObject>> {
  const watch = { watch: () => Promise.resolve({ abort: () => undefined }) } as unknown as Watch;
  const list = () =>
    Promise.resolve({
      apiVersion: 'v1',
      kind: 'ServiceList',
      metadata: { resourceVersion: '1' },
      items: Array.from({ length: OBJECTS }, (_, i) => service(i)),
    });
  const cache = new ListWatch<KubernetesObject>(
    '/api/v1/services',
    watch,
    list,
    false,
    'landlord.dev/tenant',
  );
  await cache.start();
  return cache;
}

describe('heap by kind', () => {
  const dir = mkdtempSync(join(tmpdir(), 'heap-by-kind-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('reads what each cache and index alone retains', async () => {
    const cache = await listedCache();
    const index = new ChildIndex();
    const file = writeHeapSnapshot(join(dir, 'test.heapsnapshot'));
    const graph = new HeapGraph(JSON.parse(readFileSync(file, 'utf8')) as HeapSnapshotFile);
    const { holders, heapBytes } = holdersOf(graph, OBJECTS);

    const services = holders.find((h) => h.holder === 'cache services [landlord.dev/tenant]');
    const children = holders.find((h) => h.holder === 'ChildIndex');
    // Each Service's own note is its cache's alone; the 4 MB string both hold is neither's.
    expect(services?.bytes).toBeGreaterThan(OBJECTS * UNIQUE);
    expect(services?.bytes).toBeLessThan(OBJECTS * UNIQUE * 2);
    expect(children?.bytes).toBeGreaterThan(OBJECTS * 100);
    expect(children?.bytes).toBeLessThan(SHARED);
    expect(heapBytes).toBeGreaterThan(SHARED + OBJECTS * UNIQUE);
    expect(cache.list('tenant-a')).toHaveLength(OBJECTS);
    expect(index.keys).toHaveLength(OBJECTS);
    await cache.stop();
  });
});
