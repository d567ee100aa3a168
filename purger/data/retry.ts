// One DynamoDB request, sent again after a capped, fully jittered backoff while DynamoDB throttles
// or the network fails, and classified when it gives up: permanent refusals at once, transient
// trouble after the attempts run out. Aborting stops both the request and the wait.
import { fullJitterDelay, sleep } from '../../util/backoff.js';
import {
  PermanentPurgeError,
  PurgeAbortedError,
  RetryablePurgeError,
  classifyError,
  describeError,
} from './errors.js';

export interface RetryPolicy {
  /** First backoff ceiling (ms); doubles per attempt that made no progress. */
  baseMs: number;
  /** The ceiling's cap (ms). */
  maxMs: number;
  /** Attempts in a row without progress before the purge gives up for now (RetryablePurgeError). */
  maxAttempts: number;
}

export const DEFAULT_RETRY: RetryPolicy = { baseMs: 50, maxMs: 5_000, maxAttempts: 10 };

export interface RetryContext {
  policy: RetryPolicy;
  signal: AbortSignal;
  /** Called for every pushback: a throttled answer, or a retry the SDK made on its own. */
  onThrottle(count: number): void;
  random?: () => number;
}

interface WithAttempts {
  $metadata?: { attempts?: number };
}

/** The retries the SDK made inside one call (its own modest retry strategy), counted as pushback. */
function sdkRetries(value: unknown): number {
  return Math.max(0, ((value as WithAttempts | undefined)?.$metadata?.attempts ?? 1) - 1);
}

/** Sends `request` until it succeeds; throws one of the typed purge errors when it will not. */
export async function withRetries<T>(what: string, request: () => Promise<T>, ctx: RetryContext): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    if (ctx.signal.aborted) throw new PurgeAbortedError();
    try {
      const result = await request();
      const retries = sdkRetries(result);
      if (retries > 0) ctx.onThrottle(retries);
      return result;
    } catch (err) {
      giveUpOn(what, err, attempt, ctx);
    }
    await pause(attempt, ctx);
  }
}

/** Throws unless the failed request should be sent again; counts throttles on the way. */
function giveUpOn(what: string, err: unknown, attempt: number, ctx: RetryContext): void {
  if (ctx.signal.aborted) throw new PurgeAbortedError();
  const kind = classifyError(err);
  if (kind === 'permanent') throw new PermanentPurgeError(`${what}: ${describeError(err)}`);
  ctx.onThrottle(kind === 'throttled' ? 1 + sdkRetries(err) : sdkRetries(err));
  if (attempt + 1 >= ctx.policy.maxAttempts) {
    throw new RetryablePurgeError(
      `${what}: still failing after ${attempt + 1} attempts: ${describeError(err)}`,
    );
  }
}

/** The backoff before attempt `attempt + 1`; aborting ends it with PurgeAbortedError. */
export async function pause(attempt: number, ctx: RetryContext): Promise<void> {
  const { baseMs, maxMs } = ctx.policy;
  try {
    await sleep(fullJitterDelay(attempt, baseMs, maxMs, ctx.random), ctx.signal);
  } catch {
    throw new PurgeAbortedError();
  }
}
