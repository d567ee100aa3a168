// Steady state: after convergence, nothing changes, and one full resync of each component runs.
// The window opens right after a sync scan completes and closes when the next has completed and
// the operator has finished a resync that started inside it. Requests are counted by the API
// server (apiserver_request_total) and by landlord itself; DynamoDB read units are those of one
// scan made exactly as sync makes it (sync does not report consumed capacity).
import { delta, requestCounts, type RequestBreakdown } from '../../harness/apiserver-requests.js';
import { sumOf } from '../../harness/prom-text.js';
import { scanCost, type ScanCost } from '../dynamo.js';
import { sleep } from '../pool.js';
import type { ComponentProcess } from '../component.js';
import { ownDelta, type OwnRequests } from './own-metrics.js';
import { TABLE, type Session } from './session.js';
import { callsDelta, type DynamoCalls } from '../dynamo-calls.js';

export interface SteadyResult {
  windowSeconds: number;
  syncScans: number;
  operatorResyncs: number;
  apiServer: RequestBreakdown;
  sync: OwnRequests;
  operator: OwnRequests;
  dynamodb: ScanCost;
  /** Rows told their readiness in the window (LANDLORD_SYNC_ROW_STATUS; goal: none). */
  rowStatusWrites: number;
  /** sync's DynamoDB calls by operation in the window, when the run counts them. */
  dynamoCalls?: DynamoCalls;
  leaderElection: false;
}

/** Row-status writes (DynamoDB UpdateItem) sync counted between two scrapes of its metrics. */
export const rowStatusWrites = (before: string, after: string): number =>
  sumOf(after, ROW_STATUS_WRITES) - sumOf(before, ROW_STATUS_WRITES);

const ROW_STATUS_WRITES = 'landlord_sync_row_status_writes_total';

/** Resolves once sync has completed one more full scan than `from`; returns the new count. */
async function nextScan(session: Session, from: number, timeoutMs: number): Promise<number> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const scans = await session.syncScans();
    if (scans > from) return scans;
    if (performance.now() > deadline) throw new Error(`sync completed no scan in ${timeoutMs} ms`);
    await sleep(250);
  }
}

/** A "resync complete" of the operator whose pass started at or after `from`. */
function resyncAfter(operator: ComponentProcess, from: number, timeoutMs: number): Promise<unknown> {
  return operator.waitForLog(
    (l) => l.msg === 'resync complete' && l.at - Number(l.durationMs ?? 0) >= from,
    timeoutMs,
    from,
  );
}

export async function measureSteady(session: Session): Promise<SteadyResult> {
  const { ctx, n, bench } = session;
  const sync = session.sync!;
  const operator = session.operator!;
  const timeoutMs = ctx.timeoutMs(n);
  // Quiet first: a full pass of each after convergence, so that the window holds no catch-up.
  const converged = performance.now();
  await resyncAfter(operator, converged, timeoutMs);
  let scans = await nextScan(session, await session.syncScans(), timeoutMs);
  const before = await Promise.all([requestCounts(bench.access), sync.metrics(), operator.metrics()]);
  const callsBefore = session.dynamoCalls?.snapshot();
  const opened = performance.now();
  scans = (await nextScan(session, scans, timeoutMs)) - scans;
  await resyncAfter(operator, opened, timeoutMs);
  const after = await Promise.all([requestCounts(bench.access), sync.metrics(), operator.metrics()]);
  const callsAfter = session.dynamoCalls?.snapshot();
  const windowSeconds = (performance.now() - opened) / 1000;
  const resyncs = operator.lines.filter((l) => l.msg === 'resync complete' && l.at >= opened).length;
  return {
    windowSeconds: Math.round(windowSeconds * 10) / 10,
    syncScans: scans,
    operatorResyncs: resyncs,
    apiServer: delta(before[0], after[0]),
    sync: ownDelta(before[1], after[1]),
    operator: ownDelta(before[2], after[2]),
    dynamodb: await scanCost(session.dynamo, TABLE),
    rowStatusWrites: rowStatusWrites(before[1], after[1]),
    ...(callsBefore === undefined || callsAfter === undefined
      ? {}
      : { dynamoCalls: callsDelta(callsBefore, callsAfter) }),
    leaderElection: false,
  };
}
