// landlord on one fresh cluster, its measurements in the order each needs the last: cold
// convergence (default resync intervals, as deployed); restarts of the operator and of sync (now
// with the short resync of the steady-state window); the steady state; edits through the stream
// (sync back on its default resync) and, Shared, by polling. Peak memory is read from each process
// before it stops.
import { clusterOptions, freshCluster, stopCluster } from '../cluster.js';
import type { HeapReport } from '../component.js';
import type { MemoryReport } from '../measure/rss.js';
import type { RunContext } from '../run-context.js';
import { checkCopies } from '../secrets.js';
import { countDatabases } from '../databases.js';
import { measureHeapByKind, type HeapByKind } from '../heap-by-kind.js';
import { measureCold, type ColdResult } from './cold.js';
import { measureEdits, switchToPolling, type EditMode, type EditResult } from './edits.js';
import {
  measureRecovery,
  measureSyncRestart,
  type RecoveryResult,
  type SyncRestartResult,
} from './recovery.js';
import type { Tenancy } from '../tenancy.js';
import { Session } from './session.js';
import { measureSteady, type SteadyResult } from './steady.js';

export interface LandlordResult {
  cold: ColdResult;
  steady: SteadyResult;
  recovery: RecoveryResult;
  syncRestart: SyncRestartResult;
  /** Through the stream; by polling in a Shared run only. */
  edits: { stream: EditResult; poll?: EditResult };
  memory: {
    syncPeakMiB: number;
    operatorPeakMiB: number;
    processes: Record<string, MemoryReport & HeapReport>;
  };
  clusterStartSeconds: number;
  loadAverage: { afterCold: number[]; atEnd: number[] };
  /** With the class's databases: how many the server holds once every tenant is Ready. */
  databases?: { made: number };
  /** With --heap-by-kind: what one more operator's caches and indexes retain after its first resync. */
  heapByKind?: HeapByKind | { error: string };
}

/**
 * How a run's edits reach sync: a Shared run measures both; a PerTenant run the stream only, as
 * deployed (polling is the same scan whatever the class, and the Shared run has it).
 */
const editModes = (tenancy: Tenancy): readonly EditMode[] =>
  tenancy === 'shared' ? ['stream', 'poll'] : ['stream'];

/** Fills `out` as each measurement completes, so that a failure late in the run keeps the rest. */
export async function runLandlord(
  n: number,
  ctx: RunContext,
  out: Partial<LandlordResult>,
  tenancy: Tenancy = 'shared',
): Promise<void> {
  const bench = await freshCluster(ctx.log, clusterOptions(ctx.options, tenancy));
  out.clusterStartSeconds = Math.round(bench.startSeconds * 10) / 10;
  const session = new Session(bench, n, ctx, tenancy);
  try {
    await session.seed();
    out.cold = await measureCold(session);
    const afterCold = ctx.loadAverage();
    ctx.print(`[N=${n}] landlord: ${n} Ready in ${out.cold.seconds} s`);
    if (session.secrets) {
      const copies = await checkCopies(bench.api, session.tenants!.list());
      ctx.print(`[N=${n}] landlord: ${copies} Secrets, both copies in every tenant namespace, SecretsReady`);
    }
    if (bench.databases !== undefined) {
      out.databases = { made: await countDatabases(bench.databases, session.names) };
      ctx.print(`[N=${n}] landlord: ${out.databases.made} tenant databases on the server`);
    }
    ctx.print(`[N=${n}] landlord: restarting the operator, then sync`);
    out.recovery = await measureRecovery(session);
    out.syncRestart = await measureSyncRestart(session);
    ctx.print(`[N=${n}] landlord: measuring the steady state`);
    out.steady = await measureSteady(session);
    out.edits = await editLatency(session, editModes(tenancy));
    await session.stopOperator('operator-restarted');
    out.loadAverage = { afterCold, atEnd: ctx.loadAverage() };
    if (ctx.options.heapByKind) {
      ctx.print(`[N=${n}] landlord: one more operator, for a heap snapshot after its first resync`);
      out.heapByKind = await measureHeapByKind(session);
    }
  } finally {
    await session.close();
    out.memory = memoryOf(session);
    await stopCluster(bench.cluster);
  }
}

/** Edits follow the stream with sync's default resync again, as deployed: a scan holds up the stream. */
async function editLatency(session: Session, modes: readonly EditMode[]): Promise<LandlordResult['edits']> {
  await session.stopSync('sync-resync');
  await session
    .startSync('sync-stream')
    .waitForLog((l) => l.msg === 'scan complete', session.ctx.timeoutMs(session.n));
  const stream = await measureEdits(session, 'stream');
  if (!modes.includes('poll')) {
    await session.stopSync('sync-stream');
    return { stream };
  }
  await switchToPolling(session);
  const poll = await measureEdits(session, 'poll');
  await session.stopSync('sync-poll');
  return { stream, poll };
}

function memoryOf(session: Session): LandlordResult['memory'] {
  const peak = (prefix: string): number =>
    Math.max(
      ...Object.entries(session.memory)
        .filter(([label]) => label.startsWith(prefix))
        .map(([, m]) => m.peakMiB),
    );
  return { syncPeakMiB: peak('sync'), operatorPeakMiB: peak('operator'), processes: session.memory };
}
