// The signups scenario's table: one row per size and class, row written → Ready (p50/p90/p99) and
// the p50/p90 of each stage it went through, then what ran meanwhile (edits, the class rollout).
import { fixed, renderTable, type Column } from './measure/table.js';
import type { LatencySummary } from './measure/percentiles.js';
import type { SignupResult } from './scenarios/signups.js';
import { STAGES, type SignupSummary } from './signup-timeline.js';

interface Row {
  n: number;
  className: string;
  summary: SignupSummary;
}

const ms = (s: LatencySummary, keys: readonly ('p50Ms' | 'p90Ms' | 'p99Ms')[]): string =>
  keys.map((k) => fixed(s[k], 0)).join('/');

const COLUMNS: Column<Row>[] = [
  { title: 'N', value: (r) => String(r.n) },
  { title: 'class', value: (r) => r.className },
  { title: 'Ready/written', value: (r) => `${r.summary.ready}/${r.summary.written}` },
  { title: 'row→Ready p50/p90/p99 ms', value: (r) => ms(r.summary.total, ['p50Ms', 'p90Ms', 'p99Ms']) },
  ...STAGES.map((stage): Column<Row> => ({
    title: `${stage} p50/p90`,
    value: (r) => ms(r.summary.stages[stage], ['p50Ms', 'p90Ms']),
  })),
];

/** Each size's classes, pooled first. */
export function signupRows(results: readonly SignupResult[]): Row[] {
  return results.flatMap((r) =>
    Object.entries(r.classes).map(([className, summary]) => ({ n: r.tenants, className, summary })),
  );
}

function meanwhile(r: SignupResult): string {
  const { rollout } = r;
  const done = rollout.seconds === undefined ? 'not done' : `done in ${fixed(rollout.seconds)} s`;
  return (
    `N = ${r.tenants}: ${r.rate} rows/s for ${r.seconds} s, app start ${r.appStartSeconds} s, pool ${r.poolSize}` +
    ` (${r.warmClaims} warm claims); ${r.edits} edits of running rows; class rollout to ${rollout.tenants}` +
    ` tenants started at ${fixed(rollout.startedAfterSeconds)} s, ${done}`
  );
}

export function signupTable(results: readonly (SignupResult | { error: string })[]): string {
  const done = results.filter((r): r is SignupResult => !('error' in r));
  if (done.length === 0) return '';
  const title =
    'Signups (row written → Ready; stages: sync = row → Tenant, operator = → first reconcile, workload = → Deployment written, app = → available, status = → Ready):';
  return [title, renderTable(signupRows(done), COLUMNS), ...done.map(meanwhile)].join('\n');
}
