// Where each request of a cold convergence comes from, per tenant: the API server's count for the
// baseline and for landlord (all clients), and landlord's own count per component, side by side
// for each "VERB resource" of the resources landlord touches. This is the table that makes a claim
// such as "landlord writes 1.3× what the baseline does, and this is what each write is" checkable.
import { LANDLORD_RESOURCES, type RequestBreakdown } from '../harness/apiserver-requests.js';
import { fixed, renderTable, type Column } from './measure/table.js';
import type { SizeResult } from './report.js';
import type { OwnRequests } from './scenarios/own-metrics.js';

/** landlord's own verbs as the API server names them in apiserver_request_total. */
const SERVER_VERB: Record<string, string> = {
  get: 'GET',
  list: 'LIST',
  watch: 'WATCH',
  create: 'POST',
  update: 'PUT',
  patch: 'PATCH',
  apply: 'APPLY',
  delete: 'DELETE',
};

const SOURCES = [
  'baseline',
  'landlord',
  'sync',
  'operator',
  'baselineSettled',
  'landlordSettled',
  'syncSettled',
  'operatorSettled',
] as const;
type Source = (typeof SOURCES)[number];

type Row = { what: string } & Partial<Record<Source, number>>;

/** Own-metric keys ("apply tenants/status") in the API server's spelling ("APPLY tenants/status"). */
function asServerKeys(own: Record<string, number> | undefined): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [key, value] of Object.entries(own ?? {})) {
    const [verb = '', resource = ''] = key.split(' ');
    const name = `${SERVER_VERB[verb] ?? verb.toUpperCase()} ${resource}`;
    out[name] = (out[name] ?? 0) + value;
  }
  return out;
}

const isLandlordResource = (key: string): boolean => LANDLORD_RESOURCES.includes(key.split(' ')[1] ?? '');

type Counts = Partial<Record<Source, Record<string, number>>>;

/** The API server's count of one window, with the totals as rows. */
function serverCounts(b: RequestBreakdown | undefined): Record<string, number> | undefined {
  return b === undefined
    ? undefined
    : { ...b.byVerbResource, [WRITES]: b.landlordWrites, [READS]: b.landlordReads, [ALL_WRITES]: b.writes };
}

/** One component's own count of one window. */
function ownCounts(o: OwnRequests | undefined): Record<string, number> | undefined {
  return o === undefined
    ? undefined
    : { ...asServerKeys(o.byVerbResource), [WRITES]: o.writes, [READS]: o.reads };
}

/** Each source's requests and totals, keyed as the API server names them. */
function countsOf(result: SizeResult): Counts {
  return { ...convergenceCounts(result), ...settledCounts(result) };
}

function convergenceCounts({ baseline, landlord }: SizeResult): Counts {
  const cold = landlord?.cold;
  return {
    baseline: serverCounts(baseline?.apiServer),
    landlord: serverCounts(cold?.apiServer),
    sync: ownCounts(cold?.sync),
    operator: ownCounts(cold?.operator),
  };
}

function settledCounts({ baseline, landlord }: SizeResult): Counts {
  const settled = landlord?.cold?.settled;
  return {
    baselineSettled: serverCounts(baseline?.settled?.apiServer),
    landlordSettled: serverCounts(settled?.apiServer),
    syncSettled: ownCounts(settled?.sync),
    operatorSettled: ownCounts(settled?.operator),
  };
}

const WRITES = 'writes of these resources';
const READS = 'reads of these resources';
const ALL_WRITES = 'writes, every client and resource';

/** Per-tenant rows for one size, "VERB resource" sorted, then the totals. */
export function requestRows(result: SizeResult): Row[] {
  const counts = countsOf(result);
  const sources = Object.values(counts);
  const keys = [...new Set(sources.flatMap((m) => Object.keys(m ?? {})))].filter(isLandlordResource).sort();
  const row = (what: string): Row => {
    const value = (source: Source): number | undefined => {
      const count = counts[source]?.[what];
      if (count !== undefined) return count / result.n;
      // A request the source never made is 0; a total it does not report stays blank.
      return counts[source] === undefined || what === ALL_WRITES ? undefined : 0;
    };
    return Object.fromEntries([['what', what], ...SOURCES.map((source) => [source, value(source)])]) as Row;
  };
  return [...keys, WRITES, READS, ALL_WRITES].map(row);
}

const TITLES: Record<Source, string> = {
  baseline: 'baseline',
  landlord: 'landlord',
  sync: 'sync',
  operator: 'operator',
  baselineSettled: 'baseline, settled',
  landlordSettled: 'landlord, settled',
  syncSettled: 'sync, settled',
  operatorSettled: 'operator, settled',
};

const COLUMNS: Column<Row>[] = [
  { title: 'per tenant (cold)', value: (r) => r.what },
  ...SOURCES.map((source): Column<Row> => ({ title: TITLES[source], value: (r) => fixed(r[source], 2) })),
];

/** landlord's writes of its resources per tenant over the baseline's, at convergence and settled. */
function writeRatios(result: SizeResult): { atConvergence?: number; settled?: number } {
  const cold = result.landlord?.cold;
  const ratio = (landlord?: RequestBreakdown, baseline?: RequestBreakdown): number | undefined =>
    landlord === undefined || baseline === undefined || baseline.landlordWrites === 0
      ? undefined
      : Math.round((landlord.landlordWrites / baseline.landlordWrites) * 100) / 100;
  return {
    atConvergence: ratio(cold?.apiServer, result.baseline?.apiServer),
    settled: ratio(cold?.settled?.apiServer, result.baseline?.settled?.apiServer),
  };
}

function ratioLine(result: SizeResult): string {
  const { atConvergence, settled } = writeRatios(result);
  const waits = [result.baseline?.settled, result.landlord?.cold?.settled]
    .map((s) => (s === undefined ? '–' : `${fixed(s.seconds)} s${s.settled ? '' : ' (still writing)'}`))
    .join(' / ');
  return (
    `writes of these resources, landlord over baseline (goal ≤ 1.5): ${fixed(atConvergence, 2)} at ` +
    `convergence, ${fixed(settled, 2)} settled (waited baseline / landlord: ${waits})`
  );
}

/** One table per size that has a cold convergence. */
export function requestsTable(results: readonly SizeResult[]): string {
  return results
    .filter((r) => r.landlord?.cold !== undefined)
    .map((r) => `N = ${r.n}\n${renderTable(requestRows(r), COLUMNS)}\n${ratioLine(r)}`)
    .join('\n\n');
}
