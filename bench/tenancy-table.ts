// What a PerTenant tenant costs over a Shared one, per tenant of a cold convergence: the writes of
// each "VERB resource" under both modes at the same N, for landlord (the API server's count, every
// client) and for its baseline, and the difference. The extra writes are the namespace and the
// objects in it, and what the cluster's controllers do for a new namespace.
import { fixed, renderTable, type Column } from './measure/table.js';
import { resultsTable, type BenchReport, type SizeResult } from './report.js';
import { requestRows, requestsTable } from './requests-table.js';

const WRITE_VERBS = ['POST', 'PUT', 'PATCH', 'APPLY', 'DELETE'];

interface ExtraRow {
  what: string;
  shared?: number;
  perTenant?: number;
  sharedBaseline?: number;
  perTenantBaseline?: number;
}

const isWrite = (what: string): boolean =>
  WRITE_VERBS.includes(what.split(' ')[0] ?? '') || what.startsWith('writes');

/** Write rows of both runs at one N, joined by "VERB resource". */
export function extraWriteRows(shared: SizeResult, perTenant: SizeResult): ExtraRow[] {
  const byWhat = new Map<string, ExtraRow>();
  const row = (what: string): ExtraRow => byWhat.get(what) ?? byWhat.set(what, { what }).get(what)!;
  for (const r of requestRows(shared).filter((r) => isWrite(r.what))) {
    Object.assign(row(r.what), { shared: r.landlord, sharedBaseline: r.baseline });
  }
  for (const r of requestRows(perTenant).filter((r) => isWrite(r.what))) {
    Object.assign(row(r.what), { perTenant: r.landlord, perTenantBaseline: r.baseline });
  }
  return [...byWhat.values()];
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
