// The purger's own settings (environment variables); the common ones are in runtime/component.ts.
// AWS region and credentials come from the SDK's default chain (IRSA in a cluster), as for sync;
// the purger's role reaches the data tables only, never the tenant table.
import type { CommonSettings } from '../runtime/component.js';
import { ConfigError, type SettingSpec } from '../runtime/config.js';
import { queueSettings } from '../runtime/queue-settings.js';
import { parseDataTables, type DataTableSpec } from './data/data-table.js';
import { parseDuration } from './duration.js';

const DURATION = '^(0|((\\d+(\\.\\d*)?|\\.\\d+)(ns|us|µs|ms|s|m|h))+)$';

export const PURGER_SETTINGS = {
  tables: {
    env: 'LANDLORD_PURGER_TABLES',
    formerEnv: 'LANDLORD_PURGE_TABLES',
    description:
      'JSON array of the data tables holding tenant data: [{"table":"orders","partitionKey":"tenant","valueTemplate":"{name}"}]. Empty: purges delete nothing and say so.',
    default: '[]',
    schema: { type: 'string' },
  },
  tenantTables: {
    env: 'LANDLORD_PURGER_TENANT_TABLES',
    // Required: a purger that may purge no Tenant is a mistake in the manifest, said at start-up.
    description:
      "Comma-separated tenant tables (as sync's DYNAMODB_TABLE) whose Tenants the purger may purge: only Tenants sync made from one of them.",
    schema: { type: 'string', pattern: '^[a-zA-Z0-9_.-]{3,255}(,[a-zA-Z0-9_.-]{3,255})*$' },
  },
  delay: {
    env: 'LANDLORD_PURGER_DELAY',
    formerEnv: 'LANDLORD_PURGE_DELAY',
    description:
      'How long a Tenant stays in state purged, counted from when the purger first saw it so, before its data is deleted (Go duration: 24h, 90s, 0s).',
    default: '24h',
    schema: { type: 'string', pattern: DURATION },
  },
  rate: {
    env: 'LANDLORD_PURGER_RATE',
    formerEnv: 'LANDLORD_PURGE_RATE',
    description: 'Items deleted per second at most, across all purges. 0: no ceiling.',
    default: '0',
    schema: { type: 'integer', minimum: 0 },
  },
  budget: {
    env: 'LANDLORD_PURGER_BUDGET',
    description:
      'Purges that may start in any one hour; the others wait (Purged=False PurgeHeldBack) and start in later hours.',
    default: '10',
    schema: { type: 'integer', minimum: 1, maximum: 100_000 },
  },
  workers: {
    env: 'LANDLORD_PURGER_WORKERS',
    formerEnv: 'LANDLORD_PURGE_WORKERS',
    description: "Batch deletes in flight at once within one tenant's partition.",
    default: '8',
    schema: { type: 'integer', minimum: 1, maximum: 64 },
  },
  concurrency: {
    env: 'LANDLORD_PURGER_CONCURRENCY',
    description: 'Tenants purged at once; the others wait their turn.',
    default: '2',
    schema: { type: 'integer', minimum: 1, maximum: 64 },
  },
  endpoint: {
    env: 'DYNAMODB_ENDPOINT',
    description: 'DynamoDB endpoint URL, for a local server; unset: the AWS regional endpoint.',
    optional: true,
    schema: { type: 'string', pattern: '^https?://' },
  },
  ...queueSettings('PURGER', { resync: 'looked at', failing: 'a failing purge', retryBaseMs: 1000 }),
} as const satisfies Record<string, SettingSpec>;

export interface PurgerSettings extends CommonSettings {
  tables: string;
  tenantTables: string;
  delay: string;
  rate: number;
  budget: number;
  workers: number;
  concurrency: number;
  endpoint?: string;
  resyncSeconds: number;
  retryBaseMs: number;
  retryMaxSeconds: number;
}

/** What a purge decision needs of the settings: parsed once, at start-up. */
export interface PurgePolicy {
  delayMs: number;
  tables: readonly DataTableSpec[];
  /** The tenant tables whose Tenants (as sync marks them) may be purged: one at least. */
  tenantTables: readonly string[];
  /** Purges that may start in any one hour. */
  budgetPerHour: number;
}

/** Parses the delay and the table list; a mistake in either stops start-up with a ConfigError. */
export function purgePolicy(
  settings: Pick<PurgerSettings, 'delay' | 'tables' | 'tenantTables' | 'budget'>,
): PurgePolicy {
  const delayMs = parseDuration(settings.delay);
  if (delayMs === undefined)
    throw new ConfigError(
      `${PURGER_SETTINGS.delay.env}=${JSON.stringify(settings.delay)}: expected a duration`,
    );
  try {
    return {
      delayMs,
      tables: parseDataTables(settings.tables),
      tenantTables: settings.tenantTables.split(','),
      budgetPerHour: settings.budget,
    };
  } catch (err) {
    throw new ConfigError(`${PURGER_SETTINGS.tables.env}: ${(err as Error).message}`, { cause: err });
  }
}
