// client-node's KubeConfig imports three proxy clients (socks-proxy-agent, socks, hpagent: ~0.75
// MiB of heap) for clusters whose kubeconfig names a proxy-url. These stand-ins load the real
// package when KubeConfig first makes an agent or a connection through one. See hooks.ts.
import { createRequire } from 'node:module';
import type * as Hpagent from 'hpagent';
import type * as Socks from 'socks';
import type * as SocksProxy from 'socks-proxy-agent';

// Resolved from config.js, so a copy of a package nested under client-node is the one loaded.
const load = createRequire(import.meta.resolve('@kubernetes/client-node/dist/config.js'));

/** A class whose instances are the real class's, its package loaded on the first `new`. */
function lazyClass<C extends new (...args: never[]) => object>(real: () => C): C {
  return function (...args: ConstructorParameters<C>) {
    return new (real())(...args);
  } as unknown as C;
}

export const SocksProxyAgent = lazyClass(
  () => (load('socks-proxy-agent') as typeof SocksProxy).SocksProxyAgent,
);
export const HttpProxyAgent = lazyClass(() => (load('hpagent') as typeof Hpagent).HttpProxyAgent);
export const HttpsProxyAgent = lazyClass(() => (load('hpagent') as typeof Hpagent).HttpsProxyAgent);

export const SocksClient = {
  createConnection(...args: Parameters<typeof Socks.SocksClient.createConnection>) {
    return (load('socks') as typeof Socks).SocksClient.createConnection(...args);
  },
};
