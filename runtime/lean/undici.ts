// undici for ES modules, in place of its index. The index loads every part of undici (fetch,
// WebSocket, EventSource, the cache and mock layers, ~110 modules, ~2.4 MiB of heap), where the
// components use its Agent and global dispatcher (runtime/kube), client-node's KubeConfig its Agent
// and ProxyAgent, and client-node's generated HTTP layer its fetch, which no path landlord takes
// calls. This face loads those classes from their own files, gives every dispatcher the
// request/stream API as the index does, and loads the index only on the first fetch.
// require('undici') is untouched. See hooks.ts.
import { createRequire } from 'node:module';
import type * as Undici from 'undici';

const load = createRequire(import.meta.url);

// The index's one side effect: the methods runtime/kube calls (dispatcher.request) on every dispatcher.
Object.assign(
  (load('undici/lib/dispatcher/dispatcher.js') as typeof Undici.Dispatcher).prototype,
  load('undici/lib/api/index.js'),
);

export const Agent = load('undici/lib/dispatcher/agent.js') as typeof Undici.Agent;
export const ProxyAgent = load('undici/lib/dispatcher/proxy-agent.js') as typeof Undici.ProxyAgent;
export const { getGlobalDispatcher } = load('undici/lib/global.js') as Pick<
  typeof Undici,
  'getGlobalDispatcher'
>;

/** undici's fetch, its index loaded on the first call. */
export function fetch(...args: Parameters<typeof Undici.fetch>): ReturnType<typeof Undici.fetch> {
  return (load('undici') as typeof Undici).fetch(...args);
}
