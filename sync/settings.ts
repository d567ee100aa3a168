// sync's own settings (environment variables); the common ones are in runtime/component.ts. AWS
// region and credentials are deliberately absent: they come from the SDK's default chain
// (AWS_REGION, AWS_ACCESS_KEY_ID…, IRSA web identity, shared config), as operators expect.
import type { CommonSettings } from '../runtime/component.js';
import { ConfigError, type SettingSpec } from '../runtime/config.js';
import { retrySettings } from '../runtime/queue-settings.js';
import { SINGLE_CLUSTER, type Placement } from './placement.js';

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
      'Share of all Tenants that may be taken down in one resync interval, together: rows gone from the table or saying deleted: true, rows set to archived or purged, rows moved to another cluster; the rest are held back.',
    default: '0.1',
    schema: { type: 'number', minimum: 0, maximum: 1 },
  },
  maxDeleteMinimum: {
    env: 'LANDLORD_SYNC_MAX_DELETE_MINIMUM',
    description:
      'Takedowns (deletions, archived, purged, moves) always allowed per resync interval whatever the share, so small tables can be managed.',
    default: '5',
    schema: { type: 'integer', minimum: 0 },
  },
  concurrency: {
    env: 'LANDLORD_SYNC_CONCURRENCY',
    description: 'Tenant writes in flight at once.',
    default: '16',
    schema: { type: 'integer', minimum: 1, maximum: 256 },
  },
  cluster: {
    env: 'LANDLORD_CLUSTER',
    description:
      "This cluster's name, when several clusters share the table: sync mirrors only rows whose cluster attribute names it (and rows without one if LANDLORD_CLUSTER_CLAIMS_UNASSIGNED). Unset: one cluster mirrors every row without a cluster attribute.",
    optional: true,
    // A label value: at most 63 characters, a DNS-1123 label or subdomain.
    schema: {
      type: 'string',
      maxLength: 63,
      pattern: '^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$',
    },
  },
  clusterClaimsUnassigned: {
    env: 'LANDLORD_CLUSTER_CLAIMS_UNASSIGNED',
    description:
      "With LANDLORD_CLUSTER set: rows without a cluster attribute are this cluster's too. Give it to one cluster only.",
    default: 'false',
    schema: { type: 'boolean' },
  },
  changes: {
    env: 'LANDLORD_SYNC_CHANGES',
    description:
      "How sync learns of changes between full scans: stream (the table's stream; at most two syncs per table may read it) or index (poll the cluster index every LANDLORD_SYNC_POLL_SECONDS; needs LANDLORD_CLUSTER and no unassigned rows).",
    default: 'stream',
    schema: { type: 'string', enum: ['stream', 'index'] },
  },
  clusterIndex: {
    env: 'LANDLORD_SYNC_CLUSTER_INDEX',
    description:
      'The global secondary index on cluster (projecting every row attribute) that index mode queries.',
    default: 'cluster-index',
    schema: { type: 'string', pattern: '^[a-zA-Z0-9_.-]{3,255}$' },
  },
  historyLimit: {
    env: 'LANDLORD_SYNC_HISTORY_LIMIT',
    description:
      "Revisions kept per tenant (ControllerRevisions in sync's namespace, for landlord history and rollback); 0 keeps none.",
    default: '10',
    schema: { type: 'integer', minimum: 0, maximum: 100 },
  },
  rowStatus: {
    env: 'LANDLORD_SYNC_ROW_STATUS',
    description:
      "Tell each row its tenant's readiness in the row's landlord attribute (phase, ready, url, message, observedHash, updatedAt), for the service that wrote it; needs dynamodb:UpdateItem on the table (docs/rows.md).",
    default: 'false',
    schema: { type: 'boolean' },
  },
  ...retrySettings('SYNC', { failing: 'a failing Tenant write', retryBaseMs: 500, retryMaxSeconds: 60 }),
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
  cluster?: string;
  clusterClaimsUnassigned: boolean;
  changes: 'stream' | 'index';
  clusterIndex: string;
  historyLimit: number;
  rowStatus: boolean;
  retryBaseMs: number;
  retryMaxSeconds: number;
}

/** Which rows this sync mirrors: without a cluster, every row without one, as before clusters existed. */
export function placementOf(settings: Pick<SyncSettings, 'cluster' | 'clusterClaimsUnassigned'>): Placement {
  if (settings.cluster === undefined) return SINGLE_CLUSTER;
  return { cluster: settings.cluster, claimsUnassigned: settings.clusterClaimsUnassigned };
}

/**
 * The index holds only rows with a cluster attribute (a sparse index), so a sync reading it can
 * neither see unassigned rows nor a cluster it was not told. Refused at start-up, not found later.
 */
export function checkChanges(
  settings: Pick<SyncSettings, 'cluster' | 'clusterClaimsUnassigned' | 'changes'>,
): void {
  if (settings.changes !== 'index') return;
  if (settings.cluster === undefined)
    throw new ConfigError(
      'LANDLORD_SYNC_CHANGES=index needs LANDLORD_CLUSTER: the index is queried by cluster',
    );
  if (settings.clusterClaimsUnassigned)
    throw new ConfigError(
      'LANDLORD_SYNC_CHANGES=index cannot claim rows without a cluster (LANDLORD_CLUSTER_CLAIMS_UNASSIGNED=true): they are not in the cluster index; read the stream on that cluster',
    );
}
