// v1alpha1 and v1beta1 side by side (ADR 0011), on a real API server of its own (the file changes
// the CRDs' storage version, which no other file may see): objects stored by the previous
// release's CRD (v1alpha1) read back through v1beta1 and the reverse, kubectl's columns on both,
// and `landlord migrate-storage` storing every object as v1beta1 and trimming storedVersions
// without changing a generation, a spec or a child. Run again, it writes nothing.
import {
  ApiextensionsV1Api,
  CoreV1Api,
  CustomObjectsApi,
  type KubernetesObject,
  type V1CustomResourceDefinition,
} from '@kubernetes/client-node';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { load } from 'js-yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CRD_NAME, GROUP, PLURAL, PREVIOUS_VERSION, VERSION } from '../api/tenant.js';
import { CLASS_CRD_NAME, CLASS_PLURAL } from '../api/tenantclass.js';
import { previousRelease, readChangelog } from '../harness/changelog.js';
import { Cluster } from '../harness/cluster.js';
import { repoRoot } from '../harness/paths.js';
import { loadKubeConfig } from '../harness/readiness.js';
import { KubeApi } from '../runtime/kube/api.js';
import { installTenantCrd } from '../harness/tenant-crd.js';
import { waitUntil } from '../harness/wait.js';
import { configMapManifest, deploymentManifest } from './support/tenants.js';

const run = promisify(execFile);

let cluster: Cluster;
let custom: CustomObjectsApi;
let crds: ApiextensionsV1Api;
let core: CoreV1Api;

type Obj = KubernetesObject & { spec?: unknown; status?: unknown };
const BEFORE = ['before-0', 'before-1', 'before-2'];
const AFTER = 'after-0';
const CLASS = 'gold';

const tenants = (version: string): { group: string; version: string; plural: string } => ({
  group: GROUP,
  version,
  plural: PLURAL,
});
const classes = (version: string): { group: string; version: string; plural: string } => ({
  group: GROUP,
  version,
  plural: CLASS_PLURAL,
});

const tenantBody = (version: string, name: string): Obj => ({
  apiVersion: `${GROUP}/${version}`,
  kind: 'Tenant',
  metadata: { name, labels: { 'example.com/team': 'a' } },
  spec: {
    deployment: deploymentManifest(`${name}-app`, 'default'),
    configMaps: [configMapManifest(`${name}-config`, 'default')],
    state: 'active',
    hosts: [`${name}.apps.example.com`],
  },
});

const get = (version: string, name: string): Promise<Obj> =>
  custom.getClusterCustomObject({ ...tenants(version), name }) as Promise<Obj>;

/** What a reader sees of an object: everything but the apiVersion it was asked for. */
function sameObject(obj: Obj): Omit<Obj, 'apiVersion'> {
  const { apiVersion, ...rest } = obj;
  void apiVersion;
  return rest;
}

/** The previous release's CRDs, as its crds/ held them at the commit CHANGELOG.md names. */
async function previousCrds(): Promise<V1CustomResourceDefinition[]> {
  const { commit } = previousRelease(readChangelog());
  const read = async (name: string): Promise<V1CustomResourceDefinition> => {
    const { stdout } = await run('git', ['-C', repoRoot, 'show', `${commit}:crds/${name}.yaml`]);
    return load(stdout) as V1CustomResourceDefinition;
  };
  return [await read(CRD_NAME), await read(CLASS_CRD_NAME)];
}

async function storedVersionsOf(name: string): Promise<string[]> {
  const crd = await crds.readCustomResourceDefinition({ name });
  return crd.status?.storedVersions ?? [];
}

async function established(name: string, version: string): Promise<void> {
  await waitUntil(
    `${name} to serve ${version}`,
    async () => {
      const crd = await crds.readCustomResourceDefinition({ name });
      const ok = crd.status?.conditions?.some((c) => c.type === 'Established' && c.status === 'True');
      return (ok === true && crd.spec.versions.some((v) => v.name === version)) || undefined;
    },
    { timeoutMs: 30_000, intervalMs: 200 },
  );
  // The API server serves a new version a moment after it says so; a list shows it is.
  await waitUntil(
    `${version} tenants to list`,
    () =>
      custom.listClusterCustomObject(tenants(version)).then(
        () => true,
        () => undefined,
      ),
    { timeoutMs: 30_000, intervalMs: 200 },
  );
}

const env = (): NodeJS.ProcessEnv => ({ ...process.env, KUBECONFIG: cluster.adminKubeconfig });

async function kubectlGet(resource: string): Promise<string> {
  const { stdout } = await run('kubectl', ['get', resource, '-o', 'wide'], { env: env() });
  return stdout;
}

async function migrateStorage(): Promise<string> {
  const cli = join(repoRoot, 'dist', 'cli', 'main.js');
  const { stdout } = await run(process.execPath, [cli, 'migrate-storage', '--rate', '50'], { env: env() });
  return stdout;
}

/** resourceVersion and generation of every Tenant and TenantClass, and of the child, by name. */
async function versions(): Promise<Record<string, string>> {
  const all: Record<string, string> = {};
  const list = async (ref: ReturnType<typeof tenants>): Promise<void> => {
    const { items } = (await custom.listClusterCustomObject(ref)) as { items: Obj[] };
    for (const o of items)
      all[`${o.kind}/${o.metadata!.name}`] = `${o.metadata!.resourceVersion}/${o.metadata!.generation}`;
  };
  await list(tenants(VERSION));
  await list(classes(VERSION));
  const child = await core.readNamespacedConfigMap({ namespace: 'default', name: 'child' });
  all['ConfigMap/child'] = `${child.metadata!.resourceVersion}/-`;
  return all;
}

beforeAll(async () => {
  cluster = await Cluster.start({ dynamodb: 'none', log: () => undefined });
  const kc = loadKubeConfig(cluster.adminKubeconfig);
  custom = kc.makeApiClient(CustomObjectsApi);
  crds = kc.makeApiClient(ApiextensionsV1Api);
  core = kc.makeApiClient(CoreV1Api);
  // Raw, as kubectl sends it: client-node's typed model would drop the x-kubernetes-* keys.
  const api = new KubeApi(kc);
  for (const body of await previousCrds())
    await api.request({
      method: 'POST',
      path: '/apis/apiextensions.k8s.io/v1/customresourcedefinitions',
      body,
    });
  await established(CRD_NAME, PREVIOUS_VERSION);
  // Stored by the previous release: v1alpha1 is its only version.
  for (const name of BEFORE)
    await custom.createClusterCustomObject({
      ...tenants(PREVIOUS_VERSION),
      body: tenantBody(PREVIOUS_VERSION, name),
    });
  await custom.createClusterCustomObject({
    ...classes(PREVIOUS_VERSION),
    body: {
      apiVersion: `${GROUP}/${PREVIOUS_VERSION}`,
      kind: 'TenantClass',
      metadata: { name: CLASS },
      spec: { namespace: { mode: 'PerTenant' }, podSecurity: 'restricted' },
    },
  });
  // A child as the previous operator made it: its controller named under v1alpha1.
  const owner = await get(PREVIOUS_VERSION, BEFORE[0]!);
  await core.createNamespacedConfigMap({
    namespace: 'default',
    body: {
      metadata: {
        name: 'child',
        ownerReferences: [
          {
            apiVersion: `${GROUP}/${PREVIOUS_VERSION}`,
            kind: 'Tenant',
            name: owner.metadata!.name!,
            uid: owner.metadata!.uid!,
            controller: true,
            blockOwnerDeletion: true,
          },
        ],
      },
      data: { a: '1' },
    },
  });
  // This tree's CRDs, as `kubectl apply -f crds/` or LANDLORD_INSTALL_CRD would put them.
  await installTenantCrd(cluster.adminKubeconfig);
  await established(CRD_NAME, VERSION);
}, 300_000);

afterAll(async () => {
  await cluster?.stop();
});

describe('v1alpha1 and v1beta1, one schema, conversion None', () => {
  it('the CRDs store v1beta1 and still serve v1alpha1, deprecated; both versions are listed as stored', async () => {
    for (const name of [CRD_NAME, CLASS_CRD_NAME]) {
      const crd = await crds.readCustomResourceDefinition({ name });
      expect(crd.spec.versions.map((v) => [v.name, v.served, v.storage, v.deprecated ?? false])).toEqual([
        [VERSION, true, true, false],
        [PREVIOUS_VERSION, true, false, true],
      ]);
      expect(crd.spec.conversion?.strategy).toBe('None');
      expect([...(await storedVersionsOf(name))].sort()).toEqual([PREVIOUS_VERSION, VERSION].sort());
    }
  });

  it('objects the previous release stored as v1alpha1 read the same through v1beta1', async () => {
    for (const name of BEFORE) {
      const old = await get(PREVIOUS_VERSION, name);
      const current = await get(VERSION, name);
      expect(current.apiVersion).toBe(`${GROUP}/${VERSION}`);
      expect(sameObject(current)).toEqual(sameObject(old));
    }
    const klass = (await custom.getClusterCustomObject({ ...classes(VERSION), name: CLASS })) as Obj;
    expect(klass.spec).toEqual({ namespace: { mode: 'PerTenant' }, podSecurity: 'restricted' });
  });

  it('an object written through v1beta1 reads the same through v1alpha1 (a rolled-back operator)', async () => {
    await custom.createClusterCustomObject({ ...tenants(VERSION), body: tenantBody(VERSION, AFTER) });
    const written = await get(VERSION, AFTER);
    const old = await get(PREVIOUS_VERSION, AFTER);
    expect(old.apiVersion).toBe(`${GROUP}/${PREVIOUS_VERSION}`);
    expect(sameObject(old)).toEqual(sameObject(written));
    expect(written.spec).toEqual(tenantBody(VERSION, AFTER).spec);
  });

  it('kubectl get shows the same columns under either version', async () => {
    const current = await kubectlGet(`${PLURAL}.${VERSION}.${GROUP}`);
    const previous = await kubectlGet(`${PLURAL}.${PREVIOUS_VERSION}.${GROUP}`);
    expect(current.split('\n')[0]).toMatch(
      /^NAME\s+READY\s+REASON\s+REPLICAS\s+SYNCED\s+STATE\s+AGE\s+MESSAGE/,
    );
    const rows = (text: string): string[] =>
      text
        .trim()
        .split('\n')
        .map((l) => l.split(/\s+/)[0]!);
    expect(rows(previous)).toEqual(rows(current));
    expect(previous.split('\n')[0]).toBe(current.split('\n')[0]);
    expect(await kubectlGet('tn')).toContain(AFTER);
  });
});

describe('landlord migrate-storage', () => {
  let before: Record<string, string>;
  let first: string;

  beforeAll(async () => {
    before = await versions();
    first = await migrateStorage();
  }, 120_000);

  it('rewrites exactly the objects stored as v1alpha1, and trims v1alpha1 from storedVersions', async () => {
    expect(first).toContain(`${CRD_NAME}: ${BEFORE.length + 1} objects, ${BEFORE.length} rewritten`);
    expect(first).toContain(`${CLASS_CRD_NAME}: 1 objects, 1 rewritten`);
    for (const name of [CRD_NAME, CLASS_CRD_NAME]) expect(await storedVersionsOf(name)).toEqual([VERSION]);
  });

  it('changes no generation, no spec and no child', async () => {
    const after = await versions();
    const generation = (v: string): string => v.split('/')[1]!;
    for (const key of Object.keys(before))
      expect([key, generation(after[key]!)]).toEqual([key, generation(before[key]!)]);
    expect(after['ConfigMap/child']).toBe(before['ConfigMap/child']);
    expect(after[`Tenant/${AFTER}`]).toBe(before[`Tenant/${AFTER}`]);
    for (const name of BEFORE)
      expect((await get(VERSION, name)).spec).toEqual(tenantBody(VERSION, name).spec);
    // The child still names its owner under v1alpha1, which is served: the garbage collector follows it.
    const child = await core.readNamespacedConfigMap({ namespace: 'default', name: 'child' });
    expect(child.metadata?.ownerReferences?.[0]?.apiVersion).toBe(`${GROUP}/${PREVIOUS_VERSION}`);
  });

  it('run again, it writes nothing', async () => {
    const settled = await versions();
    const again = await migrateStorage();
    expect(again).toContain(`${CRD_NAME}: stored as ${VERSION} only; nothing to migrate`);
    expect(await versions()).toEqual(settled);
  });

  it('the migrated objects still read through v1alpha1', async () => {
    for (const name of BEFORE)
      expect(sameObject(await get(PREVIOUS_VERSION, name))).toEqual(sameObject(await get(VERSION, name)));
  });
});
