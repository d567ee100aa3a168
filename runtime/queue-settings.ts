// The settings of a component's Tenant work queue, one definition for all three components: how a
// failing Tenant backs off (every component) and how often every Tenant is looked at again (the
// operator and the purger; sync's own resync is a scan of its table). So they describe, default and
// bound them the same way, and turn them into queue options the same way.
import type { SettingSpec } from './config.js';
import type { WorkQueueOptions } from './work-queue.js';

export interface RetryWords {
  /** What a retry is of: "a failing Tenant". */
  failing: string;
  retryBaseMs: number;
  /** The longest retry delay by default; 300 when absent. */
  retryMaxSeconds?: number;
}

export interface QueueWords extends RetryWords {
  /** What happens to every Tenant at a resync: "reconciled", "looked at". */
  resync: string;
}

type RetrySettingName = 'retryBaseMs' | 'retryMaxSeconds';

/** `prefix` names the component's variables: LANDLORD_<prefix>_RETRY_BASE_MS, … */
export function retrySettings(
  prefix: string,
  { failing, retryBaseMs, retryMaxSeconds = 300 }: RetryWords,
): Record<RetrySettingName, SettingSpec> {
  return {
    retryBaseMs: {
      env: `LANDLORD_${prefix}_RETRY_BASE_MS`,
      description: `First retry delay of ${failing}; doubles each failure.`,
      default: String(retryBaseMs),
      schema: { type: 'integer', minimum: 10 },
    },
    retryMaxSeconds: {
      env: `LANDLORD_${prefix}_RETRY_MAX_SECONDS`,
      description: `Longest retry delay of ${failing}.`,
      default: String(retryMaxSeconds),
      schema: { type: 'integer', minimum: 1 },
    },
  };
}

/** `prefix` names the component's variables: LANDLORD_<prefix>_RESYNC_SECONDS, … */
export function queueSettings(
  prefix: string,
  words: QueueWords,
): Record<'resyncSeconds' | RetrySettingName, SettingSpec> {
  return {
    resyncSeconds: {
      env: `LANDLORD_${prefix}_RESYNC_SECONDS`,
      description: `Every Tenant is ${words.resync} again this often, to repair what a lost event missed.`,
      default: '600',
      schema: { type: 'integer', minimum: 10 },
    },
    ...retrySettings(prefix, words),
  };
}

/** The queue settings as parsed (each component's settings carry these names). */
export interface QueueSettings {
  concurrency: number;
  retryBaseMs: number;
  retryMaxSeconds: number;
}

/** The work queue's options from a component's settings. */
export function queueOptions({ concurrency, retryBaseMs, retryMaxSeconds }: QueueSettings): WorkQueueOptions {
  return { concurrency, baseDelayMs: retryBaseMs, maxDelayMs: retryMaxSeconds * 1000 };
}
