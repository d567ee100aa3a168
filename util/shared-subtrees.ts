// Cached objects repeat each other below their names: every Deployment carries the same server
// defaults (its strategy, an empty securityContext, each container's termination message path),
// and Tenants made from one template hold the same containers, probes and resources. Parsed from
// separate responses, each holds its own copies. Measured on 20,000 Deployments as the API server
// serves them: 1,702 bytes each cached, 1,287 with equal parts held once (docs/performance.md).
//
// Equal parts are found by place (kind, then the path of property names) among the last few
// values seen there, not in a table of every part ever seen: such a table holds every unique part
// too (each object's metadata, its status), and cost twice what sharing saved (3.5 KB per
// Deployment). What the places remember is bounded in count and in size, so rows written to defeat
// it (unique keys, large values) cost at most a few MiB and change nothing but how much is shared.
//
// A shared part belongs to many objects, so every part that passes through here is frozen: code
// that changes a cached object in place fails loudly instead of changing other objects too.

/** Values remembered per place: two covers a default and one common variant. */
const RECENT_PER_PLACE = 2;
/** Places at most, over every kind: the schemas' paths need a few hundred. */
const MAX_PLACES = 1024;
/** Parts larger than this (roughly, in characters of JSON) are shared from but not remembered. */
const MAX_REMEMBERED_WEIGHT = 2048;
/**
 * Items of an array up to this index have a place of their own, the rest one place together. With
 * one place for all items, an array of three different items (a NetworkPolicy's egress rules: its
 * namespace, DNS, HTTPS) cycled through two remembered values and none was ever shared: 0.8 KB per
 * PerTenant tenant. A few places per array keep the count of places small (MAX_PLACES).
 */
const INDEXED_ITEMS = 4;

/**
 * Metadata parts one object's children repeat across kinds: its owner reference and the labels
 * landlord puts on each. A PerTenant tenant's eight children, each listed with its kind, held eight
 * copies (~1 KB per tenant), since a place is per kind and remembers only the last few values.
 */
const ACROSS_KINDS = new Set(['labels', 'ownerReferences']);
/** Parts shared across kinds are small: a JSON text per lookup is cheap, and the table holds no text. */
const MAX_ACROSS_WEIGHT = 512;
/** Dead entries are swept out of the table after this many insertions. */
const SWEEP_EVERY = 4096;

class Place {
  children: Map<string, Place> | undefined;
  readonly recent: object[] = [];
  /** An object's metadata: the place of a kind's `metadata`. */
  readonly metadata: boolean;
  /** Its parts are shared across kinds too (ACROSS_KINDS). */
  readonly acrossKinds: boolean;

  constructor(
    readonly depth = 0,
    key = '',
    parent?: Place,
  ) {
    this.metadata = depth === 2 && key === 'metadata';
    this.acrossKinds = parent?.metadata === true && ACROSS_KINDS.has(key);
  }
}

/**
 * Parts equal across kinds, by a hash of their JSON: a table of weak references, so a part stays
 * only while some cached object holds it, and its entry (a number and a reference, ~100 bytes) is
 * swept once it has gone. A hash shared by two parts keeps the later.
 */
class AcrossKinds {
  private readonly byHash = new Map<number, WeakRef<object>>();
  private insertions = 0;

  shared(node: object): object {
    const json = JSON.stringify(node);
    const hash = hashOf(json);
    const seen = this.byHash.get(hash)?.deref();
    if (seen !== undefined && JSON.stringify(seen) === json) return seen;
    this.byHash.set(hash, new WeakRef(node));
    if (++this.insertions % SWEEP_EVERY === 0) this.sweep();
    return node;
  }

  /** Entries held (for tests). */
  get size(): number {
    return this.byHash.size;
  }

  private sweep(): void {
    for (const [hash, ref] of this.byHash) if (ref.deref() === undefined) this.byHash.delete(hash);
  }
}

/** FNV-1a, kept to 30 bits: a small integer key, which a Map holds without an object of its own. */
function hashOf(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return hash & 0x3fffffff;
}

export class SubtreePool {
  private readonly root = new Place();
  private readonly acrossKinds = new AcrossKinds();
  private places = 0;
  /** The size of the part just shared (roughly, in characters of JSON). */
  private weight = 0;

  /**
   * Replaces, in place, every object and array under `value` by an equal one seen before at the
   * same place, freezes what it keeps, and returns `value` (or the equal value it was replaced by).
   * `value` must be freshly parsed or built: parts already frozen are taken as already shared.
   */
  share<T>(value: T, kind: string): T {
    if (!isNode(value)) return value;
    return this.shareAt(value, this.child(this.root, kind)) as T;
  }

  /** Places created so far (for tests). */
  get size(): number {
    return this.places;
  }

  /** Parts held in the table of those shared across kinds (for tests). */
  get sharedAcrossKinds(): number {
    return this.acrossKinds.size;
  }

  /** Shares the parts of `node`, then `node` itself; leaves its size in `this.weight`. */
  private shareAt(node: object, place: Place | undefined): object {
    // Frozen: shared already (a part of a cached object); of unknown size, so nothing holding it
    // is remembered.
    if (Object.isFrozen(node)) {
      this.weight = Infinity;
      return node;
    }
    let weight = 0;
    if (Array.isArray(node)) {
      for (let i = 0; i < node.length; i++) {
        node[i] = this.shared(node[i], this.itemPlace(place, i, node[i]));
        weight += this.weight;
      }
    } else {
      const record = node as Record<string, unknown>;
      for (const key in record) {
        record[key] = this.shared(record[key], this.childFor(place, key, record[key]));
        weight += key.length + this.weight;
      }
    }
    this.weight = weight;
    return this.remembered(Object.freeze(node), place, weight);
  }

  /** A property's value, shared when it is an object or array; its size left in `this.weight`. */
  private shared(value: unknown, place: Place | undefined): unknown {
    if (isNode(value)) return this.shareAt(value, place);
    this.weight = typeof value === 'string' ? value.length : 8;
    return value;
  }

  private remembered(node: object, place: Place | undefined, weight: number): object {
    if (place === undefined) return node;
    const recent = place.recent;
    for (const seen of recent) if (sameParts(node, seen)) return seen;
    if (place.acrossKinds && weight <= MAX_ACROSS_WEIGHT) node = this.acrossKinds.shared(node);
    if (weight > MAX_REMEMBERED_WEIGHT) return node;
    if (recent.length >= RECENT_PER_PLACE) recent.pop();
    recent.unshift(node);
    return node;
  }

  /** The place of an array's item: its own for the first few, one for the rest (INDEXED_ITEMS). */
  private itemPlace(place: Place | undefined, index: number, value: unknown): Place | undefined {
    return this.childFor(place, index < INDEXED_ITEMS ? `[${index}]` : '[]', value);
  }

  /** Only objects get places: a string under a key of a ConfigMap's data needs none. */
  private childFor(place: Place | undefined, key: string, value: unknown): Place | undefined {
    return isNode(value) ? this.child(place, key) : undefined;
  }

  private child(place: Place | undefined, key: string): Place | undefined {
    if (place === undefined) return undefined;
    let child = place.children?.get(key);
    if (child === undefined && this.places < MAX_PLACES) {
      child = new Place(place.depth + 1, key, place);
      (place.children ??= new Map()).set(key, child);
      this.places++;
    }
    return child;
  }
}

const isNode = (value: unknown): value is object => typeof value === 'object' && value !== null;

/**
 * Equal as JSON, given that their own parts are shared already: the same keys in the same order
 * (a cache's copy may be serialised and compared), each holding the identical value.
 */
function sameParts(a: object, b: object): boolean {
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((item, i) => item === b[i]);
  }
  const keys = Object.keys(a);
  const others = Object.keys(b);
  if (keys.length !== others.length) return false;
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  return keys.every((key, i) => key === others[i] && x[key] === y[key]);
}

/** The process's pool: every cache shares from it (sync's and the operator's are separate processes). */
export const cachedSubtrees = new SubtreePool();
