// landlord on one fresh cluster, its measurements in the order each needs the last: cold
// convergence, then the steady state of the converged cluster, a restart of the operator, edits
// through the stream, and edits by polling. Peak memory is read from each process before it stops.
import { freshCluster, stopCluster } from '../cluster.js';
import type { HeapReport } from '../component.js';
import type { MemoryReport } from '../measure/rss.js';
import type { RunContext } from '../run-context.js';
import { measureCold, type ColdResult } from './cold.js';
import { measureEdits, switchToPolling, type EditResult } from './edits.js';
import {
  measureRecovery,
  measureSyncRestart,
  type RecoveryResult,
  type SyncRestartResult,
} from './recovery.js';
import { Session } from './session.js';
import { measureSteady, type SteadyResult } from './steady.js';

export interface LandlordResult {
  cold: ColdResult;
  steady: SteadyResult;
  recovery: RecoveryResult;
  syncRestart: SyncRestartResult;
  edits: { stream: EditResult; poll: EditResult };
  memory: {
    syncPeakMiB: number;
    operatorPeakMiB: number;
    processes: Record<string, MemoryReport & HeapReport>;
  };
  clusterStartSeconds: number;
  loadAverage: { afterCold: number[]; atEnd: number[] };
}

export async function runLandlord(n: number, ctx: RunContext): Promise<LandlordResult> {
  const bench = await freshCluster(ctx.log);
  const session = new Session(bench, n, ctx);
  try {
    await session.seed();
    const cold = await measureCold(session);
    const afterCold = ctx.loadAverage();
    ctx.print(`[N=${n}] landlord: ${n} Ready in ${cold.seconds} s; restarting the operator, then sync`);
    const recovery = await measureRecovery(session);
    const syncRestart = await measureSyncRestart(session);
    ctx.print(`[N=${n}] landlord: measuring the steady state`);
    const steady = await measureSteady(session);
    // Edits follow the stream with sync's default resync again, as deployed: a scan holds up the stream.
    await session.stopSync('sync-resync');
    await session.startSync('sync-stream').waitForLog((l) => l.msg === 'scan complete', ctx.timeoutMs(n));
    const stream = await measureEdits(session, 'stream');
    await switchToPolling(session);
    const poll = await measureEdits(session, 'poll');
    await session.stopSync('sync-poll');
    await session.stopOperator('operator-restarted');
    const peak = (prefix: string): number =>
      Math.max(
        ...Object.entries(session.memory)
          .filter(([label]) => label.startsWith(prefix))
          .map(([, m]) => m.peakMiB),
      );
    return {
      cold,
      steady,
      recovery,
      syncRestart,
      edits: { stream, poll },
      memory: { syncPeakMiB: peak('sync'), operatorPeakMiB: peak('operator'), processes: session.memory },
      clusterStartSeconds: Math.round(bench.startSeconds * 10) / 10,
      loadAverage: { afterCold, atEnd: ctx.loadAverage() },
    };
  } finally {
    await session.close();
    await stopCluster(bench.cluster);
  }
}
