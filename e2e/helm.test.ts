// Deploying landlord with Helm: charts/landlord, linted and rendered by the pinned helm
// (harness/tools). With default values it renders exactly what config/default does, so the two
// installs cannot drift; its schema refuses bad values; it installs, upgrades and uninstalls on the
// real API server; and each component runs under the ServiceAccount the chart made without a
// single refused request.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { PutItemCommand } from '@aws-sdk/client-dynamodb';
import type { V1Deployment } from '@kubernetes/client-node';
import { afterAll, describe, expect, it } from 'vitest';
import { CONDITION } from '../api/tenant.js';
import { waitUntil } from '../harness/wait.js';
import { asServiceAccount, config, forbidden, gone, sampleTable, seedRow } from './support/deploy.js';
import { dynamoClient } from './support/dynamo.js';
import { clients, envValue, uniqueName } from './support/env.js';
import {
  byKey,
  CHART,
  helm,
  helm3,
  helmRefusal,
  parseManifests,
  renderChart,
  renderKustomize,
  withoutConfigHash,
  type Manifest,
} from './support/helm.js';
import { kubectl } from './support/kubectl.js';
import { startLandlord, type LandlordProcess } from './support/landlord.js';
import { serviceAccountKubeconfig } from './support/service-account.js';
import {
  createTenant,
  deleteTenant,
  readTenant,
  tenantManifest,
  waitForCondition,
} from './support/tenants.js';

const { core, apps, custom } = clients();

const named = (objects: Manifest[], kind: string, name: string): Manifest | undefined =>
  objects.find((o) => o.kind === kind && o.metadata.name === name);

/** Uninstalls the release (in default, its objects in `ns`) and checks none of its objects is left. */
async function uninstallLeavesNothing(
  run: (...args: string[]) => Promise<string>,
  release: string,
  ns: string,
): Promise<void> {
  await run('uninstall', release, '--namespace', 'default', '--wait');
  expect(await run('list', '--namespace', 'default', '--short')).not.toContain(release);
  await waitUntil('the release namespace to go', () => gone(core.readNamespace({ name: ns })), {
    timeoutMs: 120_000,
  });
  const left = await kubectl(
    'get',
    'clusterroles,clusterrolebindings,validatingadmissionpolicies,validatingadmissionpolicybindings',
    '-o',
    'name',
  );
  expect(left).not.toContain(release);
}

describe('charts/landlord: lint, render, schema', () => {
  it('helm lint --strict reports no warning or error', async () => {
    const out = await helm('lint', CHART, '--strict');
    expect(out).toContain('1 chart(s) linted, 0 chart(s) failed');
    // An [INFO] remains: "icon is recommended"; landlord has no icon to point at.
    expect(out).not.toMatch(/\[(WARNING|ERROR)\]/);
  });

  it('renders, with default values, exactly the objects config/default does', async () => {
    const chart = withoutConfigHash(await renderChart());
    const kustomize = withoutConfigHash(await renderKustomize(config('default')));
    expect(Object.keys(byKey(chart)).sort()).toEqual(Object.keys(byKey(kustomize)).sort());
    expect(byKey(chart)).toEqual(byKey(kustomize));
  });

  it('renders, with purger.enabled, exactly config/default plus the config/purger component', async () => {
    const overlay = await mkdtemp(join(tmpdir(), 'landlord-purger-'));
    const from = (dir: string): string => relative(overlay, config(dir));
    await writeFile(
      join(overlay, 'kustomization.yaml'),
      `resources: [${from('default')}]\ncomponents: [${from('purger')}]\n`,
    );
    try {
      const chart = withoutConfigHash(await renderChart('--set', 'purger.enabled=true'));
      const kustomize = withoutConfigHash(await renderKustomize(overlay));
      expect(Object.keys(byKey(chart)).sort()).toEqual(Object.keys(byKey(kustomize)).sort());
      expect(byKey(chart)).toEqual(byKey(kustomize));
    } finally {
      await rm(overlay, { recursive: true });
    }
  });

  it('renames a ConfigMap whose settings change, and points its Deployment at the new name, so the pods roll', async () => {
    const before = await renderChart();
    const after = await renderChart('--set', 'operator.settings.LANDLORD_LOG_LEVEL=debug');
    const configMaps = (objects: Manifest[]): string[] =>
      objects.filter((o) => o.kind === 'ConfigMap').map((o) => o.metadata.name);
    const [operatorBefore, syncBefore] = configMaps(before);
    const [operatorAfter, syncAfter] = configMaps(after);
    expect(operatorAfter).not.toBe(operatorBefore);
    expect(syncAfter).toBe(syncBefore);
    const deployment = named(after, 'Deployment', 'landlord-operator') as unknown as V1Deployment;
    expect(deployment.spec!.template.spec!.containers[0]!.envFrom![0]!.configMapRef!.name).toBe(
      operatorAfter,
    );
  });

  it("puts an IRSA role on sync's ServiceAccount only, and the ServiceMonitors only when asked", async () => {
    const role = 'arn:aws:iam::111122223333:role/landlord-sync';
    const objects = await renderChart(
      ...['--set', `sync.serviceAccount.annotations.eks\\.amazonaws\\.com/role-arn=${role}`],
      ...['--set', 'metrics.serviceMonitor.enabled=true'],
    );
    const accounts = objects.filter((o) => o.kind === 'ServiceAccount');
    expect(Object.fromEntries(accounts.map((a) => [a.metadata.name, a.metadata]))).toMatchObject({
      'landlord-sync': { annotations: { 'eks.amazonaws.com/role-arn': role } },
      'landlord-operator': { name: 'landlord-operator' },
    });
    expect(named(accounts, 'ServiceAccount', 'landlord-operator')!.metadata).not.toHaveProperty(
      'annotations',
    );
    expect(objects.filter((o) => o.kind === 'ServiceMonitor').map((o) => o.metadata.name)).toEqual([
      'landlord-operator',
      'landlord-sync',
    ]);
    expect((await renderChart()).filter((o) => o.kind === 'ServiceMonitor')).toEqual([]);
  });

  it('names the admission policies after the release, each binding pointing at its own, and leaves them out when asked', async () => {
    const objects = parseManifests(await helm('template', 'shop', CHART));
    const policies = objects
      .filter((o) => o.kind === 'ValidatingAdmissionPolicy')
      .map((o) => o.metadata.name);
    expect(policies.sort()).toEqual([
      'shop-tenant-external-secrets',
      'shop-tenant-hostless-routes',
      'shop-tenant-ingresses',
      'shop-tenant-managed-objects',
      'shop-tenant-pods',
      'shop-tenant-routes',
      'shop-tenant-services',
      'shop-tenant-source-stamp',
    ]);
    const bindings = objects.filter((o) => o.kind === 'ValidatingAdmissionPolicyBinding') as (Manifest & {
      spec: { policyName: string };
    })[];
    expect(bindings.map((b) => `${b.metadata.name} -> ${b.spec.policyName}`).sort()).toEqual(
      policies.map((name) => `${name} -> ${name}`),
    );
    const without = await renderChart('--set', 'admissionPolicies.enabled=false');
    expect(without.filter((o) => o.kind.startsWith('ValidatingAdmissionPolicy'))).toEqual([]);
  });

  const bad = [
    { values: 'operator.replicas=-1', because: 'a negative replica count' },
    { values: 'sync.replicas=two', because: 'a replica count that is not a number' },
    { values: 'operator.replica=3', because: 'an unknown key' },
    { values: 'sync.settings.LANDLORD_SYNC_POLL_SECOND=5', because: 'an unknown setting' },
    {
      values: 'operator.settings.LANDLORD_POD_SECURITY=none',
      because: 'a Pod Security level that does not exist',
    },
    { values: 'sync.settings.LANDLORD_SYNC_MAX_DELETE_FRACTION=2', because: 'a deletion share above 1' },
    { values: 'sync.settings.DYNAMODB_TABLE=a', because: 'a table name DynamoDB would refuse' },
    { values: 'namespace=Landlord_System', because: 'a namespace that is not a DNS label' },
  ];
  it.each(bad)('refuses $because ($values) at helm template', async ({ values }) => {
    const refusal = await helmRefusal('template', 'landlord', CHART, '--set', values);
    expect(refusal).toContain("values don't meet the specifications of the schema");
  });

  it('refuses bad values at helm install too, before the release or any object exists', async () => {
    const release = uniqueName('helm-bad');
    const refusal = await helmRefusal(
      'install',
      release,
      CHART,
      '-n',
      'default',
      '--set',
      'operator.replicas=-1',
    );
    expect(refusal).toContain("values don't meet the specifications of the schema");
    expect(
      await helm('list', '-n', 'default', '--short', '--deployed', '--failed', '--pending'),
    ).not.toContain(release);
  });

  it('passes a server-side dry run without a warning', async () => {
    const file = join(envValue('LANDLORD_E2E_RUN_DIR'), 'helm-default.yaml');
    await writeFile(file, await helm('template', 'landlord', CHART, '--include-crds'));
    await kubectl('apply', '-f', file, '--server-side', '--dry-run=server', '--warnings-as-errors');
  });
});

describe('charts/landlord on the real API server: install, upgrade, run, uninstall', () => {
  // The release's objects carry its name, and its namespace is its own: it never meets what
  // config/ installed (e2e/deploy-rbac.test.ts) in the shared test cluster.
  const release = uniqueName('helm');
  const ns = release;
  const tenantNs = uniqueName('helm-tenants');
  const tenants: string[] = [];
  let operator: LandlordProcess | undefined;
  let sync: LandlordProcess | undefined;
  const inRelease = ['--namespace', 'default'];

  const readyReplicas = async (component: string): Promise<number> =>
    (await apps.readNamespacedDeployment({ name: `${release}-${component}`, namespace: ns })).status
      ?.readyReplicas ?? 0;

  // The uninstall test stops both components itself; this is for a run that failed before it.
  afterAll(async () => {
    if (sync) expect(await sync.stop()).toBe(0);
    for (const name of tenants) await deleteTenant(custom, name).catch(() => undefined);
    if (operator) expect(await operator.stop()).toBe(0);
    await core.deleteNamespace({ name: tenantNs }).catch(() => undefined);
    await helm('uninstall', release, ...inRelease).catch(() => undefined);
  });

  it('installs every object the chart renders, and both Deployments become available', async () => {
    await helm('install', release, CHART, ...inRelease, '--set', `namespace=${ns}`);
    const manifest = parseManifests(await helm('get', 'manifest', release, ...inRelease));
    expect(manifest.length).toBeGreaterThan(20);
    const file = join(envValue('LANDLORD_E2E_RUN_DIR'), `${release}.yaml`);
    await writeFile(file, await helm('get', 'manifest', release, ...inRelease));
    const live = (await kubectl('get', '-f', file, '-o', 'name')).trim().split('\n');
    expect(live).toHaveLength(manifest.length);
    for (const component of ['operator', 'sync']) {
      await waitUntil(
        `${component}'s 2 replicas to be ready`,
        async () => (await readyReplicas(component)) === 2,
        {
          timeoutMs: 120_000,
        },
      );
    }
  });

  it('upgrades: a changed replica count reaches the Deployment, and the other settings stay', async () => {
    await helm('upgrade', release, CHART, ...inRelease, '--reuse-values', '--set', 'operator.replicas=3');
    await waitUntil(
      'the operator to run 3 ready replicas',
      async () => (await readyReplicas('operator')) === 3,
      {
        timeoutMs: 120_000,
      },
    );
    const sync = await apps.readNamespacedDeployment({ name: `${release}-sync`, namespace: ns });
    expect(sync.spec!.replicas).toBe(2);
  });

  it("the operator, under the chart's ServiceAccount, makes a Tenant Ready without a refused request", async () => {
    await core.createNamespace({ body: { metadata: { name: tenantNs } } });
    const kubeconfig = await serviceAccountKubeconfig(ns, `${release}-operator`);
    operator = startLandlord('operator', asServiceAccount(kubeconfig, { POD_NAMESPACE: ns }));
    await operator.ready();
    await operator.waitForLog((l) => l.msg === 'became leader');
    const name = uniqueName('helm-op');
    tenants.push(name);
    await createTenant(custom, tenantManifest(name, tenantNs, 1));
    await waitForCondition(custom, name, { type: CONDITION.ready, status: 'True' });
    expect(await forbidden(operator)).toBe(0);
  });

  it("sync, under the chart's ServiceAccount, turns a row into a Tenant and deletes it, without a refused request", async () => {
    const table = await sampleTable();
    const name = uniqueName('helm-sync');
    tenants.push(name);
    await dynamoClient().send(new PutItemCommand({ TableName: table, Item: seedRow(name, tenantNs) }));
    const kubeconfig = await serviceAccountKubeconfig(ns, `${release}-sync`);
    sync = startLandlord('sync', asServiceAccount(kubeconfig, { POD_NAMESPACE: ns, DYNAMODB_TABLE: table }));
    await sync.ready();
    await sync.waitForLog((l) => l.msg === 'became leader');
    await waitForCondition(custom, name, { type: CONDITION.synced, status: 'True' });
    await waitForCondition(custom, name, { type: CONDITION.ready, status: 'True' });
    await dynamoClient().send(
      new PutItemCommand({ TableName: table, Item: { ...seedRow(name, tenantNs), deleted: { BOOL: true } } }),
    );
    await waitUntil('the Tenant of the deleted row to go', () => gone(readTenant(custom, name)), {
      timeoutMs: 60_000,
    });
    expect(await forbidden(sync)).toBe(0);
    expect(await forbidden(operator!)).toBe(0);
  });

  it('uninstalls: the release and its objects go, the CRD (from crds/) stays', async () => {
    expect(await sync?.stop()).toBe(0);
    expect(await operator?.stop()).toBe(0);
    sync = operator = undefined;
    await uninstallLeavesNothing(helm, release, ns);
    await kubectl('get', 'crd', 'tenants.landlord.dev');
  });
});

describe('charts/landlord under Helm 3 (a v2 chart: both majors install it)', () => {
  const release = uniqueName('helm3');
  const inRelease = ['--namespace', 'default'];
  const monitoring = [
    '--set',
    'metrics.serviceMonitor.enabled=true,metrics.prometheusRule.enabled=true,metrics.grafanaDashboard.enabled=true',
  ];

  afterAll(async () => {
    await helm3('uninstall', release, ...inRelease).catch(() => undefined);
  });

  it('lints clean with helm 3 lint --strict', async () => {
    const out = await helm3('lint', CHART, '--strict');
    expect(out).toContain('1 chart(s) linted, 0 chart(s) failed');
    expect(out).not.toMatch(/\[(WARNING|ERROR)\]/);
  });

  it('renders exactly what Helm 4 renders, with default values and with every monitoring object on', async () => {
    for (const args of [[], monitoring]) {
      const three = parseManifests(await helm3('template', 'landlord', CHART, '--include-crds', ...args));
      expect(byKey(three)).toEqual(byKey(await renderChart(...args)));
    }
  });

  it('refuses a bad value through the same schema', async () => {
    const refusal = await helm3('template', 'landlord', CHART, '--set', 'operator.replicas=-1').then(
      () => undefined,
      (err: { stderr?: string }) => err.stderr,
    );
    expect(refusal).toContain("values don't meet the specifications of the schema");
  });

  it('installs on the API server and uninstalls, leaving no object of the release', async () => {
    const ns = release;
    await helm3('install', release, CHART, ...inRelease, '--set', `namespace=${ns}`);
    const file = join(envValue('LANDLORD_E2E_RUN_DIR'), `${release}.yaml`);
    const manifest = await helm3('get', 'manifest', release, ...inRelease);
    await writeFile(file, manifest);
    const installed = parseManifests(manifest);
    const live = (await kubectl('get', '-f', file, '-o', 'name')).trim().split('\n');
    expect(live).toHaveLength(installed.length);
    await uninstallLeavesNothing(helm3, release, ns);
  });
});
