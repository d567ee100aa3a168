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

interface Row {
  what: string;
  baseline?: number;
  landlord?: number;
  sync?: number;
  operator?: number;
}

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

type Source = 'baseline' | 'landlord' | 'sync' | 'operator';
type Counts = Partial<Record<Source, Record<string, number>>>;

/** Each source's requests and totals, keyed as the API server names them. */
function countsOf(result: SizeResult): Counts {
  const cold = result.landlord?.cold;
  const server = (b: RequestBreakdown | undefined): Record<string, number> | undefined =>
    b === undefined
      ? undefined
      : {
          ...b.byVerbResource,
          [WRITES]: b.landlordWrites,
          [READS]: b.landlordReads,
          [ALL_WRITES]: b.writes,
        };
  const own = (o: OwnRequests | undefined): Record<string, number> | undefined =>
    o === undefined ? undefined : { ...asServerKeys(o.byVerbResource), [WRITES]: o.writes, [READS]: o.reads };
  return {
    baseline: server(result.baseline?.apiServer),
    landlord: server(cold?.apiServer),
    sync: own(cold?.sync),
    operator: own(cold?.operator),
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
    return {
      what,
      baseline: value('baseline'),
      landlord: value('landlord'),
      sync: value('sync'),
      operator: value('operator'),
    };
  };
  return [...keys, WRITES, READS, ALL_WRITES].map(row);
}

const COLUMNS: Column<Row>[] = [
  { title: 'per tenant (cold)', value: (r) => r.what },
  { title: 'baseline', value: (r) => fixed(r.baseline, 2) },
  { title: 'landlord', value: (r) => fixed(r.landlord, 2) },
  { title: 'sync', value: (r) => fixed(r.sync, 2) },
  { title: 'operator', value: (r) => fixed(r.operator, 2) },
];

/** One table per size that has a cold convergence. */
export function requestsTable(results: readonly SizeResult[]): string {
  return results
    .filter((r) => r.landlord?.cold !== undefined)
    .map((r) => `N = ${r.n}\n${renderTable(requestRows(r), COLUMNS)}`)
    .join('\n\n');
}
