import { describe, expect, it } from 'vitest';
import { createMetrics } from './metrics.js';

const EXPECTED_NAMES = [
  'landlord_reconcile_total',
  'landlord_reconcile_duration_seconds',
  'landlord_queue_depth',
  'landlord_queue_in_flight',
  'landlord_status_hold_seconds',
  'landlord_template_upgrade_deployments',
  'landlord_tenants',
  'landlord_api_requests_total',
  'landlord_sync_rows_scanned_total',
  'landlord_sync_scans_total',
  'landlord_sync_stream_lag_seconds',
  'landlord_sync_deletions_held_back_total',
  'landlord_sync_not_owned_total',
  'landlord_sync_invalid_rows',
  'landlord_sync_writes_total',
  'landlord_sync_row_status_writes_total',
  'landlord_dynamodb_retries_total',
  'landlord_purge_items_deleted_total',
  'landlord_purge_throttled_total',
  'landlord_purges_total',
  'landlord_purges',
  'landlord_leader',
  'landlord_memory_returns_total',
];

describe('createMetrics', () => {
  it('registers every landlord metric plus prefixed process metrics', async () => {
    const { registry } = createMetrics('operator');
    const names = (await registry.getMetricsAsJSON()).map((metric) => metric.name);
    expect(names).toEqual(expect.arrayContaining(EXPECTED_NAMES));
    expect(names).toContain('landlord_process_cpu_user_seconds_total');
    expect(names).toContain('landlord_nodejs_heap_size_used_bytes');
    expect(names.every((name) => name.startsWith('landlord_'))).toBe(true);
  });

  it('follows Prometheus naming: counters end in _total, durations in _seconds', async () => {
    const { registry } = createMetrics('sync');
    for (const metric of await registry.getMetricsAsJSON()) {
      if (!EXPECTED_NAMES.includes(metric.name)) continue;
      expect(metric.name.endsWith('_total')).toBe(String(metric.type) === 'counter');
      if (String(metric.type) === 'histogram') expect(metric.name).toMatch(/_seconds$/);
    }
  });

  it('labels every series with the component, and starts known results at zero', async () => {
    const { registry } = createMetrics('operator');
    const text = await registry.metrics();
    expect(text).toContain('landlord_reconcile_total{result="refused",component="operator"} 0');
    expect(text).toContain('landlord_sync_scans_total{result="error",component="operator"} 0');
    expect(text).toMatch(/^landlord_process_cpu_user_seconds_total\{component="operator"\} /m);
    expect(text).toContain('landlord_leader{component="operator"} 0');
  });

  it('records through the typed handles', async () => {
    const metrics = createMetrics('operator');
    metrics.reconcileTotal.inc({ result: 'success' });
    metrics.reconcileDuration.observe(0.2);
    metrics.tenants.set({ condition: 'Ready', status: 'True' }, 3);
    metrics.apiRequestsTotal.inc({ verb: 'PATCH', resource: 'deployments', code: 200 });
    metrics.apiRequestDuration.observe({ verb: 'patch', resource: 'deployments' }, 0.3);
    metrics.leader.set(1);
    const text = await metrics.registry.metrics();
    expect(text).toContain('landlord_reconcile_total{result="success",component="operator"} 1');
    expect(text).toContain('landlord_reconcile_duration_seconds_bucket{le="0.25",component="operator"} 1');
    expect(text).toContain(
      'landlord_api_request_duration_seconds_bucket{le="0.5",component="operator",verb="patch",resource="deployments"} 1',
    );
    expect(text).toContain('landlord_tenants{condition="Ready",status="True",component="operator"} 3');
    expect(text).toContain(
      'landlord_api_requests_total{verb="PATCH",resource="deployments",code="200",component="operator"} 1',
    );
    expect(text).toContain('landlord_leader{component="operator"} 1');
  });

  it('keeps separate registries apart', async () => {
    const operator = createMetrics('operator');
    const sync = createMetrics('sync');
    operator.syncInvalidRows.set(5);
    expect(await sync.registry.metrics()).toContain('landlord_sync_invalid_rows{component="sync"} 0');
    expect(await operator.registry.metrics()).toContain('landlord_sync_invalid_rows{component="operator"} 5');
  });

  it('brings the gauges up to date once per scrape, and not after the refresh is taken away', async () => {
    const metrics = createMetrics('operator');
    let passes = 0;
    metrics.refreshOnScrape(() => {
      passes += 1;
      metrics.queueDepth.set(passes * 10);
      metrics.tenantsPaused.set(passes);
    });
    const first = await metrics.registry.metrics();
    expect(passes).toBe(1);
    expect(first).toContain('landlord_queue_depth{component="operator"} 10');
    expect(first).toContain('landlord_tenants_paused{component="operator"} 1');
    metrics.refreshOnScrape(undefined);
    expect(await metrics.registry.metrics()).toContain('landlord_queue_depth{component="operator"} 10');
    expect(passes).toBe(1);
  });
});
