// Deploying landlord. There is no Docker engine here, so the image is checked by reading the
// Dockerfile and by assembling exactly the files its final stage copies and running the CLI from
// them as the image's user. The kustomize manifests go to the real API server, and each component
// runs under its own ServiceAccount's token: what its RBAC allows is enough, and not more.
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join, relative } from 'node:path';
import { createInterface } from 'node:readline';
import { promisify } from 'node:util';
import {
  CreateTableCommand,
  PutItemCommand,
  waitUntilTableExists,
  type AttributeValue,
  type CreateTableCommandInput,
} from '@aws-sdk/client-dynamodb';
import { CoordinationV1Api, type V1Deployment, type V1Pod } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TENANT_CRD } from '../api/crd.js';
import { KubeApi } from '../runtime/kube/api.js';
import { CONDITION } from '../api/tenant.js';
import { repoRoot } from '../harness/paths.js';
import { waitUntil } from '../harness/wait.js';
import { copies, envOf, instructions, workdir } from './support/dockerfile.js';
import { dynamoClient } from './support/dynamo.js';
import {
  assembleImage,
  entrypoint,
  final,
  imageIdentity,
  imageUser,
  installsProductionOnly,
  parseLogLine,
  runImage,
  scratchFilesOf,
  stageNamed,
  stages,
  startImage,
  writeImageKubeconfig,
  type AssembledImage,
} from './support/image.js';
import { clients, kubeConfig, uniqueName } from './support/env.js';
import { kubectl } from './support/kubectl.js';
import { componentEnv, metricValue, startLandlord, type LandlordProcess } from './support/landlord.js';
import { canI, serviceAccountKubeconfig, serviceAccountUser } from './support/service-account.js';
import {
  configMapManifest,
  createTenant,
  deleteTenant,
  deploymentManifest,
  readTenant,
  setSpec,
  tenantManifest,
  waitForCondition,
} from './support/tenants.js';

const run = promisify(execFile);
const { core, apps, custom, kc } = clients();
const coordination = kc.makeApiClient(CoordinationV1Api);

const SYSTEM = 'landlord-system';
const repoFile = (path: string): string => readFileSync(join(repoRoot, path), 'utf8');
const packageJson = JSON.parse(repoFile('package.json')) as { version: string };

// ---------------------------------------------------------------------------------------------
// The image
// ---------------------------------------------------------------------------------------------

/** A package manager invoked as a command (removing npm's files is not running it). */
const PACKAGE_MANAGER = /(^|&&|;|\|)\s*(npm|npx|yarn|pnpm|corepack)\s/;

/** The Node.js release the tests run on: scripts/node24 pins it. */
function testedNodeVersion(): string {
  const match = /^version="([^"]+)"/m.exec(repoFile('scripts/node24'));
  if (match?.[1] === undefined) throw new Error('scripts/node24 does not pin a version');
  return match[1];
}

describe('the Dockerfile', () => {
  it('builds on and runs Node.js 24, the very release the tests run on', () => {
    const version = testedNodeVersion();
    expect(version.split('.')[0]).toBe('24');
    for (const stage of stages) expect(stage.from).toBe(`node:${version}-bookworm-slim`);
  });

  it('runs as a non-root numeric user', () => {
    expect(imageUser()).toMatch(/^\d+(:\d+)?$/);
    expect(Number(imageUser().split(':')[0])).toBeGreaterThan(0);
  });

  it('holds production dependencies only, and runs no package manager in the final stage', () => {
    const nodeModules = copies(final).filter((c) => c.sources.some((s) => basename(s) === 'node_modules'));
    expect(nodeModules).toHaveLength(1);
    const source = stageNamed(nodeModules[0]!.from);
    expect(installsProductionOnly(source)).toBe(true);
    expect(instructions(source!, 'RUN').filter((r) => /\bnpm (install|i)\b/.test(r))).toEqual([]);
    expect(instructions(final, 'RUN').filter((r) => PACKAGE_MANAGER.test(r))).toEqual([]);
    expect(envOf(final).NODE_ENV).toBe('production');
  });

  it('starts the CLI, so the command picks the component', () => {
    expect(entrypoint()).toEqual(['node', 'dist/cli/main.js']);
  });

  it('compiles every directory that tsconfig.build.json includes, and .dockerignore lets each in', () => {
    const build = stageNamed('build')!;
    const included = (JSON.parse(repoFile('tsconfig.build.json')) as { include: string[] }).include;
    const copied = copies(build).flatMap((c) => c.sources);
    const allowed = repoFile('.dockerignore')
      .split('\n')
      .filter((line) => line.startsWith('!'))
      .map((line) => line.slice(1));
    for (const dir of included) {
      expect(copied).toContain(dir);
      expect(allowed).toContain(dir);
    }
  });

  it('copies only runtime output, every piece of which `npm run build` produces', () => {
    const fromBuild = copies(final).filter((c) => c.from === 'build');
    const paths = fromBuild.flatMap((c) => c.sources.map((s) => relative(workdir(stageNamed('build')!), s)));
    expect(paths.sort()).toEqual([
      'dist/api',
      'dist/cli',
      'dist/operator',
      'dist/runtime',
      'dist/sync',
      'dist/util',
    ]);
    for (const path of paths)
      expect(existsSync(join(repoRoot, path)), `${path} after npm run build`).toBe(true);
    expect(existsSync(join(repoRoot, entrypoint()[1]!))).toBe(true);
  });
});

/** A Lease held by someone else for an hour, so an operator started with this namespace stays standby. */
async function leaseHeldElsewhere(namespace: string): Promise<void> {
  const now = new Date().toISOString().replace('Z', '000Z');
  await new KubeApi(kubeConfig()).request({
    method: 'POST',
    path: `/apis/coordination.k8s.io/v1/namespaces/${namespace}/leases`,
    body: {
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      metadata: { name: 'landlord-operator', namespace },
      spec: {
        holderIdentity: 'another-replica',
        leaseDurationSeconds: 3600,
        acquireTime: now,
        renewTime: now,
      },
    },
  });
}

describe('the files the image holds, run as the image runs them', () => {
  let image: AssembledImage;
  let kubeconfig: string;
  const leaseNamespace = uniqueName('image');

  beforeAll(async () => {
    image = await assembleImage();
    kubeconfig = await writeImageKubeconfig(image);
    // Nothing in the image is writable by its user; as a non-root tester, by anyone.
    await run('chmod', ['-R', 'a-w', image.root]);
    await core.createNamespace({ body: { metadata: { name: leaseNamespace } } });
    await leaseHeldElsewhere(leaseNamespace);
  });

  afterAll(async () => {
    if (image === undefined) return;
    await run('chmod', ['-R', 'u+w', image.root]);
    await rm(image.root, { recursive: true, force: true });
    await core.deleteNamespace({ name: leaseNamespace });
  });

  it('--help and --version work from them alone', async () => {
    const help = await runImage(image, ['--help']);
    expect(help).toMatchObject({ code: 0, stderr: '' });
    expect(help.stdout).toMatch(/operator/);
    expect(help.stdout).toMatch(/sync/);
    expect(await runImage(image, ['--version'])).toMatchObject({
      code: 0,
      stdout: `${packageJson.version}\n`,
    });
  });

  it('`landlord crd` prints the CRD that config/crd installs', async () => {
    const crd = await runImage(image, ['crd']);
    expect(crd).toMatchObject({ code: 0, stdout: repoFile('crds/tenants.landlord.dev.yaml') });
  });

  it('refuses a missing setting with one line naming it', async () => {
    const sync = await runImage(image, ['sync']);
    expect(sync.code).toBe(2);
    expect(sync.stderr.trim().split('\n')).toEqual([expect.stringMatching(/DYNAMODB_TABLE is required/)]);
  });

  it('the operator starts against the cluster, stands by, and exits 0 on SIGTERM, writing nothing to disk', async () => {
    const child = startImage(image, ['operator'], {
      KUBECONFIG: kubeconfig,
      POD_NAMESPACE: leaseNamespace,
      LANDLORD_IDENTITY: 'image-test',
      LANDLORD_HTTP_PORT: '0',
      LANDLORD_LEADER_ELECTION: 'true',
      LANDLORD_INSTALL_CRD: 'false',
    });
    const lines: Record<string, unknown>[] = [];
    const exited = new Promise<number | null>((done) => child.once('exit', done));
    for (const stream of [child.stdout, child.stderr]) {
      createInterface({ input: stream }).on('line', (line) => lines.push(parseLogLine(line)));
    }
    const port = await waitUntil(
      'the operator to say which port it serves',
      async () => Promise.resolve(lines.find((l) => l.msg === 'starting')?.httpPort as number | undefined),
      { timeoutMs: 30_000 },
    );
    const readiness = await waitUntil(
      'the operator to be ready',
      async () => {
        const res = await fetch(`http://127.0.0.1:${port}/readyz`);
        return res.ok ? res.text() : undefined;
      },
      { timeoutMs: 60_000 },
    );
    expect(readiness.trim()).toBe('standby');
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(lines.filter((l) => l.level === 'error')).toEqual([]);
    expect(await scratchFilesOf(imageIdentity().uid)).toEqual([]);
  });
});

// ---------------------------------------------------------------------------------------------
// The manifests
// ---------------------------------------------------------------------------------------------

const config = (path: string): string => join(repoRoot, 'config', path);

interface Rendered {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string };
  subjects?: { kind: string; namespace?: string }[];
}

/**
 * A kustomization as kustomize renders it, as plain JSON objects. `kubectl create --dry-run=client`
 * prints them exactly as written (apply would merge in the live objects), one JSON document after
 * another, each starting with a `{` line of its own.
 */
async function render(dir: string): Promise<Rendered[]> {
  const text = await kubectl('create', '-k', dir, '--dry-run=client', '-o', 'json');
  return text.split(/\n(?=\{\n)/).map((doc) => JSON.parse(doc) as Rendered);
}

const isEventsRbac = (o: Rendered): boolean =>
  ['landlord-events', 'landlord-operator-events', 'landlord-sync-events'].includes(o.metadata.name);

describe('config/: the kustomize manifests against the real API server', () => {
  it('config/default passes a server-side dry run without a warning', async () => {
    await kubectl(
      'apply',
      '-k',
      config('default'),
      '--server-side',
      '--dry-run=server',
      '--warnings-as-errors',
    );
  });

  it('so do the EKS overlay, the optional CRD-installing component and the sample Tenant', async () => {
    await kubectl('apply', '-k', config('eks'), '--server-side', '--dry-run=server', '--warnings-as-errors');
    const overlay = await mkdtemp(join(tmpdir(), 'landlord-overlay-'));
    const from = (dir: string): string => relative(overlay, config(dir));
    await writeFile(
      join(overlay, 'kustomization.yaml'),
      `resources: [${from('default')}]\ncomponents: [${from('install-crd')}]\n`,
    );
    try {
      await kubectl('apply', '-k', overlay, '--server-side', '--dry-run=server', '--warnings-as-errors');
    } finally {
      await rm(overlay, { recursive: true });
    }
    await kubectl('apply', '-f', config('samples/tenant.yaml'), '--server-side', '--dry-run=server');
  });

  it('installs the CRD that api/crd.ts defines (config/crd, from crds/)', async () => {
    expect(await render(config('crd'))).toEqual([TENANT_CRD]);
  });

  it('puts the Events RBAC in default, everything else in landlord-system or at cluster scope', async () => {
    const objects = await render(config('default'));
    const namespaced = objects.filter((o) => o.metadata.namespace !== undefined);
    expect(
      namespaced
        .filter((o) => o.metadata.namespace === 'default')
        .map((o) => o.metadata.name)
        .sort(),
    ).toEqual(['landlord-events', 'landlord-operator-events', 'landlord-sync-events']);
    expect(namespaced.filter((o) => !isEventsRbac(o)).every((o) => o.metadata.namespace === SYSTEM)).toBe(
      true,
    );
    const subjects = objects.flatMap((o) => o.subjects ?? []);
    expect(subjects.every((s) => s.kind === 'ServiceAccount' && s.namespace === SYSTEM)).toBe(true);
  });

  it('runs each Deployment as the image does: its command, its user, leader election on, two replicas', async () => {
    const deployments = (await render(config('default'))).filter(
      (o) => o.kind === 'Deployment',
    ) as unknown as V1Deployment[];
    expect(deployments.map((d) => d.metadata!.name).sort()).toEqual(['landlord-operator', 'landlord-sync']);
    for (const d of deployments) {
      const component = d.metadata!.name!.replace('landlord-', '');
      const pod = d.spec!.template.spec!;
      const container = pod.containers[0]!;
      expect(d.spec!.replicas).toBe(2);
      expect(container.args).toEqual([component]);
      expect(pod.serviceAccountName).toBe(d.metadata!.name);
      expect(String(pod.securityContext!.runAsUser)).toBe(imageUser().split(':')[0]);
      expect(container.securityContext).toMatchObject({
        readOnlyRootFilesystem: true,
        allowPrivilegeEscalation: false,
      });
      const env = Object.fromEntries(
        (container.env ?? []).map((e) => [e.name, e.valueFrom?.fieldRef?.fieldPath]),
      );
      expect(env).toMatchObject({ POD_NAMESPACE: 'metadata.namespace', LANDLORD_IDENTITY: 'metadata.name' });
      expect(env).not.toHaveProperty('LANDLORD_LEADER_ELECTION'); // its default is on
    }
  });

  it('has pod templates that meet the restricted Pod Security Standard', async () => {
    const ns = uniqueName('restricted');
    const labels = { 'pod-security.kubernetes.io/enforce': 'restricted' };
    await core.createNamespace({ body: { metadata: { name: ns, labels } } });
    try {
      const deployments = (await render(config('default'))).filter(
        (o) => o.kind === 'Deployment',
      ) as unknown as V1Deployment[];
      for (const d of deployments) {
        // The namespace's default ServiceAccount: landlord's own exist only in landlord-system.
        const spec = { ...d.spec!.template.spec!, serviceAccountName: undefined };
        const pod: V1Pod = {
          apiVersion: 'v1',
          kind: 'Pod',
          metadata: { name: d.metadata!.name, namespace: ns },
          spec,
        };
        // That default ServiceAccount appears shortly after the namespace.
        await waitUntil(
          `a dry-run Pod of ${d.metadata!.name} to be admitted`,
          () => core.createNamespacedPod({ namespace: ns, body: pod, dryRun: 'All' }),
          { timeoutMs: 30_000 },
        );
      }
    } finally {
      await core.deleteNamespace({ name: ns });
    }
  });

  it('gives sync an IAM policy with exactly the DynamoDB calls its code makes', () => {
    const policy = JSON.parse(repoFile('config/samples/iam-policy-sync.json')) as {
      Statement: { Action: string[]; Resource: string }[];
    };
    const granted = policy.Statement.flatMap((s) =>
      s.Action.map((a) => `${a} on ${s.Resource.includes('/stream/') ? 'stream' : 'table'}`),
    );
    const sources = readdirSync(join(repoRoot, 'sync'), { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'))
      .map((file) => repoFile(join('sync', file)));
    const used = new Set(
      sources.flatMap((text) => [...text.matchAll(/new (\w+)Command\(/g)].map((m) => m[1]!)),
    );
    const onStream = ['DescribeStream', 'GetShardIterator', 'GetRecords'];
    const needed = [...used].map((c) => `dynamodb:${c} on ${onStream.includes(c) ? 'stream' : 'table'}`);
    expect(granted.sort()).toEqual(needed.sort());
  });

  it("lets sync's ServiceAccount, and only it, assume that role", async () => {
    const trust = JSON.parse(repoFile('config/samples/iam-trust-policy-sync.json')) as {
      Statement: { Condition: { StringEquals: Record<string, string> } }[];
    };
    const conditions = Object.entries(trust.Statement[0]!.Condition.StringEquals);
    const sub = conditions.find(([key]) => key.endsWith(':sub'))?.[1];
    const account = (await render(config('default'))).find(
      (o) => o.kind === 'ServiceAccount' && o.metadata.name === 'landlord-sync',
    )!;
    expect(sub).toBe(serviceAccountUser(account.metadata.namespace!, account.metadata.name));
  });
});

// ---------------------------------------------------------------------------------------------
// Each component under its own ServiceAccount
// ---------------------------------------------------------------------------------------------

const operatorUser = serviceAccountUser(SYSTEM, 'landlord-operator');
const syncUser = serviceAccountUser(SYSTEM, 'landlord-sync');

/** The seed row's shape (spec and customizations as JSON text), with children in `namespace`. */
function seedRow(name: string, namespace: string): Record<string, AttributeValue> {
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
async function sampleTable(): Promise<string> {
  const input = JSON.parse(repoFile('config/samples/dynamodb-table.json')) as CreateTableCommandInput;
  const table = uniqueName('tenants');
  const client = dynamoClient();
  await client.send(new CreateTableCommand({ ...input, TableName: table }));
  await waitUntilTableExists({ client, maxWaitTime: 30 }, { TableName: table });
  return table;
}

/** True once the read fails with 404. */
const gone = (read: Promise<unknown>): Promise<boolean> =>
  read.then(
    () => false,
    (err: { code?: number }) => err.code === 404,
  );

const forbidden = async (p: LandlordProcess): Promise<number> =>
  metricValue(await p.metrics(), 'landlord_api_requests_total', { code: '403' });

async function leaseHolder(name: string): Promise<string | undefined> {
  const lease = await coordination.readNamespacedLease({ name, namespace: SYSTEM });
  return lease.spec?.holderIdentity;
}

async function eventsAbout(name: string, component: string): Promise<number> {
  const list = await core.listNamespacedEvent({
    namespace: 'default',
    fieldSelector: `involvedObject.name=${name}`,
  });
  return list.items.filter((e) => e.reportingComponent === component).length;
}

/** A component's environment in a pod: its ServiceAccount's token, leader election on, no CRD rights. */
const asServiceAccount = (kubeconfig: string, extra: Record<string, string> = {}): Record<string, string> =>
  componentEnv({
    KUBECONFIG: kubeconfig,
    LANDLORD_INSTALL_CRD: 'false',
    LANDLORD_LEADER_ELECTION: 'true',
    ...extra,
  });

describe('each component under its own ServiceAccount (config/rbac)', () => {
  const ns = uniqueName('deploy');
  const tenants: string[] = [];
  let operator: LandlordProcess | undefined;
  let sync: LandlordProcess | undefined;

  beforeAll(async () => {
    await kubectl('apply', '-k', config('rbac'), '--server-side');
    await core.createNamespace({ body: { metadata: { name: ns } } });
  });

  afterAll(async () => {
    // sync first: it would put back a Tenant deleted while its row exists.
    expect(await sync?.stop()).toBe(0);
    for (const name of tenants) await deleteTenant(custom, name).catch(() => undefined);
    expect(await operator?.stop()).toBe(0);
    await core.deleteNamespace({ name: ns });
  });

  it('the operator makes a Tenant Ready: children applied and pruned, status written, Events recorded, Lease held', async () => {
    const kubeconfig = await serviceAccountKubeconfig(SYSTEM, 'landlord-operator');
    operator = startLandlord('operator', asServiceAccount(kubeconfig));
    await operator.ready();
    await operator.waitForLog((l) => l.msg === 'became leader');
    const name = uniqueName('rbac-op');
    tenants.push(name);
    await createTenant(custom, tenantManifest(name, ns, 1));
    await waitForCondition(custom, name, { type: CONDITION.ready, status: 'True' });
    await apps.readNamespacedDeployment({ name: `${name}-app`, namespace: ns });
    await core.readNamespacedConfigMap({ name: `${name}-config-0`, namespace: ns });
    await waitUntil(
      'an Event about the Tenant',
      async () => (await eventsAbout(name, 'landlord-operator')) > 0,
      {
        timeoutMs: 30_000,
      },
    );
    expect(await leaseHolder('landlord-operator')).toBe(operator.identity);
    // A ConfigMap the spec no longer names is pruned (delete).
    await setSpec(custom, name, tenantManifest(name, ns, 0).spec);
    await waitUntil(
      'the ConfigMap to be pruned',
      () => gone(core.readNamespacedConfigMap({ name: `${name}-config-0`, namespace: ns })),
      {
        timeoutMs: 30_000,
      },
    );
    expect(await forbidden(operator)).toBe(0);
  });

  it('sync turns a row into a Tenant with Synced=True, which the operator then makes Ready', async () => {
    const table = await sampleTable();
    const name = uniqueName('rbac-sync');
    tenants.push(name);
    await dynamoClient().send(new PutItemCommand({ TableName: table, Item: seedRow(name, ns) }));
    const kubeconfig = await serviceAccountKubeconfig(SYSTEM, 'landlord-sync');
    sync = startLandlord('sync', asServiceAccount(kubeconfig, { DYNAMODB_TABLE: table }));
    await sync.ready();
    await sync.waitForLog((l) => l.msg === 'became leader');
    await waitForCondition(custom, name, { type: CONDITION.synced, status: 'True' });
    await waitForCondition(custom, name, { type: CONDITION.ready, status: 'True' });
    await core.readNamespacedConfigMap({ name: `${name}-config`, namespace: ns });
    expect(await leaseHolder('landlord-sync')).toBe(sync.identity);
    // A row marked deleted takes its Tenant away (delete).
    await dynamoClient().send(
      new PutItemCommand({ TableName: table, Item: { ...seedRow(name, ns), deleted: { BOOL: true } } }),
    );
    await waitUntil('the Tenant of the deleted row to go', () => gone(readTenant(custom, name)), {
      timeoutMs: 60_000,
    });
    expect(await forbidden(sync)).toBe(0);
    expect(await forbidden(operator!)).toBe(0);
  });

  // Least privilege: nothing beyond each component's own objects (`kubectl auth can-i` arguments).
  const denied = [
    { component: 'operator', check: 'create secrets -n default' },
    { component: 'operator', check: 'get secrets --all-namespaces' },
    { component: 'operator', check: 'create tenants.landlord.dev' },
    { component: 'operator', check: 'patch tenants.landlord.dev' },
    { component: 'operator', check: 'delete tenants.landlord.dev' },
    { component: 'operator', check: 'create pods -n default' },
    { component: 'operator', check: `update leases.coordination.k8s.io/landlord-sync -n ${SYSTEM}` },
    { component: 'operator', check: 'create events -n kube-system' },
    {
      component: 'operator',
      check: 'patch customresourcedefinitions.apiextensions.k8s.io/tenants.landlord.dev',
    },
    { component: 'operator', check: 'create clusterroles.rbac.authorization.k8s.io' },
    { component: 'sync', check: 'create deployments.apps -n default' },
    { component: 'sync', check: 'create configmaps -n default' },
    { component: 'sync', check: `get secrets -n ${SYSTEM}` },
    { component: 'sync', check: `create pods -n ${SYSTEM}` },
    { component: 'sync', check: `update leases.coordination.k8s.io/landlord-operator -n ${SYSTEM}` },
    { component: 'sync', check: 'patch customresourcedefinitions.apiextensions.k8s.io/tenants.landlord.dev' },
    { component: 'sync', check: 'create clusterroles.rbac.authorization.k8s.io' },
    { component: 'sync', check: `create rolebindings.rbac.authorization.k8s.io -n ${SYSTEM}` },
  ];
  it.each(denied)('$component may not: $check', async ({ component, check }) => {
    const user = component === 'operator' ? operatorUser : syncUser;
    expect(await canI(user, check.split(' '))).toBe(false);
  });
});

describe('the operator with Deployment and ConfigMap rights in its allowed namespace only', () => {
  // The per-namespace set-up docs/deploying.md describes, done the same way.
  const ns = uniqueName('allowed');
  let operator: LandlordProcess | undefined;
  const name = uniqueName('allowed');

  beforeAll(async () => {
    await core.createNamespace({ body: { metadata: { name: ns } } });
    await kubectl('delete', 'clusterrolebinding', 'landlord-operator-children');
    await kubectl(
      ...['create', 'rolebinding', 'landlord-operator-children', '-n', ns],
      ...['--clusterrole=landlord-operator-children', `--serviceaccount=${SYSTEM}:landlord-operator`],
    );
  });

  afterAll(async () => {
    expect(await operator?.stop()).toBe(0);
    await deleteTenant(custom, name).catch(() => undefined);
    await kubectl('apply', '-k', config('rbac'), '--server-side');
    await core.deleteNamespace({ name: ns });
  });

  it('makes a Tenant there Ready without a single refused request', async () => {
    expect(await canI(operatorUser, ['list', 'deployments.apps', '--all-namespaces'])).toBe(false);
    const kubeconfig = await serviceAccountKubeconfig(SYSTEM, 'landlord-operator');
    operator = startLandlord('operator', asServiceAccount(kubeconfig, { LANDLORD_ALLOWED_NAMESPACES: ns }));
    await operator.ready();
    await operator.waitForLog((l) => l.msg === 'became leader');
    await createTenant(custom, tenantManifest(name, ns, 1));
    await waitForCondition(custom, name, { type: CONDITION.ready, status: 'True' });
    expect(await forbidden(operator)).toBe(0);
  });
});
