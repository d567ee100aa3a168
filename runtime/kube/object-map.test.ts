// The store must behave as ListWatch's own Map does under ListWatch's own code: client-node's
// functions that change its store, and its get and list, run here on both and are compared.
import type { KubernetesObject } from '@kubernetes/client-node';
import {
  addOrUpdateObject,
  deleteItems,
  deleteObject,
  ListWatch,
  type CacheMap,
} from '@kubernetes/client-node/dist/cache.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ObjectMap, useObjectMap } from './object-map.js';

const object = (namespace: string, name: string, resourceVersion: string): KubernetesObject => ({
  metadata: { namespace, name, resourceVersion },
});

interface Readers {
  get: (name: string, namespace?: string) => KubernetesObject | undefined;
  list: (namespace?: string) => readonly KubernetesObject[];
}

/** ListWatch's own get and list, run on a store. */
function readers(store: unknown): Readers {
  const self = Object.create(ListWatch.prototype) as ListWatch<KubernetesObject>;
  Object.assign(self, { objects: store });
  return {
    get: (name, namespace) => self.get(name, namespace),
    list: (namespace) => self.list(namespace),
  };
}

type Step =
  | { op: 'upsert'; object: KubernetesObject }
  | { op: 'delete'; object: KubernetesObject }
  | { op: 'relist'; objects: KubernetesObject[] };

const NAMESPACES = ['', 'a', 'b', 'c'];
const NAMES = ['x', 'y', 'z'];

const anObject = fc
  .record({
    namespace: fc.constantFrom(...NAMESPACES),
    name: fc.constantFrom(...NAMES),
    resourceVersion: fc.integer({ min: 1, max: 5 }).map(String),
  })
  .map(({ namespace, name, resourceVersion }) => object(namespace, name, resourceVersion));

const aStep: fc.Arbitrary<Step> = fc.oneof(
  anObject.map((o) => ({ op: 'upsert' as const, object: o })),
  anObject.map((o) => ({ op: 'delete' as const, object: o })),
  fc.array(anObject, { maxLength: 6 }).map((objects) => ({ op: 'relist' as const, objects })),
);

/** Runs a step through client-node's functions; returns the callbacks' calls in order. */
function run(store: CacheMap<KubernetesObject>, step: Step): string[] {
  const calls: string[] = [];
  const said = (verb: string) => (o: KubernetesObject) =>
    calls.push(`${verb} ${o.metadata!.namespace}/${o.metadata!.name}@${o.metadata!.resourceVersion}`);
  if (step.op === 'upsert') addOrUpdateObject(store, step.object, [said('add')], [said('update')]);
  else if (step.op === 'delete') deleteObject(store, step.object, [said('delete')]);
  else {
    // As ListWatch relists: drop what the new list lacks, then add or update what it holds.
    const kept = deleteItems(store, step.objects, [said('delete')]);
    for (const o of step.objects) addOrUpdateObject(kept, o, [said('add')], [said('update')]);
  }
  return calls;
}

const byKey = (objects: readonly KubernetesObject[]) =>
  objects.map((o) => `${o.metadata!.namespace}/${o.metadata!.name}@${o.metadata!.resourceVersion}`).sort();

describe('ObjectMap', () => {
  it("behaves as ListWatch's Map under ListWatch's own functions", () => {
    fc.assert(
      fc.property(fc.array(aStep, { maxLength: 30 }), (steps) => {
        const plain: CacheMap<KubernetesObject> = new Map();
        const compact = new ObjectMap<KubernetesObject>();
        for (const step of steps) {
          // The same calls; their order across namespaces may differ after a relist, where ListWatch's
          // Map keeps a namespace it emptied (and its place) and this store does not.
          const calls = run(compact as unknown as CacheMap<KubernetesObject>, step);
          expect(calls.sort()).toEqual(run(plain, step).sort());
          const [want, got] = [readers(plain), readers(compact)];
          expect(byKey(got.list())).toEqual(byKey(want.list()));
          for (const namespace of NAMESPACES) {
            expect(byKey(got.list(namespace))).toEqual(byKey(want.list(namespace)));
            for (const name of NAMES) expect(got.get(name, namespace)).toBe(want.get(name, namespace));
          }
        }
      }),
      { numRuns: 300 },
    );
  });

  it('holds a lone object in its namespace without a Map of its own', () => {
    const store = new ObjectMap<KubernetesObject>();
    const cache = store as unknown as CacheMap<KubernetesObject>;
    const quota = object('tenant-a', 'landlord-quota', '7');
    addOrUpdateObject(cache, quota);
    expect(store.held('tenant-a')).toBe(quota);
    addOrUpdateObject(cache, object('tenant-a', 'other', '8'));
    expect(store.held('tenant-a')).toBeInstanceOf(Map);
    deleteObject(cache, object('tenant-a', 'other', '8'));
    expect(store.held('tenant-a')).toBe(quota);
    deleteObject(cache, quota);
    expect(store.has('tenant-a')).toBe(false);
  });

  it("takes the place of a new ListWatch's store, and refuses one that is not a ListWatch's", () => {
    const listWatch = { objects: new Map() };
    useObjectMap(listWatch);
    expect(listWatch.objects).toBeInstanceOf(ObjectMap);
    expect(() => useObjectMap({ cache: new Map() })).toThrow(/object-map\.ts/);
  });
});
