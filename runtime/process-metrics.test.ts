// The process metrics: prom-client's defaults, without the GC histogram whose observer buffered
// entries by the tens of thousands when the event loop fell behind.
import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { collectProcessMetrics } from './process-metrics.js';

describe('collectProcessMetrics', () => {
  it('registers the process and heap metrics, prefixed, and no GC histogram', async () => {
    const registry = new Registry();
    collectProcessMetrics(registry, 'landlord_');
    const names = (await registry.getMetricsAsJSON()).map((m) => m.name);
    for (const name of [
      'landlord_process_resident_memory_bytes',
      'landlord_process_cpu_seconds_total',
      'landlord_nodejs_heap_size_used_bytes',
      'landlord_nodejs_eventloop_lag_p99_seconds',
    ])
      expect(names).toContain(name);
    expect(names.filter((name) => name.includes('gc'))).toEqual([]);
  });
});
