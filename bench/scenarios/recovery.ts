// Recovery: the operator is stopped (SIGTERM) with N Tenants converged and started again. Timed
// from the new process's spawn to its first "resync complete" covering all N Tenants; the writes
// it made by then are counted from its own metrics and, as a check, by the API server.
import { delta, requestCounts, type RequestBreakdown } from '../measure/apiserver.js';
import { ownDelta, type OwnRequests } from './own-metrics.js';
import type { Session } from './session.js';

export interface RecoveryResult {
  seconds: number;
  /** Writes the new operator made before its first full resync completed (goal: 0). */
  writes: number;
  operator: OwnRequests;
  apiServer: RequestBreakdown;
  resyncDurationMs: number;
}

export async function measureRecovery(session: Session): Promise<RecoveryResult> {
  const { n, ctx, bench } = session;
  await session.stopOperator('operator');
  const before = await requestCounts(bench.access);
  const operator = session.startOperator('operator-restarted');
  const line = await operator.waitForLog(
    (l) => l.msg === 'resync complete' && l.tenants === n,
    ctx.timeoutMs(n),
  );
  const [after, metrics] = await Promise.all([requestCounts(bench.access), operator.metrics()]);
  const own = ownDelta('', metrics);
  return {
    seconds: Math.round(((line.at - operator.spawnedAt) / 1000) * 100) / 100,
    writes: own.writes,
    operator: own,
    apiServer: delta(before, after),
    resyncDurationMs: Number(line.durationMs),
  };
}
