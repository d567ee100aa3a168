// Handing V8's spare pages back to the system once a burst of work is over. After a full collection
// V8 keeps the pages it emptied in a pool for the next allocations, resident, and gives them back
// only in a collection that aims at memory (its own memory reducer, which waits for the allocation
// rate to look idle and did not fire in a component at rest: at rest each held ~11 MiB of pooled
// pages after start-up, and a restarted operator holding 10,000 Tenants ~22 MiB;
// docs/performance.md, "V8's page pool"). So each component checks itself every few seconds and,
// when its event loop has been quiet and its resident set has grown since the last return, runs one
// such collection. It costs a pause that grows with the heap (0.2-0.8 s at 10,000 Tenants, up to
// 1.9 s at 20,000), never while busy, at most once per GROWTH_BYTES of growth and MIN_INTERVAL_MS:
// at rest once, after start-up; in a steady state with resyncs, at most once per MIN_INTERVAL_MS.
// It needs `--expose-gc` (the manifests' NODE_OPTIONS), and without it does nothing.
import { performance, type EventLoopUtilization } from 'node:perf_hooks';
import type { Logger } from './logger.js';

/** How often the process looks at itself. */
export const CHECK_MS = 5_000;
/** Below this share of the last check's interval spent running, the process counts as quiet. */
export const QUIET_UTILIZATION = 0.1;
/** Growth of the resident set since the last return that is worth a collection. */
export const GROWTH_BYTES = 16 * 2 ** 20;
/**
 * Returns at most this often: the collection pauses the process, and a restarted operator's periodic
 * resyncs refilled the pool within a minute (at 10,000 Tenants every return found 30-45 MiB again).
 */
export const MIN_INTERVAL_MS = 300_000;

/** What the last check saw: the loop's share of busy time since the check before, and the resident set. */
export interface Reading {
  utilization: number;
  rssBytes: number;
  at: number;
}

/** The last return: the resident set it left, and when; undefined before the first. */
export interface LastReturn {
  rssBytes: number;
  at: number;
}

/** Whether to collect now: quiet, grown by GROWTH_BYTES since the last return, and not too soon after it. */
export function shouldReturn(reading: Reading, last: LastReturn | undefined): boolean {
  if (reading.utilization >= QUIET_UTILIZATION) return false;
  if (last === undefined) return true;
  return reading.rssBytes - last.rssBytes >= GROWTH_BYTES && reading.at - last.at >= MIN_INTERVAL_MS;
}

/** V8's collection that gives pooled pages back (the `gc` that `--expose-gc` installs, its last-resort flavour). */
type MemoryCollection = () => void;

function memoryCollection(): MemoryCollection | undefined {
  const gc = (globalThis as { gc?: (options?: object) => void }).gc;
  if (typeof gc !== 'function') return undefined;
  return () => gc({ type: 'major', execution: 'sync', flavor: 'last-resort' });
}

export class MemoryReturn {
  private timer: NodeJS.Timeout | undefined;
  private loop: EventLoopUtilization = performance.eventLoopUtilization();
  /** Undefined before the first, so the first quiet moment returns. */
  private last: LastReturn | undefined;

  constructor(
    private readonly logger: Logger,
    private readonly collect: MemoryCollection | undefined = memoryCollection(),
  ) {}

  start(): void {
    if (this.collect === undefined) {
      this.logger.info(
        "V8's spare pages stay resident after a burst: node runs without --expose-gc (the manifests' NODE_OPTIONS set it)",
      );
      return;
    }
    const collect = this.collect;
    this.timer = setInterval(() => this.check(collect), CHECK_MS).unref();
  }

  stop(): void {
    clearInterval(this.timer);
  }

  private check(collect: MemoryCollection): void {
    const loop = performance.eventLoopUtilization();
    const reading = {
      utilization: performance.eventLoopUtilization(loop, this.loop).utilization,
      rssBytes: process.memoryUsage.rss(),
      at: Date.now(),
    };
    this.loop = loop;
    if (!shouldReturn(reading, this.last)) return;
    const started = performance.now();
    collect();
    this.last = { rssBytes: process.memoryUsage.rss(), at: Date.now() };
    // The collection itself must not count as the next interval's work.
    this.loop = performance.eventLoopUtilization();
    this.logger.info('returned spare heap pages to the system', {
      rssBeforeMiB: Math.round(reading.rssBytes / 2 ** 20),
      rssAfterMiB: Math.round(this.last.rssBytes / 2 ** 20),
      pauseMs: Math.round(performance.now() - started),
    });
  }
}
