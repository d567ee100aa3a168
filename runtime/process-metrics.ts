// The Node.js process metrics (CPU, memory, heap spaces, event-loop lag, handles) that prom-client's
// collectDefaultMetrics registers, all but one: its garbage-collection histogram. That one keeps a
// PerformanceObserver for every GC, whose entries wait in a buffer until the event loop gets round
// to them. In a cold start of 10,000 tenants the operator's loop fell behind while small young
// generations made GCs frequent: 20,747 entries, 95 MiB of a 235 MiB heap, and the heap ran out.
// The heap metrics below say what the GC achieves; its pauses show in the event-loop lag.
import { createRequire } from 'node:module';
import type { DefaultMetricsCollectorConfiguration, Registry } from 'prom-client';

type MetricModule = (
  registry: Registry,
  config: DefaultMetricsCollectorConfiguration<'text/plain; version=0.0.4; charset=utf-8'>,
) => void;

/** prom-client's own default metric modules (it has no exports map, so its files may be named). */
const MODULES = [
  'processCpuTotal',
  'processStartTime',
  'osMemoryHeap',
  'processOpenFileDescriptors',
  'processMaxFileDescriptors',
  'eventLoopLag',
  'processResources',
  'processHandles',
  'processRequests',
  'heapSizeAndUsed',
  'heapSpacesSizeAndUsed',
  'version',
] as const;

const require = createRequire(import.meta.url);

/** Registers the process metrics (prefixed) in the registry: collectDefaultMetrics without the GC histogram. */
export function collectProcessMetrics(registry: Registry, prefix: string): void {
  const config = { register: registry, prefix, eventLoopMonitoringPrecision: 10 };
  for (const name of MODULES) {
    // processResources needs process.getActiveResourcesInfo, which every supported Node.js has.
    (require(`prom-client/lib/metrics/${name}`) as MetricModule)(registry, config);
  }
}
