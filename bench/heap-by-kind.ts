// Where the operator's heap goes, by what holds it: `--heap-by-kind` starts one more operator after
// a run's measurements (so its snapshot spoils none of them), waits for its first full resync, has
// it write a V8 heap snapshot (node's --heapsnapshot-signal), and reads what each of its caches
// and indexes retains per Tenant off the snapshot's dominator tree (measure/heap-snapshot.ts). A
// cache is client-node's ListWatch, named by the path it lists; an index by its class.
import { mkdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { HeapGraph, type HeapSnapshotFile } from './measure/heap-snapshot.js';
import type { Session } from './scenarios/session.js';

/** The operator's indexes beside its caches, by class name: none of them holds another. */
const INDEXES = [
  'ChildIndex',
  'HostIndex',
  'NeighbourIndex',
  'WorkQueue',
  'SubtreePool',
  'StatusHold',
  'Generations',
  'RolloutTimes',
] as const;

/** A string can hold 2^29 characters in V8: a larger snapshot is left to DevTools. */
const LARGEST_READ = 500 * 1024 * 1024;

export interface HeapHolder {
  /** "cache services [landlord.dev/tenant]", or an index's class. */
  holder: string;
  bytes: number;
}

export interface HeapByKind {
  tenants: number;
  /** Live heap in the snapshot. */
  heapBytes: number;
  /** Largest first; what no single holder retains (code, modules, what several share) is the rest. */
  holders: HeapHolder[];
  snapshot: string;
}

/** One more operator, its first resync, its snapshot, and what each holder retains. */
export async function measureHeapByKind(session: Session): Promise<HeapByKind | { error: string }> {
  const dir = join(session.ctx.runDir, `heap-${session.logPrefix()}${session.n}`);
  mkdirSync(dir, { recursive: true });
  const operator = session.startOperator('snapshot-operator', {}, { heapSnapshotDir: dir });
  const timeout = session.ctx.timeoutMs(session.n);
  await operator.waitForLog((l) => l.msg === 'resync complete', timeout);
  const snapshot = await operator.heapSnapshot(timeout);
  await session.stopOperator('snapshot-operator');
  if (statSync(snapshot).size > LARGEST_READ) return { error: `${snapshot} is too large to read here` };
  const file = JSON.parse(readFileSync(snapshot, 'utf8')) as HeapSnapshotFile;
  return { ...holdersOf(new HeapGraph(file), session.n), snapshot };
}

/** What each cache and index in the snapshot retains. */
export function holdersOf(graph: HeapGraph, tenants: number): Omit<HeapByKind, 'snapshot'> {
  const indexes = new Set<string>(INDEXES);
  const holders: HeapHolder[] = [];
  for (let node = 0; node < graph.count; node++) {
    if (graph.type(node) !== 'object') continue;
    const name = graph.name(node);
    const holder = name === 'ListWatch' ? cacheName(graph, node) : indexes.has(name) ? name : undefined;
    if (holder !== undefined) holders.push({ holder, bytes: graph.retained(node) });
  }
  holders.sort((a, b) => b.bytes - a.bytes || a.holder.localeCompare(b.holder));
  return { tenants, heapBytes: graph.total, holders };
}

/** "cache ingresses [all]", "cache secrets in platform-secrets [all]", "cache services [landlord.dev/tenant]". */
function cacheName(graph: HeapGraph, listWatch: number): string {
  const path = graph.property(listWatch, 'path');
  const selector = graph.property(listWatch, 'labelSelector');
  const segments = (path === undefined ? '' : graph.name(path)).split('/');
  const resource = segments.at(-1) ?? '';
  const namespace = segments.at(-3) === 'namespaces' ? ` in ${segments.at(-2)}` : '';
  // A string node may be flat, concatenated or sliced; any other value (undefined) selects all.
  const selected =
    selector === undefined || !graph.type(selector).endsWith('string') ? 'all' : graph.name(selector);
  return `cache ${resource}${namespace} [${selected}]`;
}
