// What a PerTenant tenant costs over a Shared one, per tenant of a cold convergence: the writes of
// each "VERB resource" under both modes at the same N, as the API server counted them (every
// client), for landlord and for its baseline, and the difference. The extra writes are the
// namespace and the objects in it, and what the cluster's controllers do for a new namespace (its
// default ServiceAccount, its kube-root-ca.crt ConfigMap, the quota's status).
import { fixed, renderTable, type Column } from './measure/table.js';
import { resultsTable, type BenchReport, type SizeResult } from './report.js';
import type { RequestBreakdown } from '../harness/apiserver-requests.js';
import { requestsTable } from './requests-table.js';

const WRITE_VERBS = ['POST', 'PUT', 'PATCH', 'APPLY', 'DELETE'];
const LANDLORD_WRITES = "writes of landlord's resources";
const ALL_WRITES = 'writes, every client and resource';

interface ExtraRow {
  what: string;
  shared?: number;
  perTenant?: number;
  sharedBaseline?: number;
  perTenantBaseline?: number;
}

type Side = 'shared' | 'perTenant' | 'sharedBaseline' | 'perTenantBaseline';

/** Per tenant: each write "VERB resource" the API server counted (every client), then the totals. */
function writesOf(b: RequestBreakdown | undefined, n: number): Map<string, number> {
  const out = new Map<string, number>();
  if (b === undefined) return out;
  for (const [what, count] of Object.entries(b.byVerbResource)) {
    if (WRITE_VERBS.includes(what.split(' ')[0] ?? '')) out.set(what, count / n);
  }
  out.set(LANDLORD_WRITES, b.landlordWrites / n);
  out.set(ALL_WRITES, b.writes / n);
  return out;
}

/**
 * Write rows of both runs at one N, joined by "VERB resource", every client's (the controllers'
 * writes for a new namespace are part of what PerTenant costs); rows under 0.01 per tenant in all
 * four columns are left out.
 */
export function extraWriteRows(shared: SizeResult, perTenant: SizeResult): ExtraRow[] {
  const sides: [Side, Map<string, number>][] = [
    ['shared', writesOf(shared.landlord?.cold?.apiServer, shared.n)],
    ['perTenant', writesOf(perTenant.landlord?.cold?.apiServer, perTenant.n)],
    ['sharedBaseline', writesOf(shared.baseline?.apiServer, shared.n)],
    ['perTenantBaseline', writesOf(perTenant.baseline?.apiServer, perTenant.n)],
  ];
  const keys = [...new Set(sides.flatMap(([, m]) => [...m.keys()]))];
  const totals = [LANDLORD_WRITES, ALL_WRITES];
  const ordered = [...keys.filter((k) => !totals.includes(k)).sort(), ...totals];
  return ordered
    .map((what) => {
      const row: ExtraRow = { what };
      for (const [side, m] of sides) row[side] = m.get(what);
      return row;
    })
    .filter((r) => totals.includes(r.what) || sides.some(([side]) => (r[side] ?? 0) >= 0.01));
}

const minus = (a: number | undefined, b: number | undefined): number | undefined =>
  a === undefined ? undefined : a - (b ?? 0);

const COLUMNS: Column<ExtraRow>[] = [
  { title: 'writes per tenant (cold)', value: (r) => r.what },
  { title: 'Shared', value: (r) => fixed(r.shared, 2) },
  { title: 'PerTenant', value: (r) => fixed(r.perTenant, 2) },
  { title: 'extra', value: (r) => fixed(minus(r.perTenant, r.shared), 2) },
  { title: 'baseline Shared', value: (r) => fixed(r.sharedBaseline, 2) },
  { title: 'baseline PerTenant', value: (r) => fixed(r.perTenantBaseline, 2) },
  { title: 'baseline extra', value: (r) => fixed(minus(r.perTenantBaseline, r.sharedBaseline), 2) },
];

/** One table per N run in both modes; empty when none was. */
export function extraWritesTable(shared: readonly SizeResult[], perTenant: readonly SizeResult[]): string {
  return perTenant
    .flatMap((p) => {
      const s = shared.find((r) => r.n === p.n);
      if (s?.landlord?.cold === undefined || p.landlord?.cold === undefined) return [];
      return [`N = ${p.n}, PerTenant over Shared\n${renderTable(extraWriteRows(s, p), COLUMNS)}`];
    })
    .join('\n\n');
}

/** The PerTenant run's tables: results, requests per tenant, extra writes over Shared; empty when it did not run. */
export function perTenantTables(report: BenchReport): string {
  const perTenant = report.pertenant ?? [];
  if (perTenant.length === 0) return '';
  const extra = extraWritesTable(report.results, perTenant);
  return [
    `PerTenant (default class standard):\n${resultsTable(perTenant)}`,
    requestsTable(perTenant),
    ...(extra === '' ? [] : [extra]),
  ].join('\n\n');
}
