// The lean-loading redirects (runtime/lean/hooks.ts) keep client-node's generated client and the
// operator library's extras out of a component's process. They name files inside two packages,
// so a new release can silently stop them applying: this loads what the CLI loads for each
// component, as the image does, and fails if a redirect no longer matches or a heavy module comes
// back. That the components still start and work with them is every other e2e test's business
// (e2e/support/landlord.ts runs the real CLI). The memory itself is measured by
// `npm run bench -- --scenarios rest`, never asserted here.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../harness/paths.js';
import { REDIRECTS } from '../runtime/lean/hooks.js';

const run = promisify(execFile);

/** What must not load at rest: the generated client, its models, the library's HTTP client, undici's index (and Node's bundled undici, below). */
const HEAVY = [
  /@kubernetes\/client-node\/dist\/index\.js$/,
  /@kubernetes\/client-node\/dist\/gen\/index\.js$/,
  /@kubernetes\/client-node\/dist\/gen\/types\//,
  /@kubernetes\/client-node\/dist\/gen\/models\/ObjectSerializer\.js$/,
  /\/node_modules\/gaxios\//,
  /\/node_modules\/undici\/index\.js$/,
  /\/node_modules\/(openid-client|oauth4webapi|jose|jsonpath-plus|socks-proxy-agent|socks|hpagent)\//,
];

// Runs in a child process from dist/: the hooks as cli/main.ts installs them, a recorder after
// them (so it sees where each import went), then each component's modules; then the lazy
// CoreV1Api the operator library gets, used once, which must load the real client.
const PROBE = `
import { registerHooks } from 'node:module';
const dist = process.argv[1];
const { installLeanLoading, applied } = await import(dist + '/runtime/lean/hooks.js');
installLeanLoading();
const loaded = [];
registerHooks({ resolve(specifier, context, next) { const r = next(specifier, context); loaded.push(r.url); return r; } });
for (const entry of ['runtime/component.js', 'operator/index.js', 'sync/index.js', 'purger/index.js']) {
  await import(dist + '/' + entry);
}
const atRest = [...loaded];
// runtime/kube calls dispatcher.request, which undici's index puts on every dispatcher.
const { Agent } = await import(dist + '/runtime/lean/undici.js');
const dispatcherApi = typeof new Agent().request === 'function';
// The face serves client-node's imports of undici too: they must resolve to the same copy.
const { createRequire } = await import('node:module');
const undiciOf = (from) => createRequire(from).resolve('undici');
const oneUndici = undiciOf(import.meta.resolve('@kubernetes/client-node/dist/config.js')) === undiciOf(dist + '/runtime/lean/undici.js');
// Node's own bundled undici, which the ESM face of node:http would load (see runtime/lean/node-http.ts).
const bundledUndici = process.moduleLoadList.some((name) => name.includes('deps/undici'));
const { KubeConfig } = await import('@kubernetes/client-node/dist/config.js');
const facade = await import(dist + '/runtime/lean/operator-library-client.js');
const kc = new KubeConfig();
kc.loadFromOptions({
  clusters: [{ name: 'c', server: 'https://127.0.0.1:1' }],
  users: [{ name: 'u' }],
  contexts: [{ name: 'x', cluster: 'c', user: 'u' }],
  currentContext: 'x',
});
const api = kc.makeApiClient(facade.CoreV1Api);
const lazyApi = typeof api.listNamespace === 'function';
process.stdout.write(JSON.stringify({ applied: [...applied].map((r) => r.to), atRest, bundledUndici, dispatcherApi, oneUndici, lazyApi, later: loaded }));
`;

interface Probe {
  applied: string[];
  atRest: string[];
  bundledUndici: boolean;
  dispatcherApi: boolean;
  oneUndici: boolean;
  lazyApi: boolean;
  later: string[];
}

async function probe(): Promise<Probe> {
  const { stdout } = await run(
    process.execPath,
    ['--input-type=module', '-e', PROBE, join(repoRoot, 'dist')],
    {
      cwd: repoRoot,
    },
  );
  return JSON.parse(stdout) as Probe;
}

describe('lean loading', () => {
  it('applies every redirect and keeps the heavy modules out', async () => {
    const result = await probe();
    expect(new Set(result.applied)).toEqual(new Set(REDIRECTS.map((r) => r.to)));
    expect(result.atRest.filter((url) => HEAVY.some((re) => re.test(url)))).toEqual([]);
    expect(result.bundledUndici).toBe(false);
    expect(result.dispatcherApi).toBe(true);
    expect(result.oneUndici).toBe(true);
    // Each redirect's stand-in really loaded in their place.
    for (const { to } of REDIRECTS)
      expect(result.atRest.some((url) => url.endsWith(`/runtime/lean/${to}`))).toBe(true);
  });

  it("loads the real client on the operator library's first use of an API class", async () => {
    const result = await probe();
    expect(result.lazyApi).toBe(true);
    expect(result.later.some((url) => /@kubernetes\/client-node\/dist\/index\.js$/.test(url))).toBe(true);
  });
});
