// Cold convergence: N rows already in the table, no Tenant in the cluster; sync and operator start
// together. Timed from their spawn until N Tenants are Ready=True (every Deployment available).
import { CONDITION } from '../../api/tenant.js';
import { tenantReady, waitForCount } from '../kube.js';
import { delta, requestCounts, type RequestBreakdown } from '../../harness/apiserver-requests.js';
import { childCpuTimes, cpuDelta, type CpuTimes } from '../measure/cpu.js';
import { sumOf } from '../../harness/prom-text.js';
import { ownDelta, type OwnRequests } from './own-metrics.js';
import { settledSince, type SettledRequests } from './settled.js';
import type { Session } from './session.js';
import { rowStatusWrites } from './steady.js';
import type { DynamoCalls } from '../dynamo-calls.js';

export interface ColdResult {
  seconds: number;
  tenantsPerSecond: number;
  /** Until N Tenants exist with Synced=True: sync's share of the time. */
  syncedSeconds: number;
  /** When sync logged its first complete scan. */
  firstScanSeconds: number | undefined;
  /** What the convergence cost, as the API server counted it and as each component did. */
  apiServer: RequestBreakdown;
  sync: OwnRequests;
  operator: OwnRequests & { reconciles: number; reconcileSeconds: number };
  /** CPU seconds each process spent converging: who was busy. */
  cpuSeconds: CpuTimes;
  /** The same window's requests once the cluster stopped writing (background Events included). */
  settled: SettledRequests & { sync: OwnRequests; operator: OwnRequests };
  /** Rows told their readiness by then (LANDLORD_SYNC_ROW_STATUS), counting refused writes. */
  rowStatusWrites: number;
  /** sync's DynamoDB calls by operation by then, when the run counts them. */
  dynamoCalls?: DynamoCalls;
}

/** The operator's reconciles so far and the time they took in total, from its metrics. */
function reconcileTotals(text: string): { reconciles: number; reconcileSeconds: number } {
  return {
    reconciles: sumOf(text, 'landlord_reconcile_duration_seconds_count'),
    reconcileSeconds: round(sumOf(text, 'landlord_reconcile_duration_seconds_sum')),
  };
}

const round = (value: number): number => Math.round(value * 100) / 100;

export async function measureCold(session: Session): Promise<ColdResult> {
  const { n, ctx } = session;
  const tenants = session.tenants!;
  const before = await requestCounts(session.bench.access);
  const cpuBefore = childCpuTimes();
  const started = performance.now();
  const sync = session.startSync('sync');
  const operator = session.startOperator('operator');
  const progress = {
    target: n,
    timeoutMs: ctx.timeoutMs(n),
    since: started,
    print: ctx.print,
    check: () => session.assertRunning(),
  };
  let over = false;
  const synced = waitForCount(
    () =>
      tenants
        .list()
        .filter((t) => t.status?.conditions?.some((c) => c.type === CONDITION.synced && c.status === 'True'))
        .length,
    {
      ...progress,
      what: `[N=${n}] landlord: Tenants Synced`,
      print: () => undefined,
      // Stops when the Ready wait fails: left running, it would keep the process alive.
      check: () => {
        if (over) throw new Error('convergence was not measured');
      },
    },
  );
  // Awaited after the Ready count; until then a rejection must not count as unhandled.
  synced.catch(() => undefined);
  let ready: number;
  try {
    ready = await waitForCount(() => tenants.list().filter(tenantReady).length, {
      ...progress,
      what: `[N=${n}] landlord: Tenants Ready`,
    });
  } catch (err) {
    over = true;
    throw err;
  }
  const seconds = (ready - started) / 1000;
  const cpuSeconds = cpuDelta(cpuBefore, childCpuTimes());
  const [after, syncMetrics, operatorMetrics] = await Promise.all([
    requestCounts(session.bench.access),
    sync.metrics(),
    operator.metrics(),
  ]);
  const settledRequests = await settledSince(session.bench.access, before, n);
  const [syncSettled, operatorSettled] = await Promise.all([sync.metrics(), operator.metrics()]);
  const scan = sync.lines.find((l) => l.msg === 'scan complete');
  return {
    seconds: round(seconds),
    tenantsPerSecond: round(n / seconds),
    syncedSeconds: round(((await synced) - started) / 1000),
    firstScanSeconds: scan === undefined ? undefined : round((scan.at - started) / 1000),
    apiServer: delta(before, after),
    cpuSeconds,
    sync: ownDelta('', syncMetrics),
    operator: { ...ownDelta('', operatorMetrics), ...reconcileTotals(operatorMetrics) },
    settled: {
      ...settledRequests,
      sync: ownDelta('', syncSettled),
      operator: ownDelta('', operatorSettled),
    },
    rowStatusWrites: rowStatusWrites('', syncSettled),
    ...(session.dynamoCalls === undefined ? {} : { dynamoCalls: session.dynamoCalls.snapshot() }),
  };
}
