// The environment of the benchmark's sync and operator: the cluster, moto, and the settings each
// measurement needs. Resync intervals stay at their defaults (operator 600 s, sync 300 s) except
// for the steady-state window, which needs one full pass of each within seconds. Leader election
// is off (one replica each), so that no Lease renewal shows up among the steady state's writes; a
// two-replica deployment adds one Lease write per component every LANDLORD_RETRY_PERIOD_SECONDS
// (2 s by default).
import type { BenchCluster } from '../cluster.js';
import { BENCH_NAMESPACE } from '../rows.js';
import { OPERATOR_NAMESPACE } from '../tenancy.js';
import type { RunContext } from '../run-context.js';

export function landlordEnv(
  bench: BenchCluster,
  table: string,
  ctx: RunContext,
  extra: Record<string, string> = {},
): Record<string, string> {
  const env = bench.cluster.env;
  return {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '',
    KUBECONFIG: env.KUBECONFIG,
    DYNAMODB_ENDPOINT: env.DYNAMODB_ENDPOINT,
    DYNAMODB_TABLE: table,
    // The purger (at rest, rest.ts) does not start without its tenant table.
    LANDLORD_PURGER_TENANT_TABLES: table,
    AWS_REGION: env.AWS_REGION,
    AWS_ACCESS_KEY_ID: env.AWS_ACCESS_KEY_ID,
    AWS_SECRET_ACCESS_KEY: env.AWS_SECRET_ACCESS_KEY,
    POD_NAMESPACE: OPERATOR_NAMESPACE,
    LANDLORD_HTTP_PORT: '0',
    LANDLORD_LEADER_ELECTION: 'false',
    LANDLORD_INSTALL_CRD: 'false',
    LANDLORD_LOG_LEVEL: 'info',
    LANDLORD_ALLOWED_NAMESPACES: BENCH_NAMESPACE,
    LANDLORD_OPERATOR_CONCURRENCY: String(ctx.concurrency),
    // The rows run under the built-in class unless a scenario installs a default TenantClass.
    LANDLORD_OPERATOR_BUILT_IN_CLASS: 'true',
    ...(ctx.options.nodeOptions === undefined ? {} : { NODE_OPTIONS: ctx.options.nodeOptions }),
    ...extra,
  };
}

/** The short resync of the steady-state window, for the operator. */
export const operatorResync = (ctx: RunContext, n: number): Record<string, string> => ({
  LANDLORD_OPERATOR_RESYNC_SECONDS: String(ctx.resyncSeconds(n)),
});

/** The short resync of the steady-state window, for sync. */
export const syncResync = (ctx: RunContext, n: number): Record<string, string> => ({
  LANDLORD_SYNC_RESYNC_SECONDS: String(ctx.resyncSeconds(n)),
});

/** sync tells each row its tenant's readiness (the fullfeature scenario's full side). */
export const rowStatusEnv = (options: { rowStatus: boolean }): Record<string, string> =>
  options.rowStatus ? { LANDLORD_SYNC_ROW_STATUS: 'true' } : {};
