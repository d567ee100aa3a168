// A keyed work queue for level-triggered reconciling. Events only say which key to look at; the
// queue makes sure each key is handled by one handler at a time, that a burst of events for one key
// costs one run, that at most `concurrency` keys run at once, and that a failing key waits out its
// backoff in a timer, never in front of keys that would succeed. Ready keys wait in lanes by who
// waits on them (ready-lanes.ts): a key someone waits on (the `urgent` test: a new tenant, an edited
// row) before a key something just happened to, and both before a recheck of every key (a periodic
// resync, a class rollout), with a bound on how long a lower lane may wait. And a run of handlers
// with nothing to do (a resync where everything is as it should be) hands the event loop back every
// few milliseconds. Such handlers settle in microtasks, so without that the whole pass is one task:
// at 5,000 Tenants 3-5 s in which no watch event is read, no probe or metrics scrape is answered and
// no lease is renewed, and an edit that arrives waits for the end of the pass however the lanes are
// ordered. One class on purpose: the ready lanes, the running set, the dirty marks and the timers
// must change together under one invariant.
import { backoffDelay } from '../util/backoff.js';
import { higherLane, LANES, ReadyLanes, type Lane } from './ready-lanes.js';

export interface WorkQueueOptions {
  /** Handlers allowed to run at once (≥ 1). */
  concurrency: number;
  /** Delay before the first retry of a failing key. */
  baseDelayMs: number;
  /** Ceiling of the retry delay, before jitter. */
  maxDelayMs: number;
  /** Spread of each retry delay, as a fraction of it (0..1); default 0.1. */
  jitter?: number;
  /** Monotonic clock in ms, for handler durations and for comparing delays; default performance.now(). */
  now?: () => number;
  /** Source of jitter; default Math.random. */
  random?: () => number;
  /**
   * Whether someone waits on the key now (asked each time it is queued): such a key goes in the
   * `urgent` lane whatever lane it was asked in. Default: none is.
   */
  urgent?: (key: string) => boolean;
  /** How many keys of higher lanes may run while a lower lane waits (≥ 1); default 8. */
  fairness?: number;
  /**
   * Handlers kept for urgent keys (0 ≤ n < concurrency): keys of the other lanes run only while
   * fewer than `concurrency - urgentSlots` of them are running, so someone waiting starts at once
   * even while a class rollout or a resync fills the queue with slow work. Default 0.
   */
  urgentSlots?: number;
}

/** What a handler reports about one key. */
export type Outcome =
  /** The key is as it should be; nothing more to do until the next event. */
  | { kind: 'done' }
  /** A transient failure: run again after the key's backoff, which grows with each failure. */
  | { kind: 'retry'; error?: unknown }
  /** Fine for now, but look again later (waiting on a rollout, a periodic check). */
  | { kind: 'requeueAfter'; delayMs: number }
  /** A permanent problem: do not retry; only a new `add` (a new event) runs the key again. */
  | { kind: 'stop' };

export interface QueueHooks {
  onOutcome?(key: string, outcome: Outcome, durationMs: number): void;
  onHandlerError?(key: string, error: unknown): void;
}

export type Handler = (key: string) => Promise<Outcome>;

interface Pending {
  timer: NodeJS.Timeout;
  dueAt: number;
  /** A backoff timer may not be brought forward by an ordinary add or addAfter. */
  backoff: boolean;
  /** The lane the key goes in when the timer fires. */
  lane: Lane;
}

const DEFAULT_JITTER = 0.1;
const URGENT_ONLY: readonly Lane[] = ['urgent'];
/** How long handlers may be started back to back before the queue lets the event loop run. */
const SLICE_MS = 10;
/** The real clock, for slices: `now` may be a test's fake clock, which moves without the thread. */
const threadMs = (): number => Number(process.hrtime.bigint()) / 1e6;

export class WorkQueue {
  private readonly ready: ReadyLanes;
  /** Running keys, each with the lane it ran from. */
  private readonly running = new Map<string, Lane>();
  /** Running keys that were asked for while running: they run once more, in this lane, when they finish. */
  private readonly dirty = new Map<string, Lane>();
  private readonly pending = new Map<string, Pending>();
  /** Consecutive failures per key; absent means zero. */
  private readonly failures = new Map<string, number>();
  private readonly tasks = new Set<Promise<void>>();
  private readonly idleWaiters: (() => void)[] = [];
  private readonly jitter: number;
  private readonly now: () => number;
  private readonly random: () => number;
  private started = false;
  private closed = false;
  /** When the current stretch of back-to-back work began; undefined once the event loop has run. */
  private sliceStartedAt: number | undefined;
  private resumeScheduled = false;

  constructor(
    private readonly handler: Handler,
    private readonly options: WorkQueueOptions,
    private readonly hooks: QueueHooks = {},
  ) {
    checkOptions(options);
    this.jitter = options.jitter ?? DEFAULT_JITTER;
    this.now = options.now ?? (() => performance.now());
    this.random = options.random ?? Math.random;
    this.ready = new ReadyLanes(options.fairness);
  }

  /** Keys ready to run (not counting running keys or keys waiting in a timer). */
  get length(): number {
    return this.ready.size;
  }

  get inFlight(): number {
    return this.running.size;
  }

  /** Keys waiting in a timer: backing off after a failure, or added with a delay. */
  get delayed(): number {
    return this.pending.size;
  }

  /**
   * Asks for `key` to be handled. A key already waiting is not added twice; a running key runs once
   * more after it finishes. A key backing off after a failure is left in its timer: if every event
   * for a failing key ran it at once, a busy key would retry as fast as events arrive. Call
   * `forget(key)` first when the input is known to have changed and an immediate run is wanted.
   * A key waiting in a lower lane moves up when asked for in a higher one; never down.
   */
  add(key: string, lane: Lane = 'event'): void {
    if (this.closed || this.pending.get(key)?.backoff === true) return;
    this.clearPending(key);
    this.enqueue(key, lane);
  }

  /**
   * Asks for `key` to be handled after `delayMs`, in `lane`; when a delay is already pending, the
   * sooner wins, in the more urgent of the two lanes.
   */
  addAfter(key: string, delayMs: number, lane: Lane = 'event'): void {
    if (delayMs <= 0) {
      this.add(key, lane);
      return;
    }
    if (this.closed || this.ready.laneOf(key) !== undefined) return;
    this.schedule(key, delayMs, { backoff: false, lane });
  }

  /**
   * Drops the key's failure count and its backoff timer, so its next failure starts from the base
   * delay and an `add` runs it at once. A delay from `addAfter` stays.
   */
  forget(key: string): void {
    this.failures.delete(key);
    if (this.pending.get(key)?.backoff === true) this.clearPending(key);
  }

  /**
   * Every key backing off after failures runs again at once, in `lane`, its backoff started over
   * (as `forget` then `add`); the keys that were not failing are left as they are. Returns them.
   */
  retryFailing(lane: Lane = 'event'): string[] {
    const failing = [...this.failures.keys()];
    for (const key of failing) {
      this.forget(key);
      this.add(key, lane);
    }
    return failing;
  }

  start(): void {
    if (this.started || this.closed) return;
    this.started = true;
    this.pump();
  }

  /** Stops taking work, drops waiting keys and timers, and waits for running handlers to finish. */
  async shutdown(): Promise<void> {
    this.closed = true;
    this.ready.clear();
    this.dirty.clear();
    for (const key of [...this.pending.keys()]) this.clearPending(key);
    await Promise.all([...this.tasks]);
    this.notifyIfIdle();
  }

  /** Resolves once no key is ready or running. Keys waiting in a timer do not count. */
  drained(): Promise<void> {
    return new Promise((resolve) => {
      this.idleWaiters.push(resolve);
      this.notifyIfIdle();
    });
  }

  private enqueue(key: string, asked: Lane): void {
    const lane = this.options.urgent?.(key) === true ? 'urgent' : asked;
    if (this.running.has(key)) {
      const before = this.dirty.get(key);
      this.dirty.set(key, before === undefined ? lane : higherLane(before, lane));
      return;
    }
    this.ready.add(key, lane);
    this.pump();
  }

  private schedule(key: string, delayMs: number, { backoff, lane }: Omit<Pending, 'timer' | 'dueAt'>): void {
    const dueAt = this.now() + delayMs;
    const existing = this.pending.get(key);
    // A fresh failure's backoff replaces any delay; otherwise the sooner of two delays stands.
    if (existing !== undefined && !backoff && (existing.backoff || existing.dueAt <= dueAt)) {
      existing.lane = higherLane(existing.lane, lane);
      return;
    }
    const merged = existing === undefined || backoff ? lane : higherLane(existing.lane, lane);
    this.clearPending(key);
    const timer = setTimeout(() => {
      // The entry's lane may have moved up since (a sooner-or-equal delay kept above).
      const current = this.pending.get(key)?.lane ?? merged;
      this.pending.delete(key);
      this.enqueue(key, current);
    }, delayMs);
    this.pending.set(key, { timer, dueAt, backoff, lane: merged });
  }

  private clearPending(key: string): void {
    const existing = this.pending.get(key);
    if (existing === undefined) return;
    clearTimeout(existing.timer);
    this.pending.delete(key);
  }

  private pump(): void {
    while (this.started && !this.closed && this.running.size < this.options.concurrency) {
      if (this.sliceSpent()) {
        this.resumeAfterEventLoop();
        break;
      }
      const next = this.ready.next(this.openLanes());
      if (next === undefined) break;
      this.launch(next.key, next.lane);
    }
    this.notifyIfIdle();
  }

  /**
   * Whether this stretch of work has run for a slice. A stretch ends when a setImmediate scheduled
   * at its start runs: that can only happen once the current task and its microtasks are over.
   */
  private sliceSpent(): boolean {
    const now = threadMs();
    if (this.sliceStartedAt === undefined) {
      this.sliceStartedAt = now;
      setImmediate(() => (this.sliceStartedAt = undefined));
      return false;
    }
    return now - this.sliceStartedAt >= SLICE_MS;
  }

  /** Starts the next handlers from a setImmediate, after the event loop has polled for I/O. */
  private resumeAfterEventLoop(): void {
    if (this.resumeScheduled) return;
    this.resumeScheduled = true;
    setImmediate(() => {
      this.resumeScheduled = false;
      this.pump();
    });
  }

  /** Every lane while the other lanes have slots left beside the urgent ones; else only urgent. */
  private openLanes(): readonly Lane[] {
    const reserved = this.options.urgentSlots ?? 0;
    if (reserved === 0) return LANES;
    let others = 0;
    for (const lane of this.running.values()) if (lane !== 'urgent') others += 1;
    return others < this.options.concurrency - reserved ? LANES : URGENT_ONLY;
  }

  private launch(key: string, lane: Lane): void {
    this.running.set(key, lane);
    const task = this.run(key).finally(() => this.tasks.delete(task));
    this.tasks.add(task);
  }

  /** Runs one handler; never rejects, so the task set only ever holds settled-or-settling work. */
  private async run(key: string): Promise<void> {
    const startedAt = this.now();
    let outcome: Outcome;
    try {
      outcome = await this.handler(key);
    } catch (error) {
      outcome = { kind: 'retry', error };
      this.callHook(() => this.hooks.onHandlerError?.(key, error));
    }
    this.running.delete(key);
    this.callHook(() => this.hooks.onOutcome?.(key, outcome, this.now() - startedAt));
    if (!this.closed) this.settle(key, outcome);
    this.pump();
  }

  private settle(key: string, outcome: Outcome): void {
    const rerun = this.dirty.get(key);
    this.dirty.delete(key);
    if (outcome.kind === 'retry') {
      // The backoff run also covers any event that came in meanwhile.
      const attempt = this.failures.get(key) ?? 0;
      this.failures.set(key, attempt + 1);
      const { baseDelayMs, maxDelayMs } = this.options;
      const delayMs = backoffDelay(attempt, baseDelayMs, maxDelayMs, this.jitter, this.random);
      this.schedule(key, delayMs, { backoff: true, lane: 'event' });
      return;
    }
    this.failures.delete(key);
    // A newer event makes a rerun more urgent than a requested requeue; that rerun decides again.
    if (rerun !== undefined) this.enqueue(key, rerun);
    else if (outcome.kind === 'requeueAfter') this.addAfter(key, outcome.delayMs);
  }

  /** A broken metrics or logging hook must not stall the queue or leave a key marked running. */
  private callHook(call: () => void): void {
    try {
      call();
    } catch {
      // Deliberately ignored: hooks only observe.
    }
  }

  private notifyIfIdle(): void {
    const idle = this.closed ? this.running.size === 0 : this.length === 0 && this.running.size === 0;
    if (!idle) return;
    for (const resolve of this.idleWaiters.splice(0)) resolve();
  }
}

function checkOptions(options: WorkQueueOptions): void {
  if (!Number.isInteger(options.concurrency) || options.concurrency < 1) {
    throw new RangeError(`work queue concurrency must be an integer ≥ 1, got ${options.concurrency}`);
  }
  if (!(options.baseDelayMs >= 0 && options.maxDelayMs >= options.baseDelayMs)) {
    throw new RangeError(
      `work queue needs 0 ≤ baseDelayMs ≤ maxDelayMs, got ${options.baseDelayMs} and ${options.maxDelayMs}`,
    );
  }
  const reserved = options.urgentSlots ?? 0;
  if (!Number.isInteger(reserved) || reserved < 0 || reserved >= options.concurrency) {
    throw new RangeError(
      `work queue urgentSlots must be an integer from 0 to concurrency - 1 (${options.concurrency - 1}), got ${reserved}`,
    );
  }
  const jitter = options.jitter ?? DEFAULT_JITTER;
  if (!(jitter >= 0 && jitter <= 1)) {
    throw new RangeError(`work queue jitter must be between 0 and 1, got ${jitter}`);
  }
}
