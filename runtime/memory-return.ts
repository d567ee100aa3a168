// Handing V8's spare pages back to the system. After a full collection V8 keeps the pages it emptied
// in a pool for the next allocations, resident, and gives them back only in a collection that aims
// at memory (its own memory reducer, which waits for the allocation rate to look idle and did not
// fire in a component at rest: at rest each held ~11 MiB of pooled pages after start-up, and a
// restarted operator holding 10,000 Tenants ~22 MiB; docs/performance-notes/memory.md, "V8's page pool"). So each
// component checks itself every few seconds and runs one such collection:
// - when its event loop has been quiet and its resident set has grown since the last return (a
//   burst of work is over), at most once per MIN_INTERVAL_MS: at rest once, after start-up;
// - when its resident set nears the container's memory request (LANDLORD_MEMORY_REQUEST, from the
//   downward API), busy or not, at most once per PRESSURE_INTERVAL_MS: above its request a pod is
//   among the first the kubelet evicts when its node runs short, and during a cold start of 20,000
//   Tenants the operator passed its 256Mi request with 46-71 MiB of it pooled pages (peak 271.8
//   MiB; 237.4 with these returns).
// Either costs a pause that grows with the heap (0.2-0.8 s at 10,000 Tenants, up to 2.8 s at
// 20,000 on two busy cores), and needs GROWTH_BYTES of growth since the last return, so a process
// whose live heap alone is above its request does not collect over and over. It needs
// `--expose-gc` (the manifests' NODE_OPTIONS), and without it does nothing.
import { performance, type EventLoopUtilization } from 'node:perf_hooks';
import type { Counter } from 'prom-client';
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
/** Near the memory request means this share of it. */
export const PRESSURE_SHARE = 0.9;
/**
 * Returns under pressure at most this often, busy or not. During a cold start of 20,000 Tenants the
 * operator came back to 90 % of its request 1-6 minutes after each return (seven in 29 minutes,
 * pauses of 1.3-2.8 s), so this keeps the pauses under a tenth of the time even if it came back
 * sooner.
 */
export const PRESSURE_INTERVAL_MS = 30_000;

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

export const RETURN_REASONS = ['quiet', 'pressure'] as const;
export type ReturnReason = (typeof RETURN_REASONS)[number];

/**
 * Why to collect now, or undefined: quiet and grown by GROWTH_BYTES since the last return, not too
 * soon after it; or near `requestBytes` (the memory request, when known) and grown the same.
 */
export function shouldReturn(
  reading: Reading,
  last: LastReturn | undefined,
  requestBytes?: number,
): ReturnReason | undefined {
  const grown = last === undefined || reading.rssBytes - last.rssBytes >= GROWTH_BYTES;
  const since = last === undefined ? Infinity : reading.at - last.at;
  if (reading.utilization < QUIET_UTILIZATION && grown && since >= MIN_INTERVAL_MS) return 'quiet';
  const near = requestBytes !== undefined && reading.rssBytes >= PRESSURE_SHARE * requestBytes;
  if (near && grown && since >= PRESSURE_INTERVAL_MS) return 'pressure';
  return undefined;
}

/** V8's collection that gives pooled pages back (the `gc` that `--expose-gc` installs, its last-resort flavour). */
type MemoryCollection = () => void;

function memoryCollection(): MemoryCollection | undefined {
  const gc = (globalThis as { gc?: (options?: object) => void }).gc;
  if (typeof gc !== 'function') return undefined;
  return () => gc({ type: 'major', execution: 'sync', flavor: 'last-resort' });
}

export interface MemoryReturnOptions {
  logger: Logger;
  /** The container's memory request in bytes, when the manifest passes it (downward API). */
  requestBytes?: number;
  /** landlord_memory_returns_total, by reason. */
  returns?: Counter<'reason'>;
  /** The collection; the default is V8's, when `--expose-gc` installed it. */
  collect?: MemoryCollection;
  /** What the process looks like now; the default reads the event loop and the resident set. */
  read?: () => Reading;
}

export class MemoryReturn {
  private timer: NodeJS.Timeout | undefined;
  private loop: EventLoopUtilization = performance.eventLoopUtilization();
  /** Undefined before the first, so the first quiet moment returns. */
  private last: LastReturn | undefined;
  private readonly collect: MemoryCollection | undefined;

  constructor(private readonly options: MemoryReturnOptions) {
    this.collect = 'collect' in options ? options.collect : memoryCollection();
  }

  start(): void {
    if (this.collect === undefined) {
      this.options.logger.info(
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
    const reading = this.read();
    const reason = shouldReturn(reading, this.last, this.options.requestBytes);
    if (reason === undefined) return;
    const started = performance.now();
    collect();
    const after = this.read();
    this.last = { rssBytes: after.rssBytes, at: after.at };
    this.options.returns?.inc({ reason });
    this.options.logger.info('returned spare heap pages to the system', {
      reason,
      rssBeforeMiB: Math.round(reading.rssBytes / 2 ** 20),
      rssAfterMiB: Math.round(this.last.rssBytes / 2 ** 20),
      pauseMs: Math.round(performance.now() - started),
    });
  }

  /** The loop's busy share since the last reading, so the collection never counts as the next interval's work. */
  private read(): Reading {
    if (this.options.read !== undefined) return this.options.read();
    const loop = performance.eventLoopUtilization();
    const utilization = performance.eventLoopUtilization(loop, this.loop).utilization;
    this.loop = loop;
    return { utilization, rssBytes: process.memoryUsage.rss(), at: Date.now() };
  }
}
