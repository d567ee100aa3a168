// The work queue's guarantees, one describe per guarantee (de-duplication, one handler per key,
// bounded concurrency, per-key backoff, shutdown). Longer than most modules because each guarantee
// needs its own timeline of fake timers; split, the files would share all of the set-up below.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { WorkQueue } from './work-queue.js';
import type { Outcome, QueueHooks, WorkQueueOptions } from './work-queue.js';

// setImmediate stays real so a test can let every pending promise settle before it looks.
const FAKED = ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date', 'performance'] as const;
const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

const OPTIONS: WorkQueueOptions = { concurrency: 2, baseDelayMs: 100, maxDelayMs: 1000, jitter: 0 };

interface Gate {
  promise: Promise<Outcome>;
  release(outcome?: Outcome): void;
}

function gate(): Gate {
  let release!: (outcome: Outcome) => void;
  const promise = new Promise<Outcome>((resolve) => (release = resolve));
  return { promise, release: (outcome = { kind: 'done' }) => release(outcome) };
}

/** A handler whose runs block until the test releases them, and that records what ran when. */
function controlled() {
  const gates = new Map<string, Gate[]>();
  const calls: string[] = [];
  const running = new Set<string>();
  let maxRunning = 0;
  let overlap = false;
  const handler = (key: string): Promise<Outcome> => {
    calls.push(key);
    if (running.has(key)) overlap = true;
    running.add(key);
    maxRunning = Math.max(maxRunning, running.size);
    const g = gate();
    gates.set(key, [...(gates.get(key) ?? []), g]);
    return g.promise.finally(() => running.delete(key));
  };
  const release = async (key: string, outcome?: Outcome): Promise<void> => {
    const open = gates.get(key)?.shift();
    if (open === undefined) throw new Error(`${key} is not running`);
    open.release(outcome);
    await settle();
  };
  return { handler, calls, release, stats: () => ({ maxRunning, overlap }) };
}

type Controlled = ReturnType<typeof controlled>;

/** A handler that answers each key from a script and records when (fake time) each run started. */
function scripted(answer: (key: string, run: number) => Outcome) {
  const runs = new Map<string, number[]>();
  const handler = (key: string): Promise<Outcome> => {
    const times = runs.get(key) ?? [];
    times.push(Date.now());
    runs.set(key, times);
    return Promise.resolve(answer(key, times.length));
  };
  const gaps = (key: string): number[] =>
    (runs.get(key) ?? []).slice(1).map((t, i) => t - runs.get(key)![i]!);
  const count = (key: string): number => runs.get(key)?.length ?? 0;
  return { handler, gaps, count };
}

describe('WorkQueue', () => {
  let queue: WorkQueue | undefined;
  beforeEach(() => {
    vi.useFakeTimers({ toFake: [...FAKED] });
  });
  afterEach(async () => {
    await queue?.shutdown();
    queue = undefined;
    vi.useRealTimers();
  });

  /** A queue already running `key`, its handler held until released: what is added next waits. */
  async function running(
    key: string,
    options: Partial<WorkQueueOptions> = {},
  ): Promise<{ h: Controlled; q: WorkQueue }> {
    const h = controlled();
    const q = new WorkQueue(h.handler, { ...OPTIONS, ...options });
    queue = q;
    q.start();
    q.add(key);
    await settle();
    return { h, q };
  }

  describe('de-duplication', () => {
    it('keeps one entry for a key added many times while it waits', async () => {
      const h = scripted(() => ({ kind: 'done' }));
      queue = new WorkQueue(h.handler, OPTIONS);
      for (const key of ['a', 'b', 'a', 'a', 'b']) queue.add(key);
      expect(queue.length).toBe(2);
      queue.start();
      await queue.drained();
      expect([h.count('a'), h.count('b')]).toEqual([1, 1]);
    });

    it('runs a key once more when it was added while running, never twice at once', async () => {
      const { h, q } = await running('a');
      q.add('a');
      q.add('a');
      expect([q.inFlight, q.length]).toEqual([1, 0]);
      await h.release('a');
      expect(h.calls).toEqual(['a', 'a']);
      await h.release('a');
      expect(h.calls).toEqual(['a', 'a']);
      expect(h.stats().overlap).toBe(false);
    });

    it('lets a newer event win over a requested requeue', async () => {
      const { h, q } = await running('a');
      q.add('a');
      await h.release('a', { kind: 'requeueAfter', delayMs: 5000 });
      expect(h.calls).toEqual(['a', 'a']);
      await h.release('a');
      expect(q.delayed).toBe(0);
    });
  });

  describe('concurrency', () => {
    it('runs at most `concurrency` handlers, first come first served', async () => {
      const h = controlled();
      queue = new WorkQueue(h.handler, { ...OPTIONS, concurrency: 3 });
      for (const key of ['k1', 'k2', 'k3', 'k4', 'k5', 'k6']) queue.add(key);
      queue.start();
      await settle();
      expect([queue.inFlight, queue.length]).toEqual([3, 3]);
      expect(h.calls).toEqual(['k1', 'k2', 'k3']);
      await h.release('k2');
      expect(h.calls).toEqual(['k1', 'k2', 'k3', 'k4']);
      for (const key of ['k1', 'k3', 'k4', 'k5', 'k6']) await h.release(key);
      expect(h.calls).toEqual(['k1', 'k2', 'k3', 'k4', 'k5', 'k6']);
      expect(h.stats().maxRunning).toBe(3);
    });

    it('runs nothing before start', async () => {
      const h = scripted(() => ({ kind: 'done' }));
      queue = new WorkQueue(h.handler, OPTIONS);
      queue.add('a');
      await settle();
      expect(h.count('a')).toBe(0);
      queue.start();
      await queue.drained();
      expect(h.count('a')).toBe(1);
    });

    it('handles thousands of keys, each once, within the bound', async () => {
      const h = controlled();
      queue = new WorkQueue(h.handler, { ...OPTIONS, concurrency: 8 });
      const keys = Array.from({ length: 5000 }, (_, i) => `tenant-${i}`);
      for (const key of keys) queue.add(key);
      for (const key of keys) queue.add(key);
      queue.start();
      const drained = queue.drained();
      for (const key of keys) await h.release(key);
      await drained;
      expect(h.calls).toEqual(keys);
      expect(h.stats().maxRunning).toBe(8);
    });
  });

  describe('retries', () => {
    it('backs off exponentially up to the cap', async () => {
      const h = scripted(() => ({ kind: 'retry' }));
      queue = new WorkQueue(h.handler, OPTIONS);
      queue.start();
      queue.add('a');
      await vi.advanceTimersByTimeAsync(10_000);
      expect(h.gaps('a').slice(0, 8)).toEqual([100, 200, 400, 800, 1000, 1000, 1000, 1000]);
    });

    it('keeps each delay within ±jitter', async () => {
      const low = scripted(() => ({ kind: 'retry' }));
      const high = scripted(() => ({ kind: 'retry' }));
      const jittered = { ...OPTIONS, jitter: 0.2 };
      queue = new WorkQueue(low.handler, { ...jittered, random: () => 0 });
      const other = new WorkQueue(high.handler, { ...jittered, random: () => 0.999999 });
      queue.start();
      other.start();
      queue.add('a');
      other.add('a');
      await vi.advanceTimersByTimeAsync(6000);
      await other.shutdown();
      expect(low.gaps('a').slice(0, 6)).toEqual([80, 160, 320, 640, 800, 800]);
      expect(high.gaps('a').slice(0, 6)).toEqual([120, 240, 480, 960, 1200, 1200]);
    });

    it('treats a thrown error as a retry and reports it', async () => {
      const boom = new Error('boom');
      const seen: unknown[] = [];
      const outcomes: Outcome[] = [];
      const hooks: QueueHooks = {
        onHandlerError: (_key, error) => seen.push(error),
        onOutcome: (_key, outcome) => outcomes.push(outcome),
      };
      const h = scripted((_key, run) => {
        if (run === 1) throw boom;
        return { kind: 'done' };
      });
      queue = new WorkQueue(h.handler, OPTIONS, hooks);
      queue.start();
      queue.add('a');
      await vi.advanceTimersByTimeAsync(99);
      expect(h.count('a')).toBe(1);
      await vi.advanceTimersByTimeAsync(1);
      expect(h.count('a')).toBe(2);
      expect(seen).toEqual([boom]);
      expect(outcomes).toEqual([{ kind: 'retry', error: boom }, { kind: 'done' }]);
    });

    it('resets the failure count after a success', async () => {
      const h = scripted((_key, run) => (run === 4 ? { kind: 'done' } : { kind: 'retry' }));
      queue = new WorkQueue(h.handler, OPTIONS);
      queue.start();
      queue.add('a');
      await vi.advanceTimersByTimeAsync(1000);
      expect(h.count('a')).toBe(4);
      queue.add('a');
      await vi.advanceTimersByTimeAsync(1000);
      expect(h.gaps('a')).toEqual([100, 200, 400, 300, 100, 200, 400]);
    });

    it('does not retry a stopped key, but a new add runs it', async () => {
      const h = scripted(() => ({ kind: 'stop' }));
      queue = new WorkQueue(h.handler, OPTIONS);
      queue.start();
      queue.add('a');
      await vi.advanceTimersByTimeAsync(60_000);
      expect([h.count('a'), queue.delayed]).toEqual([1, 0]);
      queue.add('a');
      await settle();
      expect(h.count('a')).toBe(2);
    });

    it('retries after backoff even when events arrived during the failing run', async () => {
      const { h, q } = await running('a');
      q.add('a');
      await h.release('a', { kind: 'retry' });
      expect([h.calls.length, q.delayed]).toEqual([1, 1]);
      await vi.advanceTimersByTimeAsync(100);
      expect(h.calls.length).toBe(2);
      await h.release('a');
    });

    it('does not let a failing key delay another', async () => {
      const h = scripted((key) => (key === 'bad' ? { kind: 'retry' } : { kind: 'done' }));
      queue = new WorkQueue(h.handler, {
        ...OPTIONS,
        concurrency: 1,
        baseDelayMs: 10_000,
        maxDelayMs: 10_000,
      });
      queue.start();
      queue.add('bad');
      await settle();
      queue.add('good');
      await settle();
      expect([h.count('bad'), h.count('good')]).toEqual([1, 1]);
      expect([queue.length, queue.inFlight, queue.delayed]).toEqual([0, 0, 1]);
    });
  });

  describe('backoff and new events', () => {
    it('ignores add and addAfter while a key backs off', async () => {
      const h = scripted((_key, run) => (run === 1 ? { kind: 'retry' } : { kind: 'done' }));
      queue = new WorkQueue(h.handler, { ...OPTIONS, baseDelayMs: 1000 });
      queue.start();
      queue.add('a');
      await settle();
      queue.add('a');
      queue.addAfter('a', 10);
      await vi.advanceTimersByTimeAsync(999);
      expect(h.count('a')).toBe(1);
      await vi.advanceTimersByTimeAsync(1);
      expect(h.count('a')).toBe(2);
    });

    it('forget clears the backoff so that add runs the key at once, from the base delay', async () => {
      const h = scripted(() => ({ kind: 'retry' }));
      queue = new WorkQueue(h.handler, OPTIONS);
      queue.start();
      queue.add('a');
      await vi.advanceTimersByTimeAsync(300);
      expect(h.count('a')).toBe(3);
      queue.forget('a');
      expect(queue.delayed).toBe(0);
      queue.add('a');
      await settle();
      expect(h.count('a')).toBe(4);
      await vi.advanceTimersByTimeAsync(100);
      expect(h.count('a')).toBe(5);
    });
  });

  describe('retryFailing', () => {
    it('runs at once only the keys backing off, from the base delay, and leaves the others alone', async () => {
      const h = scripted((key, run) => (key === 'failing' && run < 3 ? { kind: 'retry' } : { kind: 'done' }));
      queue = new WorkQueue(h.handler, { ...OPTIONS, baseDelayMs: 1000, maxDelayMs: 60_000 });
      queue.start();
      queue.add('failing');
      queue.add('fine');
      await settle();
      queue.addAfter('later', 5000);
      expect([h.count('failing'), h.count('fine')]).toEqual([1, 1]);
      expect(queue.retryFailing()).toEqual(['failing']);
      await settle();
      expect([h.count('failing'), h.count('fine'), h.count('later')]).toEqual([2, 1, 0]);
      // Its backoff started over: the next retry is the base delay away, not twice it.
      await vi.advanceTimersByTimeAsync(1000);
      expect(h.count('failing')).toBe(3);
      expect(queue.retryFailing()).toEqual([]);
      await vi.advanceTimersByTimeAsync(4000);
      expect(h.count('later')).toBe(1);
    });
  });

  describe('delays', () => {
    it('requeues after the requested delay', async () => {
      const h = scripted((_key, run) =>
        run === 1 ? { kind: 'requeueAfter', delayMs: 5000 } : { kind: 'done' },
      );
      queue = new WorkQueue(h.handler, OPTIONS);
      queue.start();
      queue.add('a');
      await vi.advanceTimersByTimeAsync(60_000);
      expect(h.gaps('a')).toEqual([5000]);
    });

    it('keeps the sooner of two delays, and runs once', async () => {
      const h = scripted(() => ({ kind: 'done' }));
      queue = new WorkQueue(h.handler, OPTIONS);
      queue.start();
      queue.addAfter('early-second', 500);
      queue.addAfter('early-second', 100);
      queue.addAfter('early-first', 100);
      queue.addAfter('early-first', 500);
      await vi.advanceTimersByTimeAsync(99);
      expect(h.count('early-second') + h.count('early-first')).toBe(0);
      await vi.advanceTimersByTimeAsync(1);
      await vi.advanceTimersByTimeAsync(1000);
      expect([h.count('early-second'), h.count('early-first')]).toEqual([1, 1]);
    });

    it('runs a delayed key at once when an event adds it', async () => {
      const h = scripted(() => ({ kind: 'done' }));
      queue = new WorkQueue(h.handler, OPTIONS);
      queue.start();
      queue.addAfter('a', 5000);
      queue.add('a');
      await settle();
      expect([h.count('a'), queue.delayed]).toEqual([1, 0]);
      await vi.advanceTimersByTimeAsync(10_000);
      expect(h.count('a')).toBe(1);
    });
  });

  describe('lanes', () => {
    /** Releases each key as it runs and expects them to have run in exactly that order. */
    async function runsInOrder(h: Controlled, keys: string[]): Promise<void> {
      for (const key of keys) await h.release(key);
      expect(h.calls).toEqual(keys);
    }

    it('runs every event key before any background key (fewer than the fairness bound), each lane in arrival order', async () => {
      const h = controlled();
      queue = new WorkQueue(h.handler, { ...OPTIONS, concurrency: 1 });
      for (const key of ['r1', 'r2', 'r3']) queue.add(key, 'background');
      queue.start();
      await settle();
      queue.add('e1');
      queue.add('e2');
      await runsInOrder(h, ['r1', 'e1', 'e2', 'r2', 'r3']);
    });

    it('moves a waiting background key up when an event asks for it, never down, and runs it once', async () => {
      const { h, q } = await running('busy', { concurrency: 1 });
      q.add('r1', 'background');
      q.add('moved', 'background');
      q.add('moved');
      q.add('e1');
      q.add('e1', 'background');
      expect(q.length).toBe(3);
      await runsInOrder(h, ['busy', 'moved', 'e1', 'r1']);
    });

    it('reruns a key asked for while running in the more urgent of the lanes it was asked in', async () => {
      const { h, q } = await running('a', { concurrency: 1 });
      q.add('a');
      q.add('a', 'background');
      q.add('r1', 'background');
      await h.release('a');
      expect(h.calls).toEqual(['a', 'a']);
      await h.release('a');
      await h.release('r1');
      expect(h.calls).toEqual(['a', 'a', 'r1']);
    });

    it('puts a requested requeue in the event lane, ahead of a background pass', async () => {
      const h = scripted((key, run) =>
        key === 'w' && run === 1 ? { kind: 'requeueAfter', delayMs: 30 } : { kind: 'done' },
      );
      const order: string[] = [];
      queue = new WorkQueue(
        async (key) => {
          order.push(key);
          await new Promise((resolve) => setTimeout(resolve, 60));
          return h.handler(key);
        },
        { ...OPTIONS, concurrency: 1 },
      );
      queue.add('w');
      for (const key of ['r1', 'r2', 'r3']) queue.add(key, 'background');
      queue.start();
      await vi.advanceTimersByTimeAsync(1000);
      expect(order).toEqual(['w', 'r1', 'w', 'r2', 'r3']);
    });

    it('puts a key the urgent test names ahead of every other, whatever lane it was asked in', async () => {
      const waitedOn = new Set(['signup']);
      const { h, q } = await running('busy', { concurrency: 1, urgent: (key) => waitedOn.has(key) });
      for (const key of ['r1', 'r2']) q.add(key, 'background');
      q.add('e1');
      q.add('signup', 'background');
      await runsInOrder(h, ['busy', 'signup', 'e1', 'r1', 'r2']);
    });

    it('keeps a delayed key in the lane it was asked in: a rollout step stays behind later events', async () => {
      const { h, q } = await running('busy', { concurrency: 1 });
      q.addAfter('rollout1', 10, 'background');
      q.addAfter('rollout2', 10, 'background');
      await vi.advanceTimersByTimeAsync(20);
      q.add('e1');
      await runsInOrder(h, ['busy', 'e1', 'rollout1', 'rollout2']);
    });

    it('fires a pending delay in the more urgent of the lanes it was asked in', async () => {
      const { h, q } = await running('busy', { concurrency: 1 });
      q.addAfter('b1', 5, 'background');
      q.addAfter('k', 10, 'background');
      q.addAfter('k', 50, 'event');
      await vi.advanceTimersByTimeAsync(100);
      await runsInOrder(h, ['busy', 'k', 'b1']);
      expect(q.delayed).toBe(0);
    });

    it('asks the urgent test again when a backoff ends', async () => {
      let waiting = false;
      const h = scripted((key, run) => (key === 'a' && run === 1 ? { kind: 'retry' } : { kind: 'done' }));
      const order: string[] = [];
      queue = new WorkQueue(
        async (key) => {
          order.push(key);
          await new Promise((resolve) => setTimeout(resolve, 50));
          return h.handler(key);
        },
        { ...OPTIONS, concurrency: 1, urgent: (key) => key === 'a' && waiting },
      );
      queue.add('a');
      queue.start();
      await vi.advanceTimersByTimeAsync(60);
      for (const key of ['e1', 'e2', 'e3']) queue.add(key);
      waiting = true;
      await vi.advanceTimersByTimeAsync(1000);
      // a's retry, due at 150 ms, runs when e2 ends, ahead of e3 that has waited since 60 ms.
      expect(order).toEqual(['a', 'e1', 'e2', 'a', 'e3']);
    });

    it('keeps urgentSlots for urgent keys: other lanes fill the rest, and a signup starts at once', async () => {
      const h = controlled();
      const waitedOn = new Set(['s1', 's2']);
      queue = new WorkQueue(h.handler, {
        ...OPTIONS,
        concurrency: 3,
        urgentSlots: 1,
        urgent: (key) => waitedOn.has(key),
      });
      for (const key of ['r1', 'r2', 'r3']) queue.add(key, 'background');
      queue.add('e1');
      queue.start();
      await settle();
      expect([h.calls, queue.inFlight]).toEqual([['e1', 'r1'], 2]);
      queue.add('s1');
      await settle();
      expect([h.calls, queue.inFlight]).toEqual([['e1', 'r1', 's1'], 3]);
      // Every slot busy: the next signup waits for one, and gets the first that frees.
      queue.add('s2');
      await h.release('r1');
      expect(h.calls.at(-1)).toBe('s2');
      // Two urgent keys running: the last slot is free for the others again.
      await h.release('e1');
      expect(h.calls.at(-1)).toBe('r2');
      for (const key of ['s1', 's2', 'r2', 'r3']) await h.release(key);
    });

    it('lets urgent keys take every slot', async () => {
      const h = controlled();
      queue = new WorkQueue(h.handler, { ...OPTIONS, concurrency: 3, urgentSlots: 1, urgent: () => true });
      for (const key of ['s1', 's2', 's3', 's4']) queue.add(key);
      queue.start();
      await settle();
      expect([h.calls, queue.inFlight]).toEqual([['s1', 's2', 's3'], 3]);
      for (const key of ['s1', 's2', 's3', 's4']) await h.release(key);
    });

    it('is drained only when every lane is empty', async () => {
      const h = scripted(() => ({ kind: 'done' }));
      queue = new WorkQueue(h.handler, OPTIONS);
      for (const key of ['r1', 'r2', 'r3']) queue.add(key, 'background');
      queue.add('e1');
      queue.start();
      await queue.drained();
      expect([h.count('e1'), h.count('r1'), h.count('r2'), h.count('r3'), queue.length]).toEqual([
        1, 1, 1, 1, 0,
      ]);
    });
  });

  describe('the event loop', () => {
    /** Holds the thread as a reconcile that computes and finds nothing to change does. */
    const busy = (ms: number): void => {
      const end = performance.now() + ms;
      while (performance.now() < end);
    };

    it('runs timers and I/O during a long pass of handlers that settle at once, so an edit goes next', async () => {
      vi.useRealTimers();
      const calls: string[] = [];
      queue = new WorkQueue(
        (key) => {
          calls.push(key);
          busy(1);
          return Promise.resolve({ kind: 'done' });
        },
        { ...OPTIONS, concurrency: 4 },
      );
      queue.start();
      for (let i = 0; i < 300; i += 1) queue.add(`r${i}`, 'background');
      setTimeout(() => queue!.add('edit'), 0);
      await queue.drained();
      expect(calls).toHaveLength(301);
      // Without hand-backs the timer fires only after all 300 (≥ 300 ms of handlers in one task).
      expect(calls.indexOf('edit')).toBeLessThan(100);
    });
  });

  describe('shutdown', () => {
    it('waits for running handlers, drops waiting work and clears every timer', async () => {
      const h = controlled();
      queue = new WorkQueue(h.handler, { ...OPTIONS, concurrency: 1 });
      queue.start();
      queue.add('running');
      queue.add('waiting');
      queue.addAfter('later', 1000);
      await settle();
      let finished = false;
      const done = queue.shutdown().then(() => (finished = true));
      await settle();
      expect(finished).toBe(false);
      await h.release('running', { kind: 'retry' });
      await done;
      expect(vi.getTimerCount()).toBe(0);
      queue.add('new');
      await settle();
      expect(h.calls).toEqual(['running']);
      expect([queue.length, queue.inFlight, queue.delayed]).toEqual([0, 0, 0]);
    });

    it('resolves drained once shut down', async () => {
      const h = controlled();
      queue = new WorkQueue(h.handler, OPTIONS);
      queue.add('never-started');
      const drained = queue.drained();
      await queue.shutdown();
      await expect(drained).resolves.toBeUndefined();
    });
  });

  describe('hooks', () => {
    it('reports each outcome with its duration on the injected clock', async () => {
      let clock = 0;
      const durations: [string, string, number][] = [];
      const handler = (key: string): Promise<Outcome> => {
        clock += key.length * 10;
        return Promise.resolve({ kind: 'done' });
      };
      queue = new WorkQueue(
        handler,
        { ...OPTIONS, concurrency: 1, now: () => clock },
        { onOutcome: (key, outcome, ms) => durations.push([key, outcome.kind, ms]) },
      );
      queue.add('ab');
      queue.add('abcd');
      queue.start();
      await queue.drained();
      expect(durations).toEqual([
        ['ab', 'done', 20],
        ['abcd', 'done', 40],
      ]);
    });

    it('keeps working when a hook throws', async () => {
      const h = scripted(() => ({ kind: 'done' }));
      queue = new WorkQueue(h.handler, OPTIONS, {
        onOutcome: () => {
          throw new Error('broken hook');
        },
      });
      queue.start();
      queue.add('a');
      queue.add('b');
      await queue.drained();
      expect([h.count('a'), h.count('b'), queue.inFlight]).toEqual([1, 1, 0]);
    });
  });

  it('rejects nonsensical options', () => {
    const handler = (): Promise<Outcome> => Promise.resolve({ kind: 'done' });
    expect(() => new WorkQueue(handler, { ...OPTIONS, concurrency: 0 })).toThrow(/concurrency/);
    expect(() => new WorkQueue(handler, { ...OPTIONS, maxDelayMs: 10 })).toThrow(/baseDelayMs/);
    expect(() => new WorkQueue(handler, { ...OPTIONS, jitter: 2 })).toThrow(/jitter/);
    expect(() => new WorkQueue(handler, { ...OPTIONS, urgentSlots: 2 })).toThrow(/urgentSlots/);
    expect(() => new WorkQueue(handler, { ...OPTIONS, urgentSlots: -1 })).toThrow(/urgentSlots/);
  });
});
