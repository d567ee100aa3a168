// What the deploy tests (e2e/deploy-*.test.ts, e2e/helm.test.ts) share: the namespace landlord is
// installed in, reading the repository's own files (the Dockerfile's neighbours, config/, the IAM
// samples), and running a component as its ServiceAccount against a table made from the sample.
import {
  CreateTableCommand,
  waitUntilTableExists,
  type AttributeValue,
  type CreateTableCommandInput,
} from '@aws-sdk/client-dynamodb';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../../harness/paths.js';
import { dynamoClient } from './dynamo.js';
import { uniqueName } from './env.js';
import { componentEnv, metricValue, type LandlordProcess } from './landlord.js';
import { configMapManifest, deploymentManifest } from './tenants.js';

/** The namespace config/ installs landlord into. */
export const SYSTEM = 'landlord-system';

/** A file of the repository, as text. */
export const repoFile = (path: string): string => readFileSync(join(repoRoot, path), 'utf8');

/** A path under config/. */
export const config = (path: string): string => join(repoRoot, 'config', path);

/** The seed row's shape (spec and customizations as JSON text), with children in `namespace`. */
export function seedRow(name: string, namespace: string): Record<string, AttributeValue> {
  const deployment = deploymentManifest(`${name}-app`, namespace, 'nginx:latest');
  const configMap = configMapManifest(`${name}-config`, namespace, { 'config.json': '{"key": "value"}' });
  return {
    name: { S: name },
    spec: { S: JSON.stringify(deployment) },
    customizations: { S: JSON.stringify([configMap]) },
    deleted: { BOOL: false },
  };
}

/** A table made from config/samples/dynamodb-table.json, under a name of its own. */
export async function sampleTable(): Promise<string> {
  const input = JSON.parse(repoFile('config/samples/dynamodb-table.json')) as CreateTableCommandInput;
  const table = uniqueName('tenants');
  const client = dynamoClient();
  await client.send(new CreateTableCommand({ ...input, TableName: table }));
  await waitUntilTableExists({ client, maxWaitTime: 30 }, { TableName: table });
  return table;
}

/** True once the read fails with 404. */
export const gone = (read: Promise<unknown>): Promise<boolean> =>
  read.then(
    () => false,
    (err: { code?: number }) => err.code === 404,
  );

export const forbidden = async (p: LandlordProcess): Promise<number> =>
  metricValue(await p.metrics(), 'landlord_api_requests_total', { code: '403' });

/** A component's environment in a pod: its ServiceAccount's token, leader election on, no CRD rights. */
export const asServiceAccount = (
  kubeconfig: string,
  extra: Record<string, string> = {},
): Record<string, string> =>
  componentEnv({
    KUBECONFIG: kubeconfig,
    LANDLORD_INSTALL_CRD: 'false',
    LANDLORD_LEADER_ELECTION: 'true',
    ...extra,
  });
