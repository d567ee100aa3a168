// Recovery: a component is stopped (SIGTERM) with N Tenants converged and started again, as in a
// rolling update. The operator is timed from its spawn to its first "resync complete" (which says
// how many Tenants it covered); sync from its spawn to its first complete scan. The writes each
// made by then are counted from its own metrics and, as a check, by the API server (goal: none).
import { delta, requestCounts, type RequestBreakdown } from '../../harness/apiserver-requests.js';
import type { ComponentProcess } from '../component.js';
import { sleep } from '../pool.js';
import { operatorResync, syncResync } from './landlord-env.js';
import { ownDelta, type OwnRequests } from './own-metrics.js';
import type { Session } from './session.js';
import { rowStatusWrites } from './steady.js';
import { callsDelta, type DynamoCalls } from '../dynamo-calls.js';

export interface RecoveryResult {
  seconds: number;
  /** Writes the new operator made before its first full resync completed (goal: 0). */
  writes: number;
  operator: OwnRequests;
  apiServer: RequestBreakdown;
  resyncDurationMs: number;
  /** Tenants the new operator's first resync covered: N unless its cache missed some. */
  tenantsSeen: number;
}

export interface SyncRestartResult {
  /** From spawn to the first complete scan. */
  seconds: number;
  scanDurationMs: number;
  /** Writes made by then, and a second later (what the scan queued). */
  writes: number;
  sync: OwnRequests;
  /** Rows told their readiness by then (LANDLORD_SYNC_ROW_STATUS; goal: none, the rows already say it). */
  rowStatusWrites: number;
  /** sync's DynamoDB calls by operation by then, when the run counts them. */
  dynamoCalls?: DynamoCalls;
}

/** Restarts the operator, from now on with the steady-state window's short resync. */
export async function measureRecovery(session: Session): Promise<RecoveryResult> {
  const { n, ctx, bench } = session;
  await session.stopOperator('operator');
  const before = await requestCounts(bench.access);
  const operator = session.startOperator('operator-restarted', operatorResync(ctx, n));
  // The first pass, whatever it covered: a cache that missed Tenants is a finding, not a hang.
  const line = await operator.waitForLog((l) => l.msg === 'resync complete', ctx.timeoutMs(n));
  const [after, metrics] = await Promise.all([requestCounts(bench.access), operator.metrics()]);
  const own = ownDelta('', metrics);
  return {
    seconds: Math.round(((line.at - operator.spawnedAt) / 1000) * 100) / 100,
    writes: own.writes,
    operator: own,
    apiServer: delta(before, after),
    resyncDurationMs: Number(line.durationMs),
    tenantsSeen: Number(line.tenants),
  };
}

/** The process's requests once its writes have stopped moving for 1.5 s: what the scan queued is done. */
async function settledRequests(process: ComponentProcess): Promise<OwnRequests> {
  let last = ownDelta('', await process.metrics());
  for (let quiet = 0; quiet < 3;) {
    await sleep(500);
    const now = ownDelta('', await process.metrics());
    quiet = now.writes === last.writes ? quiet + 1 : 0;
    last = now;
  }
  return last;
}

/** Restarts sync, from now on with the steady-state window's short resync. */
export async function measureSyncRestart(session: Session): Promise<SyncRestartResult> {
  const { n, ctx } = session;
  await session.stopSync('sync');
  const callsBefore = session.dynamoCalls?.snapshot();
  const sync = session.startSync('sync-resync', syncResync(ctx, n));
  const scan = await sync.waitForLog((l) => l.msg === 'scan complete', ctx.timeoutMs(n));
  const own = await settledRequests(sync);
  const told = rowStatusWrites('', await sync.metrics());
  const callsAfter = session.dynamoCalls?.snapshot();
  return {
    seconds: Math.round(((scan.at - sync.spawnedAt) / 1000) * 100) / 100,
    scanDurationMs: Number(scan.durationMs),
    writes: own.writes,
    sync: own,
    rowStatusWrites: told,
    ...(callsBefore === undefined || callsAfter === undefined
      ? {}
      : { dynamoCalls: callsDelta(callsBefore, callsAfter) }),
  };
}
