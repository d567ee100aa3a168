// The settings of a component's Tenant work queue that every Tenant-watching component shares:
// how often every Tenant is looked at again, and how a failing one backs off. One definition, so the
// operator and the purger describe, default and bound them the same way.
import type { SettingSpec } from './config.js';

export interface QueueWords {
  /** What happens to every Tenant at a resync: "reconciled", "looked at". */
  resync: string;
  /** What a retry is of: "a failing Tenant". */
  failing: string;
  retryBaseMs: number;
}

/** `prefix` names the component's variables: LANDLORD_<prefix>_RESYNC_SECONDS, … */
export function queueSettings(
  prefix: string,
  { resync, failing, retryBaseMs }: QueueWords,
): Record<'resyncSeconds' | 'retryBaseMs' | 'retryMaxSeconds', SettingSpec> {
  return {
    resyncSeconds: {
      env: `LANDLORD_${prefix}_RESYNC_SECONDS`,
      description: `Every Tenant is ${resync} again this often, to repair what a lost event missed.`,
      default: '600',
      schema: { type: 'integer', minimum: 10 },
    },
    retryBaseMs: {
      env: `LANDLORD_${prefix}_RETRY_BASE_MS`,
      description: `First retry delay of ${failing}; doubles each failure.`,
      default: String(retryBaseMs),
      schema: { type: 'integer', minimum: 10 },
    },
    retryMaxSeconds: {
      env: `LANDLORD_${prefix}_RETRY_MAX_SECONDS`,
      description: `Longest retry delay of ${failing}.`,
      default: '300',
      schema: { type: 'integer', minimum: 1 },
    },
  };
}
