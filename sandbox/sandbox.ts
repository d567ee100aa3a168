// `npm start`: everything landlord needs, on this machine. A real control plane (as in the tests),
// dynalite as the DynamoDB, sync, operator and purger as child processes, seeded with example rows
// under the default TenantClass `standard` (a namespace per tenant) and a data table holding a few
// items per tenant, and one whole application (suite.ts: two services from one row, a PostgreSQL
// database when PostgreSQL is installed, its URL told back to the row). Prints how to look at it
// with kubectl and how to edit rows; Ctrl-C stops everything.
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { DynamoDBClient, PutItemCommand } from '@aws-sdk/client-dynamodb';
import dynalite from 'dynalite';
import { ANNOTATION } from '../api/tenant.js';
import { Cluster } from '../harness/cluster.js';
import { createDataTable, loadPartitions, type DataTableShape } from '../harness/data-table.js';
import { createTenantTable } from '../harness/tenant-table.js';
import { writeEnvFile } from '../harness/env-file.js';
import { e2eStateDir, repoRoot } from '../harness/paths.js';
import { waitUntil } from '../harness/wait.js';
import { EXAMPLE_ROWS, EXPOSED_CLASS, EXPOSED_TENANT, type Row } from './rows.js';
import { startSuite, SUITE_CLASS, SUITE_DATABASE, SUITE_TENANT } from './suite.js';
import { installPoolClass, POOL_CLASS, signupLine, SIGNUP_TENANT, timeSignup } from './warm-pool.js';

export const SANDBOX_TABLE = 'landlord-tenants';
export const SANDBOX_ENV = join(e2eStateDir, 'sandbox.env');
/** Tenant data for the purger to delete: a few items in each tenant's partition. */
const DATA_TABLE: DataTableShape = { table: 'tenant-data', partitionKey: 'tenant', sortKey: 'item' };
const PURGE_DELAY = '30s';

const say = (line: string): void => console.log(line);
const elapsed = (since: number): string => `${((Date.now() - since) / 1000).toFixed(1)}s`;

async function startDynalite(): Promise<{ endpoint: string; close(): Promise<void> }> {
  const server = dynalite({ createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { endpoint: `http://127.0.0.1:${port}`, close: () => new Promise((r) => server.close(() => r())) };
}

function awsEnv(endpoint: string): Record<string, string> {
  return {
    DYNAMODB_ENDPOINT: endpoint,
    AWS_REGION: 'us-east-1',
    AWS_ACCESS_KEY_ID: 'sandbox',
    AWS_SECRET_ACCESS_KEY: 'sandbox',
  };
}

function dynamoClient(endpoint: string): DynamoDBClient {
  const env = awsEnv(endpoint);
  return new DynamoDBClient({
    endpoint,
    region: env.AWS_REGION,
    credentials: { accessKeyId: env.AWS_ACCESS_KEY_ID!, secretAccessKey: env.AWS_SECRET_ACCESS_KEY! },
  });
}

/** Writes one row to the sandbox's table, as a user would. */
async function putRow(endpoint: string, Item: Row): Promise<void> {
  const client = dynamoClient(endpoint);
  await client.send(new PutItemCommand({ TableName: SANDBOX_TABLE, Item }));
  client.destroy();
}

async function seedTable(endpoint: string): Promise<void> {
  const client = dynamoClient(endpoint);
  // dynalite has no streams: sync polls the sandbox's table.
  await createTenantTable(client, SANDBOX_TABLE, false);
  for (const Item of EXAMPLE_ROWS) await client.send(new PutItemCommand({ TableName: SANDBOX_TABLE, Item }));
  await createDataTable(client, DATA_TABLE);
  const names = EXAMPLE_ROWS.map((row) => row.name?.S ?? '').filter((name) => name !== '');
  await loadPartitions(
    client,
    DATA_TABLE,
    names.map((value) => ({ value, items: 5 })),
  );
  client.destroy();
}

function startComponent(
  name: 'operator' | 'sync' | 'purger',
  env: Record<string, string>,
  logDir: string,
): ChildProcess {
  const child = spawn(process.execPath, [join(repoRoot, 'dist', 'cli', 'main.js'), name], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const log = createWriteStream(join(logDir, `${name}.log`));
  child.stdout?.pipe(log);
  child.stderr?.pipe(log);
  return child;
}

/**
 * The default TenantClass `standard`, as config/default installs it: every example row is PerTenant.
 * Installed before the operator starts: with no default class, rows that name none would wait
 * (NoDefaultClass) rather than fall back to the built-in class.
 */
async function installDefaultClass(kubeconfig: string): Promise<void> {
  const { execFile } = await import('node:child_process');
  const file = join(repoRoot, 'config', 'classes', 'standard.yaml');
  // The TenantClass CRD was just installed: retried until it is served.
  await waitUntil(
    'the default TenantClass to be installed',
    () =>
      new Promise<boolean>((resolve) => {
        execFile(
          'kubectl',
          ['apply', '--server-side', '-f', file],
          { env: { ...process.env, KUBECONFIG: kubeconfig } },
          (err) => resolve(err === null),
        );
      }),
    { timeoutMs: 30_000, intervalMs: 500 },
  );
}

/**
 * The class of the sandbox's exposed tenant: PerTenant like the default one (in namespaces of its
 * own prefix), with a Service and an Ingress of class nginx for {name}.apps.example.com. No ingress
 * controller runs here: the Ingress is made and listed, nothing serves it.
 */
const EXPOSED_CLASS_YAML = `apiVersion: landlord.dev/v1beta1
kind: TenantClass
metadata: { name: ${EXPOSED_CLASS} }
spec:
  namespace: { mode: PerTenant, nameTemplate: 'web-{name}' }
  allowIngressFrom: { matchLabels: { kubernetes.io/metadata.name: ingress-nginx } }
  rbac: [{ group: '{name}-devs', clusterRole: edit }]
  expose: { port: 80, host: '{name}.apps.example.com', ingressClassName: nginx }
  allowedDomains: [apps.example.com]
`;

async function installExposedClass(kubeconfig: string): Promise<void> {
  const { spawnSync } = await import('node:child_process');
  const applied = spawnSync('kubectl', ['apply', '--server-side', '-f', '-'], {
    input: EXPOSED_CLASS_YAML,
    env: { ...process.env, KUBECONFIG: kubeconfig },
    encoding: 'utf8',
  });
  if (applied.status !== 0) throw new Error(`installing TenantClass ${EXPOSED_CLASS}: ${applied.stderr}`);
}

/** The exposed tenant's URL once it is Ready, and the line `kubectl get ingress -A` prints for it. */
async function exposedTenant(kubeconfig: string): Promise<{ url: string; ingress: string } | undefined> {
  const { execFile } = await import('node:child_process');
  const { promisify } = await import('node:util');
  const env = { ...process.env, KUBECONFIG: kubeconfig };
  const run = async (...args: string[]): Promise<string> =>
    (await promisify(execFile)('kubectl', args, { env, encoding: 'utf8' })).stdout;
  const url = (await run('get', 'tenant', EXPOSED_TENANT, '-o', 'jsonpath={.status.url}')).trim();
  if (url === '') return undefined;
  const lines = (await run('get', 'ingress', '-A')).trimEnd().split('\n');
  const line = lines.find((l) => l.startsWith(`web-${EXPOSED_TENANT} `));
  return line === undefined ? undefined : { url, ingress: [lines[0]!, line].join('\n  ') };
}

/** Runs kubectl against the sandbox; resolves to whether it succeeded. */
async function kubectlOk(kubeconfig: string, args: string[]): Promise<boolean> {
  const { execFile } = await import('node:child_process');
  return new Promise((resolve) => {
    execFile('kubectl', args, { env: { ...process.env, KUBECONFIG: kubeconfig } }, (err) =>
      resolve(err === null),
    );
  });
}

/**
 * A shared and a per-tenant secret (docs/secrets.md): sources in platform-secrets (the operator's
 * default LANDLORD_SECRET_SOURCE_NAMESPACES), and the default class patched to copy them. Only here:
 * config/classes/standard.yaml names no source, which a fresh cluster would not have.
 */
async function installSecrets(kubeconfig: string): Promise<void> {
  const file = join(repoRoot, 'sandbox', 'secrets.yaml');
  if (!(await kubectlOk(kubeconfig, ['apply', '--server-side', '-f', file])))
    throw new Error(`kubectl apply -f ${file} failed`);
  const secrets = [
    { name: 'sendgrid', from: { namespace: 'platform-secrets', name: 'sendgrid' } },
    { name: 'db', from: { namespace: 'platform-secrets', name: '{name}-db' } },
  ];
  const patch = JSON.stringify({ spec: { secrets } });
  if (!(await kubectlOk(kubeconfig, ['patch', 'tenantclass', 'standard', '--type', 'merge', '-p', patch])))
    throw new Error('patching the default class with its secrets failed');
}

async function kubectlOutput(kubeconfig: string, args: string[]): Promise<string | undefined> {
  const { execFile } = await import('node:child_process');
  return new Promise((resolve) => {
    execFile('kubectl', args, { env: { ...process.env, KUBECONFIG: kubeconfig } }, (err, stdout) =>
      resolve(err === null ? stdout.trim() : undefined),
    );
  });
}

/**
 * What a platform's provisioning does once a Tenant exists: binds its per-tenant source to the
 * Tenant's uid, without which nothing is copied from it (a reused name must not inherit it).
 */
async function bindSources(kubeconfig: string): Promise<void> {
  for (const tenant of ['tenant-1', 'tenant-2']) {
    const uid = await waitUntil(
      `Tenant ${tenant} to be made`,
      async () =>
        (await kubectlOutput(kubeconfig, ['get', 'tenant', tenant, '-o', 'jsonpath={.metadata.uid}'])) ||
        undefined,
      { timeoutMs: 120_000, intervalMs: 500 },
    );
    const args = ['annotate', 'secret', '-n', 'platform-secrets', `${tenant}-db`, '--overwrite'];
    if (!(await kubectlOk(kubeconfig, [...args, `${ANNOTATION.tenantUid}=${uid}`])))
      throw new Error(`binding platform-secrets/${tenant}-db to Tenant ${tenant} failed`);
  }
}

async function tenantReady(kubeconfig: string): Promise<boolean> {
  const { execFile } = await import('node:child_process');
  return new Promise((resolve) => {
    execFile(
      'kubectl',
      ['get', 'tenant', 'tenant-1', '-o', 'jsonpath={.status.conditions[?(@.type=="Ready")].status}'],
      { env: { ...process.env, KUBECONFIG: kubeconfig } },
      (err, stdout) => resolve(err === null && stdout.trim() === 'True'),
    );
  });
}

function instructions(kubeconfig: string, logDir: string, endpoint: string): string {
  return `
landlord sandbox is running. In another terminal:

  export KUBECONFIG=${kubeconfig}
  kubectl get tenants                       # READY, REASON, REPLICAS, SYNCED, STATE
  kubectl describe tenant tenant-1          # conditions and Events
  kubectl describe tenant tenant-3          # a refused row: Synced=False, InvalidRecord
  kubectl get tenantclass standard -o yaml  # the default class: a namespace per tenant
  kubectl get deploy,cm,pods -n tenant-tenant-1    # what the operator made, in the tenant's own namespace
  kubectl get resourcequota,networkpolicy,rolebinding -n tenant-tenant-1   # its quota, isolation and editors
  kubectl get tenants -o wide                # URL: where an exposed tenant (${EXPOSED_TENANT}, class ${EXPOSED_CLASS}) is reached
  kubectl get service,ingress -n web-${EXPOSED_TENANT}   # its Service and Ingress
  kubectl get secrets -n tenant-tenant-1 -l landlord.dev/tenant   # its secrets: sendgrid (shared) and db (its own),
                                                                  # copied from platform-secrets (docs/secrets.md)
  kubectl get tenants -o wide               # the SECRETS column: SecretsReady
  kubectl get tenantclass                   # WARM: ready, unclaimed members (class ${POOL_CLASS} keeps 2)
  kubectl get ns -l landlord.dev/pool=${POOL_CLASS}   # the warm members, refilled after ${SIGNUP_TENANT} took one
  kubectl get deploy,svc -n ${SUITE_CLASS}-${SUITE_TENANT}          # ${SUITE_TENANT}: two services from one row (web, api), a Service each
  kubectl get tenant ${SUITE_TENANT} -o jsonpath='{.status.workloads}'   # both, each with its readiness
  kubectl get secret db-${SUITE_DATABASE} -n ${SUITE_CLASS}-${SUITE_TENANT} -o jsonpath='{.data.url}' | base64 -d
                                                  # its own PostgreSQL database (docs/databases.md)

Edit the table (DynamoDB at ${endpoint}, table ${SANDBOX_TABLE}; sync polls every 2 s):

  npm run sandbox:row -- list
  npm run sandbox:row -- put '{"name":"tenant-4","spec":"{...Deployment JSON...}","deleted":false}'
  npm run sandbox:row -- put-file row.json
  npm run sandbox:row -- set-deleted tenant-2     # deleted: true, the tenant goes away
  npm run sandbox:row -- set-state tenant-1 suspended   # scaled to 0, Ready=False Suspended; active resumes
  npm run sandbox:row -- set-state tenant-1 purged      # archived, then ${PURGE_DELAY} later the purger
                                                        # deletes its items in table ${DATA_TABLE.table}
  kubectl get tenant tenant-1 -o jsonpath='{.status.purge}'   # the purge: phase, startsAt, counts
  npm run sandbox:row -- remove tenant-1          # the row disappears; sync prunes the Tenant
  npm run sandbox:row -- signup shop-2            # as a signup service: put a row, read it until its
                                                  # landlord attribute says ready, print the URL
  npm run sandbox:wait-url -- ${SUITE_TENANT}                # as a signup service: read the row until landlord.ready,
                                                  # then print landlord.url (no Kubernetes credentials)
  npm run sandbox:plan                            # what sync and the operator would do now (landlord plan)

Logs: ${logDir}/{sync,operator,purger,apiserver,...}.log
Ctrl-C stops everything.
`;
}

export async function runSandbox(): Promise<void> {
  const started = Date.now();
  say(
    'landlord sandbox: starting a local control plane (etcd, kube-apiserver, controller-manager, scheduler, kwok)…',
  );
  const cluster = await Cluster.start({ dynamodb: 'none', installTenantCrd: true, log: say });
  say(`  control plane up (${elapsed(started)})`);
  await installDefaultClass(cluster.adminKubeconfig);
  await installExposedClass(cluster.adminKubeconfig);
  installPoolClass(cluster.adminKubeconfig);
  await installSecrets(cluster.adminKubeconfig);
  const suite = await startSuite(cluster.adminKubeconfig, join(cluster.runDir, 'logs'));
  say(suite.line);
  const dynamo = await startDynalite();
  const children: ChildProcess[] = [];
  const stop = async (): Promise<void> => {
    say('\nstopping…');
    children.forEach((c) => c.kill('SIGTERM'));
    const running = (c: ChildProcess): boolean => c.exitCode === null && c.signalCode === null;
    await Promise.all(children.map((c) => new Promise((r) => (running(c) ? c.once('exit', r) : r(null)))));
    await dynamo.close();
    await suite.servers.stop();
    await cluster.stop();
    say('stopped.');
    process.exit(0);
  };
  process.once('SIGINT', () => void stop());
  process.once('SIGTERM', () => void stop());
  await seedTable(dynamo.endpoint);
  await putRow(dynamo.endpoint, suite.row);
  say(
    `  DynamoDB (dynalite) at ${dynamo.endpoint}, table ${SANDBOX_TABLE} seeded with ${EXAMPLE_ROWS.length + 1} rows`,
  );
  const logDir = join(cluster.runDir, 'logs');
  const env = {
    KUBECONFIG: cluster.adminKubeconfig,
    ...awsEnv(dynamo.endpoint),
    DYNAMODB_TABLE: SANDBOX_TABLE,
    POD_NAMESPACE: 'landlord-system',
    LANDLORD_HTTP_PORT: '0',
    LANDLORD_SYNC_POLL_SECONDS: '2',
    // Rows are told their tenant's readiness and URL (docs/rows.md): `sandbox:row -- signup` reads them.
    LANDLORD_SYNC_ROW_STATUS: 'true',
  };
  const purgerEnv = {
    ...env,
    LANDLORD_PURGER_TABLES: JSON.stringify([
      { table: DATA_TABLE.table, partitionKey: DATA_TABLE.partitionKey, valueTemplate: '{name}' },
    ]),
    LANDLORD_PURGER_DELAY: PURGE_DELAY,
    LANDLORD_PURGER_TENANT_TABLES: SANDBOX_TABLE,
  };
  children.push(
    startComponent('sync', env, logDir),
    startComponent('operator', env, logDir),
    startComponent('purger', purgerEnv, logDir),
  );
  await mkdir(e2eStateDir, { recursive: true });
  await writeEnvFile(SANDBOX_ENV, {
    ...awsEnv(dynamo.endpoint),
    DYNAMODB_TABLE: SANDBOX_TABLE,
    KUBECONFIG: cluster.adminKubeconfig,
  });
  say('  sync, operator and purger started; waiting for tenant-1 to be Ready…');
  await bindSources(cluster.adminKubeconfig);
  await waitUntil('tenant-1 to be Ready', () => tenantReady(cluster.adminKubeconfig), {
    timeoutMs: 120_000,
    intervalMs: 500,
  });
  const exposed = await waitUntil(
    `${EXPOSED_TENANT} to be exposed`,
    () => exposedTenant(cluster.adminKubeconfig).catch(() => undefined),
    { timeoutMs: 120_000, intervalMs: 500 },
  );
  say(`  ready in ${elapsed(started)}`);
  say(`  ${EXPOSED_TENANT} (class ${EXPOSED_CLASS}) is exposed at ${exposed.url}; kubectl get ingress -A:`);
  say(`  ${exposed.ingress}`);
  const signup = await timeSignup(cluster.adminKubeconfig, (row) => putRow(dynamo.endpoint, row));
  say(signupLine(signup));
  say(instructions(cluster.adminKubeconfig, logDir, dynamo.endpoint));
}
