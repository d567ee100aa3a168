// sync's own settings (environment variables); the common ones are in runtime/component.ts. AWS
// region and credentials are deliberately absent: they come from the SDK's default chain
// (AWS_REGION, AWS_ACCESS_KEY_ID…, IRSA web identity, shared config), as operators expect.
import type { CommonSettings } from '../runtime/component.js';
import type { SettingSpec } from '../runtime/config.js';

export const SYNC_SETTINGS = {
  table: {
    env: 'DYNAMODB_TABLE',
    description: 'The DynamoDB table whose rows are the tenants.',
    schema: { type: 'string', pattern: '^[a-zA-Z0-9_.-]{3,255}$' },
  },
  endpoint: {
    env: 'DYNAMODB_ENDPOINT',
    description: 'DynamoDB endpoint URL, for a local server; unset: the AWS regional endpoint.',
    optional: true,
    schema: { type: 'string', pattern: '^https?://' },
  },
  resyncSeconds: {
    env: 'LANDLORD_SYNC_RESYNC_SECONDS',
    description: 'A full scan of the table runs this often, repairing whatever a lost change missed.',
    default: '300',
    schema: { type: 'integer', minimum: 1, maximum: 86_400 },
  },
  pollSeconds: {
    env: 'LANDLORD_SYNC_POLL_SECONDS',
    description: 'Scan interval when the table has no stream (NEW_IMAGE or NEW_AND_OLD_IMAGES) to follow.',
    default: '10',
    schema: { type: 'integer', minimum: 1, maximum: 86_400 },
  },
  scanSegments: {
    env: 'LANDLORD_SYNC_SCAN_SEGMENTS',
    description: 'Parallel segments of each full scan.',
    default: '1',
    schema: { type: 'integer', minimum: 1, maximum: 64 },
  },
  maxDeleteFraction: {
    env: 'LANDLORD_SYNC_MAX_DELETE_FRACTION',
    description:
      'Share of all Tenants that rows gone from the table or saying deleted: true may delete in one resync interval, together; the rest are held back.',
    default: '0.1',
    schema: { type: 'number', minimum: 0, maximum: 1 },
  },
  maxDeleteMinimum: {
    env: 'LANDLORD_SYNC_MAX_DELETE_MINIMUM',
    description:
      'Deletions always allowed per resync interval whatever the share, so small tables can be managed.',
    default: '5',
    schema: { type: 'integer', minimum: 0 },
  },
  concurrency: {
    env: 'LANDLORD_SYNC_CONCURRENCY',
    description: 'Tenant writes in flight at once.',
    default: '16',
    schema: { type: 'integer', minimum: 1, maximum: 256 },
  },
} as const satisfies Record<string, SettingSpec>;

export interface SyncSettings extends CommonSettings {
  table: string;
  endpoint?: string;
  resyncSeconds: number;
  pollSeconds: number;
  scanSegments: number;
  maxDeleteFraction: number;
  maxDeleteMinimum: number;
  concurrency: number;
}
