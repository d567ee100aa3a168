// sync in end-to-end tests: start it for a table, write rows the way users do, and read back the
// Tenants, Events and metrics it produced.
import { BatchWriteItemCommand, type AttributeValue, type WriteRequest } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, DynamoDBDocumentClient, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { CoreV1Event } from '@kubernetes/client-node';
import { CONDITION, GROUP, PLURAL, VERSION, type Condition, type Tenant } from '../../api/tenant.js';
import { managedSelector, tableIdentity } from '../../sync/identity.js';
import { createTenantTable } from '../../harness/tenant-table.js';
import { waitUntil } from '../../harness/wait.js';
import { dynamoClient } from './dynamo.js';
import { clients } from './env.js';
import { deleteTenantsLabelled } from './tenants.js';

import { componentEnv, startLandlord, writeRequests, type LandlordProcess } from './landlord.js';

const dynamo = dynamoClient();
const documents = DynamoDBDocumentClient.from(dynamo);
const { core, custom } = clients();
const tenants = { group: GROUP, version: VERSION, plural: PLURAL };

/** Starts sync for `table`; Events of cluster-scoped Tenants land in `default` either way. */
export function startSync(table: string, env: Record<string, string> = {}): LandlordProcess {
  return startLandlord('sync', componentEnv({ DYNAMODB_TABLE: table, POD_NAMESPACE: 'default', ...env }));
}

/** sync for `table` and an operator, as a file that needs both has them. */
export interface SyncAndOperator {
  sync: LandlordProcess;
  operator: LandlordProcess;
}

/** Starts sync for `table` and an operator together, and waits until both are ready. */
export async function startSyncAndOperator(
  table: string,
  syncEnv: Record<string, string> = {},
  operatorEnv: Record<string, string> = {},
): Promise<SyncAndOperator> {
  const sync = startSync(table, syncEnv);
  const operator = startLandlord('operator', componentEnv(operatorEnv));
  await Promise.all([sync.ready(), operator.ready()]);
  return { sync, operator };
}

export function createTable(table: string, stream = true): Promise<void> {
  return createTenantTable(dynamo, table, stream);
}

/**
 * The row from issue 4, verbatim except that `tenant-1` becomes `name` everywhere, so that test
 * files sharing a cluster never collide.
 */
export function verbatimRow(name: string): Record<string, unknown> {
  const text = String.raw`{"name":"tenant-1","spec":"{\"apiVersion\":\"apps/v1\",\"kind\":\"Deployment\",\"metadata\":{\"name\":\"tenant-1-app\",\"namespace\":\"default\"},\"spec\":{\"replicas\":1,\"selector\":{\"matchLabels\":{\"app\":\"tenant-1\"}},\"template\":{\"metadata\":{\"labels\":{\"app\":\"tenant-1\"}},\"spec\":{\"containers\":[{\"name\":\"app\",\"image\":\"nginx:latest\"}]}}}}","customizations":"[{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"tenant-1-config\",\"namespace\":\"default\"},\"data\":{\"config.json\":\"{\\\"key\\\": \\\"value\\\"}\"}}]","deleted":false}`;
  return JSON.parse(text.replaceAll('tenant-1', name)) as Record<string, unknown>;
}

/** A valid row in the seed format (spec as JSON text), with the image to tell versions apart. */
export function row(name: string, image = 'nginx:1.27'): Record<string, unknown> {
  const deployment = {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: `${name}-app`, namespace: 'default' },
    spec: {
      replicas: 1,
      selector: { matchLabels: { app: name } },
      template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'app', image }] } },
    },
  };
  return { name, spec: JSON.stringify(deployment), customizations: '[]', deleted: false };
}

export async function putRow(table: string, item: Record<string, unknown>): Promise<void> {
  await documents.send(new PutCommand({ TableName: table, Item: item }));
}

/** Sets string attributes of an existing row with UpdateItem. */
export async function updateRow(table: string, name: string, values: Record<string, unknown>): Promise<void> {
  const keys = Object.keys(values);
  await documents.send(
    new UpdateCommand({
      TableName: table,
      Key: { name },
      UpdateExpression: `SET ${keys.map((_, i) => `#a${i} = :v${i}`).join(', ')}`,
      ExpressionAttributeNames: Object.fromEntries(keys.map((key, i) => [`#a${i}`, key])),
      ExpressionAttributeValues: Object.fromEntries(keys.map((key, i) => [`:v${i}`, values[key]])),
    }),
  );
}

export async function deleteRow(table: string, name: string): Promise<void> {
  await documents.send(new DeleteCommand({ TableName: table, Key: { name } }));
}

/** BatchWriteItem, 25 requests a call, resending what DynamoDB leaves unprocessed. */
export async function batchWrite(table: string, requests: WriteRequest[]): Promise<void> {
  for (let start = 0; start < requests.length; start += 25) {
    let pending: WriteRequest[] = requests.slice(start, start + 25);
    while (pending.length > 0) {
      const out = await dynamo.send(new BatchWriteItemCommand({ RequestItems: { [table]: pending } }));
      pending = out.UnprocessedItems?.[table] ?? [];
    }
  }
}

/** The low-level form of a seed-format row, for BatchWriteItem. */
export function lowLevel(item: Record<string, unknown>): Record<string, AttributeValue> {
  return Object.fromEntries(
    Object.entries(item).map(([key, value]) => [
      key,
      typeof value === 'boolean' ? { BOOL: value } : { S: String(value) },
    ]),
  );
}

/** The Tenants sync manages for this table. */
export async function syncedTenants(table: string): Promise<Tenant[]> {
  const list = (await custom.listClusterCustomObject({
    ...tenants,
    labelSelector: managedSelector(tableIdentity(table)),
  })) as { items: Tenant[] };
  return list.items;
}

export async function readTenant(name: string): Promise<Tenant | undefined> {
  try {
    return (await custom.getClusterCustomObject({ ...tenants, name })) as Tenant;
  } catch (err) {
    if ((err as { code?: number }).code === 404) return undefined;
    throw err;
  }
}

/** Deletes every Tenant sync made for this table, so later test files on this control plane start clean. */
export function deleteSyncedTenants(table: string): Promise<void> {
  return deleteTenantsLabelled(custom, managedSelector(tableIdentity(table)));
}

export async function eventsFor(name: string, reason?: string): Promise<CoreV1Event[]> {
  const selector = [`involvedObject.name=${name}`, ...(reason === undefined ? [] : [`reason=${reason}`])];
  const list = await core.listNamespacedEvent({ namespace: 'default', fieldSelector: selector.join(',') });
  return list.items;
}

/**
 * The Events of this reason on the Tenant, once at least one has been written. Components write
 * Events in the background, after the log line and the condition: a test reads them by waiting.
 */
export function eventsWritten(name: string, reason: string, timeoutMs = 30_000): Promise<CoreV1Event[]> {
  return waitUntil(
    `a ${reason} Event on ${name}`,
    async () => {
      const found = await eventsFor(name, reason);
      return found.length > 0 ? found : undefined;
    },
    { timeoutMs },
  );
}

/** Writes sync made to Tenants (spec or status), from its own request metrics. */
export function tenantWrites(sync: LandlordProcess): Promise<number> {
  return writeRequests(sync, ['tenants', 'tenants/status']);
}

export function syncedCondition(tenant: Tenant | undefined): Condition | undefined {
  return tenant?.status?.conditions?.find((c) => c.type === CONDITION.synced);
}

/** Resolves after sync has completed `count` more full scans than it had when called. */
export async function moreScans(sync: LandlordProcess, count: number, timeoutMs = 60_000): Promise<void> {
  const scans = (): number => sync.logs.filter((line) => line.msg === 'scan complete').length;
  const target = scans() + count;
  await sync.waitForLog(() => scans() >= target, timeoutMs);
}

/**
 * The lines sync logged with `msg`, once there are at least `count`. A Tenant can be gone from a
 * list before sync has read the delete's response and logged it, so counting at once can miss some.
 */
export async function loggedAtLeast(
  sync: LandlordProcess,
  msg: string,
  count: number,
): Promise<LandlordProcess['logs']> {
  const lines = () => sync.logs.filter((line) => line.msg === msg);
  await sync.waitForLog(() => lines().length >= count, 30_000);
  return lines();
}
