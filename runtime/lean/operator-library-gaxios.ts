// @dot-i/k8s-operator's view of gaxios, which it requires at load but calls only in its status and
// finalizer helpers (landlord writes status through its own client): the real package loads on
// the first request. See hooks.ts.
import { createRequire } from 'node:module';
import type * as Gaxios from 'gaxios';
import type { GaxiosOptions, GaxiosResponse } from 'gaxios';

const require = createRequire(import.meta.url);

export const instance = {
  request<T>(options: GaxiosOptions): Promise<GaxiosResponse<T>> {
    const gaxios = require('gaxios') as typeof Gaxios;
    return gaxios.instance.request<T>(options);
  },
};
