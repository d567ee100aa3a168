// Requests as the API server itself counts them (apiserver_request_total), so that landlord's own
// accounting is checked against the server's. The counter has no client label: what other
// clients did in the same window (kwok's node heartbeats, the controllers) is in it too, which is
// why the totals are also broken down by resource.
import { readFile } from 'node:fs/promises';
import { request } from 'node:https';
import { samplesOf } from './prom.js';

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

/** The resources landlord reads and writes; everything else in a window is another client's. */
export const LANDLORD_RESOURCES = ['tenants', 'tenants/status', 'deployments', 'configmaps', 'events'];

/** "VERB resource[/subresource]" → requests so far. */
export type RequestCounts = Map<string, number>;

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
  const counts: RequestCounts = new Map();
  for (const s of samplesOf(await get(access, '/metrics'), 'apiserver_request_total')) {
    const { verb = '', resource = '', subresource = '' } = s.labels;
    const key = `${verb} ${subresource === '' ? resource : `${resource}/${subresource}`}`;
    counts.set(key, (counts.get(key) ?? 0) + s.value);
  }
  return counts;
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
}

export function delta(before: RequestCounts, after: RequestCounts): RequestBreakdown {
  const result: RequestBreakdown = {
    reads: 0,
    writes: 0,
    landlordReads: 0,
    landlordWrites: 0,
    nonResource: 0,
    byVerbResource: {},
  };
  for (const [key, value] of after) {
    const moved = value - (before.get(key) ?? 0);
    if (moved <= 0) continue;
    result.byVerbResource[key] = moved;
    tally(result, key, moved);
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
