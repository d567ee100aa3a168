// What a kube-apiserver CPU profile's stacks were doing, in the groups the performance notes use
// (docs/performance-notes/api-server-cpu.md): each stack goes to the first group whose rule it
// matches, by the handler or runtime function on it. Custom resources are served by the
// apiextensions handler, so in a landlord run their requests are the Tenants'.
import type { SampledStack } from './go-profile.js';

interface WorkRule {
  group: string;
  matches: (functions: readonly string[]) => boolean;
}

/** True when some function's name holds one of the needles. */
const onStack =
  (...needles: string[]) =>
  (functions: readonly string[]): boolean =>
    functions.some((name) => needles.some((needle) => name.includes(needle)));

/** True when one function's name holds the first needle and one of the others. */
const inOneFunction =
  (first: string, ...others: string[]) =>
  (functions: readonly string[]): boolean =>
    functions.some((name) => name.includes(first) && others.some((other) => name.includes(other)));

const all =
  (...rules: ((functions: readonly string[]) => boolean)[]) =>
  (functions: readonly string[]): boolean =>
    rules.every((rule) => rule(functions));

const customResource = onStack('crdHandler', 'apiextensions-apiserver/pkg/registry/customresource');
const watching = onStack('serveWatch', 'WatchServer', 'watchHandler');
const creating = onStack('createHandler');
const patching = onStack('PatchResource', 'patchResource');

const API_SERVER_WORK: readonly WorkRule[] = [
  { group: "Go's garbage collector", matches: onStack('runtime.gcBgMarkWorker') },
  {
    group: 'custom resource patches and status updates',
    matches: (f) => onStack('customresource.(*StatusREST).Update')(f) || all(patching, customResource)(f),
  },
  { group: 'custom resource creates', matches: all(creating, customResource) },
  { group: 'other custom resource requests', matches: (f) => customResource(f) && !watching(f) },
  { group: 'Event creates', matches: all(creating, onStack('registry/core/event')) },
  { group: 'creates of other kinds', matches: creating },
  { group: 'patches of other kinds', matches: patching },
  { group: 'updates (PUT)', matches: onStack('UpdateResource') },
  { group: 'serving watches', matches: watching },
  { group: 'GETs and LISTs', matches: onStack('GetResource', 'ListResource') },
  {
    group: 'the watch cache',
    matches: inOneFunction('cacher', 'dispatchEvent', 'processEvent', 'watchCache'),
  },
  { group: "decoding its etcd watch's events", matches: onStack('etcd3.(*watchChan)', 'etcd3.(*watcher)') },
  { group: 'HTTP, TLS and HTTP/2 outside the handlers', matches: onStack('net/http', 'crypto/tls', 'http2') },
  { group: 'the etcd client and gRPC', matches: onStack('grpc', 'etcd') },
  { group: 'controllers inside the API server', matches: onStack('informers', 'cache.(*', 'controller') },
];

export const REST = 'the rest (runtime, scheduler)';

/** Every group, in the order a table lists them: the rules', then the rest. */
export const WORK_GROUPS: readonly string[] = [...API_SERVER_WORK.map((rule) => rule.group), REST];

/** The group of one stack's functions. */
export function workOf(functions: readonly string[]): string {
  return API_SERVER_WORK.find((rule) => rule.matches(functions))?.group ?? REST;
}

/** CPU seconds per group, in the order of WORK_GROUPS; empty groups left out. */
export function cpuByWork(stacks: readonly SampledStack[]): Map<string, number> {
  const totals = new Map<string, number>(WORK_GROUPS.map((group) => [group, 0]));
  for (const stack of stacks) {
    const group = workOf(stack.functions);
    totals.set(group, totals.get(group)! + stack.cpuSeconds);
  }
  return new Map([...totals].filter(([, seconds]) => seconds > 0));
}
