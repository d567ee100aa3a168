// Requests as the API server itself counts them (apiserver_request_total), so that landlord's own
// accounting is checked against the server's. The counter has no client label: what other
// clients did in the same window (kwok's node heartbeats, the controllers) is in it too, which is
// why the totals are also broken down by resource.
import { readFile } from 'node:fs/promises';
import { request } from 'node:https';
import { setTimeout as sleep } from 'node:timers/promises';
import { samplesOf } from './prom-text.js';

const WRITE_VERBS = new Set([
  'POST',
  'PUT',
  'PATCH',
  'APPLY',
  'DELETE',
  'DELETECOLLECTION',
  'CREATE',
  'UPDATE',
]);
const READ_VERBS = new Set(['GET', 'LIST', 'WATCH', 'WATCHLIST']);

/**
 * The resources landlord reads and writes; everything else in a window is another client's. The
 * second line is what a PerTenant class adds (its namespace and the objects in it, the classes),
 * the third what its expose block adds, the fourth what its secrets add.
 */
export const LANDLORD_RESOURCES = [
  ...['tenants', 'tenants/status', 'deployments', 'configmaps', 'events'],
  ...[
    'tenantclasses',
    'namespaces',
    'serviceaccounts',
    'resourcequotas',
    'limitranges',
    'networkpolicies',
    'rolebindings',
  ],
  // A class's exposure: each tenant's Service and its route.
  ...['services', 'ingresses', 'httproutes'],
  // A class's secrets: the copies (and their sources, read), or ExternalSecrets.
  ...['secrets', 'externalsecrets'],
];

/** The API server's counters at one moment. */
export interface RequestCounts {
  /** "VERB resource[/subresource]" → requests so far. */
  requests: Map<string, number>;
  /** VERB → [seconds spent serving, requests served], from apiserver_request_duration_seconds. */
  durations: Map<string, [number, number]>;
  /**
   * resource → watches the API server closed because the client fell behind
   * (apiserver_terminated_watchers_total). On a loaded two-core machine the simulated kubelet and
   * the controllers fall behind too; each closed watch is a re-watch, and a run with many of them
   * spent CPU on the harness that the other run did not.
   */
  terminatedWatchers: Map<string, number>;
}

export interface ApiServerAccess {
  server: string;
  caFile: string;
  token: string;
}

async function get(access: ApiServerAccess, path: string): Promise<string> {
  const ca = await readFile(access.caFile);
  return new Promise((resolve, reject) => {
    const req = request(`${access.server}${path}`, {
      ca,
      headers: { Authorization: `Bearer ${access.token}` },
      timeout: 30_000,
    });
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        if (res.statusCode === 200) resolve(text);
        else reject(new Error(`GET ${path}: HTTP ${res.statusCode}: ${text.slice(0, 200)}`));
      });
    });
    req.on('error', reject);
    req.on('timeout', () => req.destroy(new Error(`GET ${path}: timed out`)));
    req.end();
  });
}

export async function requestCounts(access: ApiServerAccess): Promise<RequestCounts> {
  const text = await get(access, '/metrics');
  const requests = new Map<string, number>();
  for (const s of samplesOf(text, 'apiserver_request_total')) {
    const { verb = '', resource = '', subresource = '' } = s.labels;
    const key = `${verb} ${subresource === '' ? resource : `${resource}/${subresource}`}`;
    requests.set(key, (requests.get(key) ?? 0) + s.value);
  }
  const durations = new Map<string, [number, number]>();
  const add = (suffix: '_sum' | '_count', index: 0 | 1): void => {
    for (const s of samplesOf(text, `apiserver_request_duration_seconds${suffix}`)) {
      const verb = s.labels.verb ?? '';
      const entry = durations.get(verb) ?? [0, 0];
      entry[index] += s.value;
      durations.set(verb, entry);
    }
  };
  add('_sum', 0);
  add('_count', 1);
  const terminatedWatchers = new Map<string, number>();
  for (const s of samplesOf(text, 'apiserver_terminated_watchers_total')) {
    const { resource = '', group = '' } = s.labels;
    const key = group === '' ? resource : `${resource}.${group}`;
    terminatedWatchers.set(key, (terminatedWatchers.get(key) ?? 0) + s.value);
  }
  return { requests, durations, terminatedWatchers };
}

export interface RequestBreakdown {
  reads: number;
  writes: number;
  /** Reads and writes of Tenants, Deployments, ConfigMaps and Events: landlord's resources. */
  landlordReads: number;
  landlordWrites: number;
  /** Requests without a resource (discovery, /metrics, health checks). */
  nonResource: number;
  /** "VERB resource" → requests in the window, only those that moved. */
  byVerbResource: Record<string, number>;
  /** VERB → mean time the API server took to serve one request in the window, in ms. */
  meanLatencyMs: Record<string, number>;
  /** resource → watches the API server closed in the window because the client fell behind. */
  terminatedWatchers: Record<string, number>;
}

export function delta(before: RequestCounts, after: RequestCounts): RequestBreakdown {
  const result: RequestBreakdown = {
    reads: 0,
    writes: 0,
    landlordReads: 0,
    landlordWrites: 0,
    nonResource: 0,
    byVerbResource: {},
    meanLatencyMs: {},
    terminatedWatchers: {},
  };
  for (const [key, value] of after.requests) {
    const moved = value - (before.requests.get(key) ?? 0);
    if (moved <= 0) continue;
    result.byVerbResource[key] = moved;
    tally(result, key, moved);
  }
  for (const [resource, value] of after.terminatedWatchers) {
    const moved = value - (before.terminatedWatchers.get(resource) ?? 0);
    if (moved > 0) result.terminatedWatchers[resource] = moved;
  }
  for (const [verb, [seconds, count]] of after.durations) {
    const [secondsBefore, countBefore] = before.durations.get(verb) ?? [0, 0];
    if (count > countBefore) {
      result.meanLatencyMs[verb] = Math.round(((seconds - secondsBefore) / (count - countBefore)) * 1e4) / 10;
    }
  }
  return result;
}

function tally(result: RequestBreakdown, key: string, moved: number): void {
  const [verb = '', resource = ''] = key.split(' ');
  // Non-resource paths (discovery, /openapi, /metrics) come with an empty or path-like resource.
  if (resource === '' || resource.startsWith('/')) {
    result.nonResource += moved;
    return;
  }
  const landlord = LANDLORD_RESOURCES.includes(resource);
  if (WRITE_VERBS.has(verb)) {
    result.writes += moved;
    if (landlord) result.landlordWrites += moved;
  } else if (READ_VERBS.has(verb)) {
    result.reads += moved;
    if (landlord) result.landlordReads += moved;
  }
}

export interface SettledCounts {
  counts: RequestCounts;
  /** From the call until the writes stopped moving (or the wait gave up). */
  seconds: number;
  /** False when the writes were still moving at the deadline: the count is then a lower bound. */
  settled: boolean;
}

/**
 * The counters once writes of landlord's resources have stopped moving for `quietMs`. The
 * controllers (and landlord's Event recorder) post their Events in the background, many of them
 * after the objects have converged, so a count taken at convergence holds a share of them that
 * depends on how long the run took: a longer run looks as if it wrote more per tenant.
 */
export async function settledRequestCounts(
  access: ApiServerAccess,
  { quietMs = 5_000, timeoutMs, everyMs = 1_000 }: { quietMs?: number; timeoutMs: number; everyMs?: number },
): Promise<SettledCounts> {
  const started = performance.now();
  let counts = await requestCounts(access);
  let quietSince = performance.now();
  while (performance.now() - quietSince < quietMs) {
    if (performance.now() - started > timeoutMs) return { counts, seconds: elapsed(started), settled: false };
    await sleep(everyMs);
    const next = await requestCounts(access);
    if (delta(counts, next).landlordWrites > 0) quietSince = performance.now();
    counts = next;
  }
  return { counts, seconds: elapsed(started), settled: true };
}

const elapsed = (since: number): number => Math.round((performance.now() - since) / 10) / 100;
