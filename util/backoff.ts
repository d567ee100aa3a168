// Retry timing shared by the work queue and by anything else that retries a remote call: one
// formula, so every retry in landlord grows, caps and spreads out the same way.

/** Past this exponent the product overflows or stops mattering; clamping keeps 0 * 2^n finite. */
const MAX_EXPONENT = 52;

/**
 * The delay before retry number `attempt` (0 for the first retry): `min(maxMs, baseMs * 2^attempt)`,
 * then spread by ±`jitter` (a fraction, 0..1) so that keys which failed together do not retry
 * together. The spread applies after the cap, so the result lies within `maxMs * (1 ± jitter)`.
 */
// Five parameters, past the usual four: the fifth only lets tests pin the random source, and the
// positional form is what every caller shares.
// eslint-disable-next-line max-params
export function backoffDelay(
  attempt: number,
  baseMs: number,
  maxMs: number,
  jitter: number,
  random: () => number = Math.random,
): number {
  checkBackoff(attempt, baseMs, maxMs, jitter);
  const capped = Math.min(maxMs, baseMs * 2 ** Math.min(attempt, MAX_EXPONENT));
  const spread = capped * jitter * (2 * random() - 1);
  return Math.max(0, Math.round(capped + spread));
}

function checkBackoff(attempt: number, baseMs: number, maxMs: number, jitter: number): void {
  if (!Number.isInteger(attempt) || attempt < 0) {
    throw new RangeError(`backoff attempt must be an integer ≥ 0, got ${attempt}`);
  }
  if (!Number.isFinite(baseMs) || baseMs < 0 || !(maxMs >= baseMs)) {
    throw new RangeError(`backoff needs 0 ≤ base ≤ max, got base ${baseMs} ms and max ${maxMs} ms`);
  }
  if (!(jitter >= 0 && jitter <= 1)) {
    throw new RangeError(`backoff jitter must be between 0 and 1, got ${jitter}`);
  }
}

/**
 * Resolves after `ms`, or rejects with the signal's reason as soon as it aborts, so a waiting loop
 * stops at shutdown instead of finishing its nap. Uses the global timer so fake timers control it.
 */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    if (signal?.aborted === true) {
      reject(signal.reason as Error);
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal?.reason as Error);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * "Full jitter": a delay drawn uniformly from [0, min(maxMs, baseMs * 2^attempt)]. For many writers
 * pushed back by the same throttled table it spreads the retries best and ends soonest (AWS
 * Architecture Blog, "Exponential Backoff And Jitter").
 */
export function fullJitterDelay(
  attempt: number,
  baseMs: number,
  maxMs: number,
  random: () => number = Math.random,
): number {
  checkBackoff(attempt, baseMs, maxMs, 1);
  return Math.round(random() * Math.min(maxMs, baseMs * 2 ** Math.min(attempt, MAX_EXPONENT)));
}
