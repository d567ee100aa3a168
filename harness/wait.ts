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
