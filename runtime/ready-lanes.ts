// The keys of a work queue that are ready to run, in lanes by who waits on them, and the rule that
// picks the next one. A key someone waits on (a new tenant, an edited row) goes before a key
// something merely happened to, and both go before background rechecks (a class rollout, a periodic
// resync), which at thousands of keys take longer than a signup may wait. Strict priority alone
// would let a steady stream of signups hold a rollout back for good, so a lane that has work is
// passed over at most `fairness` times in a row before it gets a turn.
// Each key is in at most one lane; asking again in a higher lane moves it up, never down.

/** Who waits on a key, most urgent first. */
export const LANES = ['urgent', 'event', 'background'] as const;

/**
 * `urgent`: a person waits on it (a tenant not yet Ready, a row whose change is not yet acted on).
 * `event`: something about it changed (a watch event, a retry, a requested requeue).
 * `background`: a recheck of many keys at once (a periodic resync, a class rollout).
 */
export type Lane = (typeof LANES)[number];

/** How many keys of higher lanes may run while a lower lane waits, by default. */
const DEFAULT_FAIRNESS = 8;

const rank = (lane: Lane): number => LANES.indexOf(lane);

/** The more urgent of two lanes. */
export function higherLane(a: Lane, b: Lane): Lane {
  return rank(a) <= rank(b) ? a : b;
}

export class ReadyLanes {
  /** Per lane, in arrival order (a Set keeps insertion order and de-duplicates). */
  private readonly keys: Record<Lane, Set<string>> = {
    urgent: new Set(),
    event: new Set(),
    background: new Set(),
  };
  /** Per lane, how many keys of higher lanes ran since it last had a turn while it had work. */
  private readonly passedOver: Record<Lane, number> = { urgent: 0, event: 0, background: 0 };

  constructor(private readonly fairness: number = DEFAULT_FAIRNESS) {
    if (!Number.isInteger(fairness) || fairness < 1) {
      throw new RangeError(`work queue fairness must be an integer ≥ 1, got ${fairness}`);
    }
  }

  get size(): number {
    return this.keys.urgent.size + this.keys.event.size + this.keys.background.size;
  }

  /** The lane the key waits in, if it waits. */
  laneOf(key: string): Lane | undefined {
    return LANES.find((lane) => this.keys[lane].has(key));
  }

  /** Adds the key in `lane`, or moves it up to `lane` if it waits lower; never moves it down. */
  add(key: string, lane: Lane): void {
    const current = this.laneOf(key);
    if (current !== undefined && rank(current) <= rank(lane)) return;
    if (current !== undefined) this.keys[current].delete(key);
    this.keys[lane].add(key);
  }

  /**
   * The next key: the oldest of the most urgent lane with work, unless a lower lane with work has
   * been passed over `fairness` times, in which case the highest such lane's oldest. A lane with
   * work therefore waits at most `fairness + LANES.length - 2` keys. Only the `open` lanes are
   * looked at (the queue closes the lower ones while they hold every slot they may); a closed lane
   * is not passed over, it waits.
   */
  take(open: readonly Lane[] = LANES): string | undefined {
    return this.next(open)?.key;
  }

  /** As `take`, with the lane the key left. */
  next(open: readonly Lane[] = LANES): { key: string; lane: Lane } | undefined {
    const waiting = LANES.filter((lane) => open.includes(lane) && this.keys[lane].size > 0);
    // A lane's count is of one stretch of waiting: work that comes later does not inherit it.
    for (const lane of LANES) if (this.keys[lane].size === 0) this.passedOver[lane] = 0;
    const first = waiting[0];
    if (first === undefined) return undefined;
    const lane = waiting.find((l) => this.passedOver[l] >= this.fairness) ?? first;
    for (const other of waiting) {
      if (rank(other) > rank(lane)) this.passedOver[other] += 1;
    }
    this.passedOver[lane] = 0;
    const key = this.keys[lane].values().next().value!;
    this.keys[lane].delete(key);
    return { key, lane };
  }

  clear(): void {
    for (const lane of LANES) {
      this.keys[lane].clear();
      this.passedOver[lane] = 0;
    }
  }
}
