// Polling until a condition holds, with a deadline and a description for the failure message.
import { setTimeout as sleep } from 'node:timers/promises';

export interface WaitOptions {
  timeoutMs: number;
  intervalMs?: number;
  /** Checked on every round; throwing stops the wait at once (e.g. a process died). */
  abortIf?: () => Promise<void> | void;
}

export async function waitUntil<T>(
  what: string,
  probe: () => Promise<T | undefined | false>,
  options: WaitOptions,
): Promise<T> {
  const deadline = Date.now() + options.timeoutMs;
  let lastError: unknown;
  for (;;) {
    await options.abortIf?.();
    try {
      const value = await probe();
      if (value !== undefined && value !== false) return value;
    } catch (err) {
      lastError = err;
    }
    if (Date.now() > deadline) {
      const cause = lastError instanceof Error ? `: ${lastError.message}` : '';
      throw new Error(`timed out after ${options.timeoutMs} ms waiting for ${what}${cause}`);
    }
    await sleep(options.intervalMs ?? 200);
  }
}

export interface CountOptions {
  /** How long the count may stay the same before the wait fails: a hang, not a slow machine. */
  stallMs: number;
  intervalMs?: number;
  abortIf?: () => Promise<void> | void;
}

/**
 * Polls `count` until it equals `target`. It fails only when the count has not moved for
 * `stallMs`, never on total time: a loaded machine (three e2e files, each with 500-1,000 tenants
 * and a control plane of its own, on two cores) slows progress down; only a hang stops it.
 */
export async function waitForCount(
  what: string,
  count: () => Promise<number>,
  target: number,
  options: CountOptions,
): Promise<void> {
  let last: number | undefined;
  let movedAt = Date.now();
  let lastError: unknown;
  for (;;) {
    await options.abortIf?.();
    try {
      const value = await count();
      if (value === target) return;
      if (value !== last) [last, movedAt] = [value, Date.now()];
    } catch (err) {
      lastError = err;
    }
    if (Date.now() - movedAt > options.stallMs) {
      const cause = lastError instanceof Error ? ` (last error: ${lastError.message})` : '';
      throw new Error(
        `waiting for ${what}: stuck at ${last ?? 'no answer'} of ${target} for ${options.stallMs} ms${cause}`,
      );
    }
    await sleep(options.intervalMs ?? 200);
  }
}
