// The store behind an informer's cache: client-node's ListWatch keeps namespace → name → object,
// a Map per namespace. Watched cluster-wide, a PerTenant tenant's namespace holds one object of each
// kind, and each of those Maps (its hash table sized for four) cost ~260 bytes: 1.8 KB per tenant
// over its seven namespaced kinds, more than most of the objects they held. Here a namespace with one
// object holds the object itself, and gets a Map only once a second object comes.
//
// ListWatch uses its store only through the Map methods below (cache.js: get, list,
// addOrUpdateObject, deleteObject, deleteItems), so this one takes the place of its own Map; the
// unit tests run those same functions on both and compare (docs/adr/0009: why, and how it is guarded).
import type { KubernetesObject } from '@kubernetes/client-node';

/** A namespace's objects: the lone one, or a Map by name. */
type Held<T> = T | Map<string, T>;

const nameOf = (object: KubernetesObject): string => object.metadata?.name || '';

export class ObjectMap<T extends KubernetesObject> {
  private readonly byNamespace = new Map<string, Held<T>>();
  /**
   * Maps handed to ListWatch, which it may change after the call that handed them (a new
   * namespace's Map is filled after it is set): each left with one object is made lone at the next call.
   */
  private lent: [string, Map<string, T>][] = [];

  get size(): number {
    this.settle();
    return this.byNamespace.size;
  }

  get(namespace: string): Map<string, T> | LoneObject<T> | undefined {
    this.settle();
    return this.lend(namespace, this.byNamespace.get(namespace));
  }

  has(namespace: string): boolean {
    this.settle();
    return this.byNamespace.has(namespace);
  }

  set(namespace: string, objects: Map<string, T>): this {
    this.settle();
    this.byNamespace.set(namespace, objects);
    this.lent.push([namespace, objects]);
    return this;
  }

  delete(namespace: string): boolean {
    this.settle();
    return this.byNamespace.delete(namespace);
  }

  *entries(): IterableIterator<[string, Map<string, T> | LoneObject<T>]> {
    this.settle();
    for (const [namespace, held] of this.byNamespace) yield [namespace, this.lend(namespace, held)!];
  }

  *values(): IterableIterator<Map<string, T> | LoneObject<T>> {
    for (const [, objects] of this.entries()) yield objects;
  }

  [Symbol.iterator](): IterableIterator<[string, Map<string, T> | LoneObject<T>]> {
    return this.entries();
  }

  /** What the namespace holds (for tests): its lone object, or a Map. */
  held(namespace: string): Held<T> | undefined {
    this.settle();
    return this.byNamespace.get(namespace);
  }

  /** The namespace holds these now (LoneObject's changes): none, one alone, or a Map. */
  hold(namespace: string, held: Held<T> | undefined): void {
    if (held === undefined) this.byNamespace.delete(namespace);
    else this.byNamespace.set(namespace, held);
  }

  private lend(namespace: string, held: Held<T> | undefined): Map<string, T> | LoneObject<T> | undefined {
    if (held === undefined) return undefined;
    if (!(held instanceof Map)) return new LoneObject(this, namespace, held);
    this.lent.push([namespace, held]);
    return held;
  }

  private settle(): void {
    if (this.lent.length === 0) return;
    const lent = this.lent;
    this.lent = [];
    for (const [namespace, objects] of lent) {
      if (objects.size > 1 || this.byNamespace.get(namespace) !== objects) continue;
      this.hold(namespace, objects.values().next().value);
    }
  }
}

/**
 * A namespace's lone object as ListWatch reads and changes it: made for each call and dropped
 * after it. A second object makes the namespace a Map; deleting the object, empty.
 */
export class LoneObject<T extends KubernetesObject> {
  private objects: Map<string, T> | undefined;

  constructor(
    private readonly store: ObjectMap<T>,
    private readonly namespace: string,
    private object: T | undefined,
  ) {}

  get size(): number {
    return this.asMap().size;
  }

  get(name: string): T | undefined {
    if (this.objects !== undefined) return this.objects.get(name);
    return this.object !== undefined && nameOf(this.object) === name ? this.object : undefined;
  }

  has(name: string): boolean {
    return this.get(name) !== undefined;
  }

  set(name: string, object: T): this {
    if (this.objects === undefined && (this.object === undefined || nameOf(this.object) === name)) {
      this.object = object;
      this.store.hold(this.namespace, object);
      return this;
    }
    this.objects = this.asMap().set(name, object);
    this.store.hold(this.namespace, this.objects);
    return this;
  }

  delete(name: string): boolean {
    if (this.objects !== undefined) return this.objects.delete(name);
    if (this.get(name) === undefined) return false;
    this.object = undefined;
    this.store.hold(this.namespace, undefined);
    return true;
  }

  keys(): IterableIterator<string> {
    return this.asMap().keys();
  }

  values(): IterableIterator<T> {
    return this.asMap().values();
  }

  entries(): IterableIterator<[string, T]> {
    return this.asMap().entries();
  }

  [Symbol.iterator](): IterableIterator<[string, T]> {
    return this.entries();
  }

  forEach(callback: (object: T, name: string) => void): void {
    this.asMap().forEach((object, name) => callback(object, name));
  }

  private asMap(): Map<string, T> {
    if (this.objects !== undefined) return this.objects;
    return new Map(this.object === undefined ? [] : [[nameOf(this.object), this.object]]);
  }
}

/**
 * Gives a ListWatch this store in place of its own, before it lists anything. Throws if client-node
 * no longer keeps its objects where this expects: a silent miss would only cost memory again.
 */
export function useObjectMap<T extends KubernetesObject>(listWatch: object): void {
  const internals = listWatch as { objects?: unknown };
  if (!(internals.objects instanceof Map) || internals.objects.size > 0)
    throw new Error("ListWatch keeps no empty Map in 'objects': runtime/kube/object-map.ts needs updating");
  internals.objects = new ObjectMap<T>();
}
