// What each holder in a V8 heap snapshot retains: the bytes that would be freed with it, read off
// the snapshot's dominator tree (a node's retained size is its own plus that of every node reached
// only through it). Weak edges hold nothing, as in the collector; shortcut edges are the
// snapshot's own summaries and are skipped. Used by the bench's --heap-by-kind, on a snapshot the
// operator writes on a signal (bench/heap-by-kind.ts).

/** The fields of a .heapsnapshot file this reads (V8's format: flat arrays described by meta). */
export interface HeapSnapshotFile {
  snapshot: {
    meta: {
      node_fields: string[];
      node_types: (string[] | string)[];
      edge_fields: string[];
      edge_types: (string[] | string)[];
    };
  };
  nodes: number[];
  edges: number[];
  strings: string[];
}

/** A snapshot's graph, with each reachable node's retained size. */
export class HeapGraph {
  readonly count: number;
  private readonly nodeFields: number;
  private readonly edgeFields: number;
  private readonly firstEdge: Uint32Array;
  private readonly retainedSize: Float64Array;
  private readonly nodeTypes: readonly string[];
  private readonly edgeTypes: readonly string[];
  private readonly at: Record<'type' | 'name' | 'self' | 'edges' | 'edgeType' | 'edgeName' | 'to', number>;

  constructor(private readonly file: HeapSnapshotFile) {
    const { node_fields, node_types, edge_fields, edge_types } = file.snapshot.meta;
    this.nodeFields = node_fields.length;
    this.edgeFields = edge_fields.length;
    this.at = {
      type: node_fields.indexOf('type'),
      name: node_fields.indexOf('name'),
      self: node_fields.indexOf('self_size'),
      edges: node_fields.indexOf('edge_count'),
      edgeType: edge_fields.indexOf('type'),
      edgeName: edge_fields.indexOf('name_or_index'),
      to: edge_fields.indexOf('to_node'),
    };
    this.nodeTypes = node_types[this.at.type] as string[];
    this.edgeTypes = edge_types[this.at.edgeType] as string[];
    this.count = file.nodes.length / this.nodeFields;
    this.firstEdge = this.edgeOffsets();
    this.retainedSize = retainedSizes(this);
  }

  /** Total bytes reachable from the root (node 0): the live heap as the snapshot saw it. */
  get total(): number {
    return this.retainedSize[0] ?? 0;
  }

  retained(node: number): number {
    return this.retainedSize[node] ?? 0;
  }

  selfSize(node: number): number {
    return this.file.nodes[node * this.nodeFields + this.at.self] ?? 0;
  }

  type(node: number): string {
    return this.nodeTypes[this.file.nodes[node * this.nodeFields + this.at.type] ?? 0] ?? '';
  }

  /** A node's name: an object's constructor, a string's text (a concatenated one joined up). */
  name(node: number): string {
    if (this.type(node) === 'concatenated string') {
      return ['first', 'second'].map((part) => this.name(this.property(node, part) ?? -1)).join('');
    }
    return this.file.strings[this.file.nodes[node * this.nodeFields + this.at.name] ?? -1] ?? '';
  }

  /** The node a named property (or a concatenated string's part) points to. */
  property(node: number, key: string): number | undefined {
    for (const edge of this.edgesOf(node)) if (edge.name === key) return edge.to;
    return undefined;
  }

  /** The strong edges out of a node: weak edges hold nothing, shortcuts repeat other paths. */
  *edgesOf(node: number): Generator<{ name: string; to: number }> {
    const { edges, strings } = this.file;
    for (let e = this.firstEdge[node] ?? 0; e < (this.firstEdge[node + 1] ?? 0); e += this.edgeFields) {
      const type = this.edgeTypes[edges[e + this.at.edgeType] ?? 0];
      if (type === 'weak' || type === 'shortcut') continue;
      const nameOrIndex = edges[e + this.at.edgeName] ?? 0;
      const named = type !== 'element' && type !== 'hidden';
      yield {
        name: named ? (strings[nameOrIndex] ?? '') : String(nameOrIndex),
        to: (edges[e + this.at.to] ?? 0) / this.nodeFields,
      };
    }
  }

  private edgeOffsets(): Uint32Array {
    const offsets = new Uint32Array(this.count + 1);
    for (let node = 0, e = 0; node < this.count; node++) {
      offsets[node] = e;
      e += (this.file.nodes[node * this.nodeFields + this.at.edges] ?? 0) * this.edgeFields;
    }
    offsets[this.count] = this.file.edges.length;
    return offsets;
  }
}

/** Nodes in post-order of a depth-first walk from the root, and each node's position in it (-1: unreachable). */
function postOrder(graph: HeapGraph): { order: Int32Array; post: Uint32Array; reached: number } {
  const order = new Int32Array(graph.count).fill(-1);
  const post = new Uint32Array(graph.count);
  const seen = new Uint8Array(graph.count);
  const stack: { node: number; edges: Iterator<{ to: number }> }[] = [{ node: 0, edges: graph.edgesOf(0) }];
  seen[0] = 1;
  let reached = 0;
  while (stack.length > 0) {
    const top = stack[stack.length - 1]!;
    const next = top.edges.next();
    if (next.done === true) {
      stack.pop();
      order[top.node] = reached;
      post[reached++] = top.node;
    } else if (seen[next.value.to] === 0) {
      seen[next.value.to] = 1;
      stack.push({ node: next.value.to, edges: graph.edgesOf(next.value.to) });
    }
  }
  return { order, post, reached };
}

/** Each reachable node's predecessors, as post-order positions: node n's are list[start[n]..start[n+1]). */
interface Predecessors {
  start: Uint32Array;
  list: Uint32Array;
}

function predecessors(graph: HeapGraph, order: Int32Array): Predecessors {
  const start = new Uint32Array(graph.count + 1);
  const reachable = (node: number): boolean => order[node]! >= 0;
  for (let node = 0; node < graph.count; node++) {
    if (reachable(node)) for (const { to } of graph.edgesOf(node)) start[to + 1]!++;
  }
  for (let node = 0; node < graph.count; node++) start[node + 1]! += start[node]!;
  const list = new Uint32Array(start[graph.count]!);
  const filled = start.slice(0, graph.count);
  for (let node = 0; node < graph.count; node++) {
    if (reachable(node)) for (const { to } of graph.edgesOf(node)) list[filled[to]!++] = order[node]!;
  }
  return { start, list };
}

/**
 * Immediate dominators by post-order position (Cooper, Harvey and Kennedy's iteration: the root's
 * position is the highest, and a dominator always comes later in post-order than what it dominates).
 */
function dominators(post: Uint32Array, reached: number, preds: Predecessors): Int32Array {
  const idom = new Int32Array(reached).fill(-1);
  const root = reached - 1;
  idom[root] = root;
  const meet = (a: number, b: number): number => {
    while (a !== b) {
      while (a < b) a = idom[a]!;
      while (b < a) b = idom[b]!;
    }
    return a;
  };
  /** The nearest common dominator of a position's predecessors processed so far (-1: none yet). */
  const fromPredecessors = (p: number): number => {
    const node = post[p]!;
    let dom = -1;
    for (let k = preds.start[node]!; k < preds.start[node + 1]!; k++) {
      const q = preds.list[k]!;
      if (idom[q] !== -1) dom = dom === -1 ? q : meet(q, dom);
    }
    return dom;
  };
  for (let changed = true; changed;) {
    changed = false;
    for (let p = root - 1; p >= 0; p--) {
      const dom = fromPredecessors(p);
      if (dom !== idom[p]) {
        idom[p] = dom;
        changed = true;
      }
    }
  }
  return idom;
}

function retainedSizes(graph: HeapGraph): Float64Array {
  const { order, post, reached } = postOrder(graph);
  const idom = dominators(post, reached, predecessors(graph, order));
  const byPosition = new Float64Array(reached);
  for (let p = 0; p < reached; p++) byPosition[p] = graph.selfSize(post[p]!);
  // Children come before their dominators in post-order: one pass adds each to its dominator.
  for (let p = 0; p < reached - 1; p++) byPosition[idom[p]!]! += byPosition[p]!;
  const sizes = new Float64Array(graph.count);
  for (let p = 0; p < reached; p++) sizes[post[p]!] = byPosition[p]!;
  return sizes;
}
