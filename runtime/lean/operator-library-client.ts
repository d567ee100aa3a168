// @dot-i/k8s-operator's view of client-node (it requires the whole package at load). It uses a
// KubeConfig and a Watch, which come from the same files landlord's own code loads, so there is
// one copy of each; and loadYaml, a CoreV1Api and an ApiextensionsV1Api, which only its CRD
// registration, status and URL helpers use and landlord never calls: those load the whole
// package on first use, so the library keeps working if that ever changes. See hooks.ts.
import { createRequire } from 'node:module';
import type * as ClientNode from '@kubernetes/client-node';

export { KubeConfig } from '@kubernetes/client-node/dist/config.js';
export { Watch } from '@kubernetes/client-node/dist/watch.js';

const require = createRequire(import.meta.url);
const full = (): typeof ClientNode => require('@kubernetes/client-node') as typeof ClientNode;

export const loadYaml: typeof ClientNode.loadYaml = (data, opts) => full().loadYaml(data, opts);

type ApiName = 'CoreV1Api' | 'ApiextensionsV1Api';
type Configuration = ConstructorParameters<(typeof ClientNode)[ApiName]>[0];

/** A class whose instances become the real API object at their first property access. */
function onFirstUse(name: ApiName): new (configuration: Configuration) => object {
  return class {
    constructor(configuration: Configuration) {
      let api: object | undefined;
      const real = (): object => (api ??= new (full()[name])(configuration));
      return new Proxy(this, {
        get: (_target, key) => {
          const value: unknown = Reflect.get(real(), key);
          return typeof value === 'function' ? (value as () => unknown).bind(real()) : value;
        },
      });
    }
  };
}

export const CoreV1Api = onFirstUse('CoreV1Api');
export const ApiextensionsV1Api = onFirstUse('ApiextensionsV1Api');
