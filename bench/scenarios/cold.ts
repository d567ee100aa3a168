// Cold convergence: N rows already in the table, no Tenant in the cluster; sync and operator start
// together. Timed from their spawn until N Tenants are Ready=True (every Deployment available).
import { CONDITION } from '../../shared/tenant.js';
import { tenantReady, waitForCount } from '../kube.js';
import type { Session } from './session.js';

export interface ColdResult {
  seconds: number;
  tenantsPerSecond: number;
  /** Until N Tenants exist with Synced=True: sync's share of the time. */
  syncedSeconds: number;
  /** When sync logged its first complete scan. */
  firstScanSeconds: number | undefined;
}

const round = (value: number): number => Math.round(value * 100) / 100;

export async function measureCold(session: Session): Promise<ColdResult> {
  const { n, ctx } = session;
  const tenants = session.tenants!;
  const started = performance.now();
  const sync = session.startSync('sync');
  session.startOperator('operator');
  const progress = { target: n, timeoutMs: ctx.timeoutMs(n), since: started, print: ctx.print };
  const synced = waitForCount(
    () =>
      tenants
        .list()
        .filter((t) => t.status?.conditions?.some((c) => c.type === CONDITION.synced && c.status === 'True'))
        .length,
    { ...progress, what: `[N=${n}] landlord: Tenants Synced`, print: () => undefined },
  );
  const ready = await waitForCount(() => tenants.list().filter(tenantReady).length, {
    ...progress,
    what: `[N=${n}] landlord: Tenants Ready`,
  });
  const seconds = (ready - started) / 1000;
  const scan = sync.lines.find((l) => l.msg === 'scan complete');
  return {
    seconds: round(seconds),
    tenantsPerSecond: round(n / seconds),
    syncedSeconds: round(((await synced) - started) / 1000),
    firstScanSeconds: scan === undefined ? undefined : round((scan.at - started) / 1000),
  };
}
