// client-node's cache.js (ListWatch) in place of its ObjectSerializer, which loads every generated
// model. ListWatch only passes its label and field selectors through serialize(value, 'string'),
// which returns a string unchanged; anything else goes to the real serializer, loaded on first
// use. See hooks.ts.
import { createRequire } from 'node:module';
import type { ObjectSerializer as Real } from '@kubernetes/client-node/dist/serializer.js';

const require = createRequire(import.meta.url);
let real: typeof Real | undefined;

function full(): typeof Real {
  real ??= (require('@kubernetes/client-node/dist/serializer.js') as { ObjectSerializer: typeof Real })
    .ObjectSerializer;
  return real;
}

export const ObjectSerializer = {
  serialize(data: unknown, type: string, format?: string): unknown {
    return type === 'string' && typeof data === 'string' ? data : full().serialize(data, type, format);
  },
  deserialize(data: unknown, type: string, format?: string): unknown {
    return full().deserialize(data, type, format);
  },
};
