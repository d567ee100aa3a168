// landlord's own count of its API requests (landlord_api_requests_total), to attribute the API
// server's totals: the server's counter cannot tell clients apart.
import { samplesOf } from '../../harness/prom-text.js';

const WRITES = new Set(['create', 'update', 'patch', 'apply', 'delete']);

export interface OwnRequests {
  reads: number;
  writes: number;
  /** "verb resource" → requests in the window, only those that moved. */
  byVerbResource: Record<string, number>;
}

function counts(text: string): Map<string, number> {
  const map = new Map<string, number>();
  for (const s of samplesOf(text, 'landlord_api_requests_total')) {
    const key = `${s.labels.verb ?? ''} ${s.labels.resource ?? ''}`;
    map.set(key, (map.get(key) ?? 0) + s.value);
  }
  return map;
}

/** Requests between two scrapes of one process's /metrics (before: '' for since the start). */
export function ownDelta(before: string, after: string): OwnRequests {
  const start = counts(before);
  const result: OwnRequests = { reads: 0, writes: 0, byVerbResource: {} };
  for (const [key, value] of counts(after)) {
    const moved = value - (start.get(key) ?? 0);
    if (moved <= 0) continue;
    result.byVerbResource[key] = moved;
    if (WRITES.has(key.split(' ')[0]!)) result.writes += moved;
    else result.reads += moved;
  }
  return result;
}
