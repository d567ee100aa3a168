// What a component loads before its first tenant. Some packages pull in far more than landlord
// uses, through imports that no deep import of ours can avoid:
// - client-node's config.js (KubeConfig) imports its generated barrel, gen/index.js: every API
//   class and model of Kubernetes (~40 MiB resident) for two helpers, createConfiguration and
//   ServerConfiguration;
// - client-node's cache.js (ListWatch) imports its ObjectSerializer, and with it every model, to
//   pass a label selector through unchanged;
// - @dot-i/k8s-operator requires the whole of client-node (and gaxios) at load, for a KubeConfig, a
//   Watch and a CoreV1Api that no path landlord takes ever calls;
// - any ES module importing node:http (client-node, agent-base, our HTTP server) makes Node build
//   that module's ESM face, which reads every export, and three of them are getters that load
//   Node's own bundled undici (~13 MiB): a second HTTP client beside the npm undici in use;
// - undici's index loads all of undici (fetch, WebSocket, the cache and mock layers: ~2.4 MiB of
//   heap) where the components, KubeConfig and client-node's HTTP layer import Agent, ProxyAgent,
//   the global dispatcher and a fetch that no path landlord takes calls;
// - client-node's config.js imports three auth providers (OIDC, Azure, GCP) and three proxy
//   clients (~1.4 MiB of heap together) that only kubeconfigs naming them use.
// A synchronous resolve hook (module.registerHooks, Node.js 22.15+) sends exactly those imports
// to the small modules beside this one. The parts still load, in full, on first use.
// e2e/lean-loading.test.ts fails when a redirect no longer applies (a new release moved a file)
// and docs/adr/0006-process-memory-at-rest.md says what each one saves.
import { registerHooks } from 'node:module';

export interface Redirect {
  /** The importing file, as the end of its URL; absent: every ES module (not require()). */
  parent?: string;
  /** The specifiers exactly as the importer writes them. */
  specifiers: readonly string[];
  /** The module loaded instead, beside this one. */
  to: string;
}

const CLIENT_NODE = '/node_modules/@kubernetes/client-node/dist/';
const OPERATOR_LIBRARY = '/node_modules/@dot-i/k8s-operator/dist/operator.js';

export const REDIRECTS: readonly Redirect[] = [
  { parent: `${CLIENT_NODE}config.js`, specifiers: ['./gen/index.js'], to: 'client-node-gen.js' },
  { parent: `${CLIENT_NODE}cache.js`, specifiers: ['./serializer.js'], to: 'client-node-serializer.js' },
  { parent: OPERATOR_LIBRARY, specifiers: ['@kubernetes/client-node'], to: 'operator-library-client.js' },
  { parent: OPERATOR_LIBRARY, specifiers: ['gaxios'], to: 'operator-library-gaxios.js' },
  { specifiers: ['node:http', 'http'], to: 'node-http.js' },
  { specifiers: ['undici'], to: 'undici.js' },
  {
    parent: `${CLIENT_NODE}config.js`,
    specifiers: ['./oidc_auth.js', './azure_auth.js', './gcp_auth.js'],
    to: 'client-node-auth.js',
  },
  {
    parent: `${CLIENT_NODE}config.js`,
    specifiers: ['socks-proxy-agent', 'socks', 'hpagent'],
    to: 'client-node-proxies.js',
  },
];

/** The redirects that matched an import so far, for the test that keeps them honest. */
export const applied = new Set<Redirect>();

let installed = false;

/** The redirect for this import, if any. */
export function redirectFor(
  specifier: string,
  { parentURL, conditions }: { parentURL?: string | undefined; conditions?: readonly string[] | undefined },
): Redirect | undefined {
  if (parentURL === undefined) return undefined;
  const byImport = conditions?.includes('import') === true;
  return REDIRECTS.find(
    (r) =>
      r.specifiers.includes(specifier) && (r.parent === undefined ? byImport : parentURL.endsWith(r.parent)),
  );
}

/** Installs the redirects once; call before anything imports client-node or the operator library. */
export function installLeanLoading(): void {
  if (installed) return;
  installed = true;
  registerHooks({
    resolve(specifier, context, nextResolve) {
      const redirect = redirectFor(specifier, context);
      if (redirect === undefined) return nextResolve(specifier, context);
      applied.add(redirect);
      // A URL, not a specifier to resolve again: require() would read a file: URL as a name.
      return { url: new URL(redirect.to, import.meta.url).href, format: 'module', shortCircuit: true };
    },
  });
}
