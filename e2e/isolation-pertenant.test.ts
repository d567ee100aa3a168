// PerTenant classes against the real control plane: a tenant gets a namespace of its own, labelled
// for Pod Security admission (the API server itself rejects a violating pod), with a quota the real
// quota controller enforces (the workload waits until it does), LimitRange defaults on its pods, an
// isolating NetworkPolicy and RoleBindings that `kubectl auth can-i` honours; the namespace goes
// with the row. The example
// seed row of docs/rows.md, verbatim (namespace "default"), under the default class runs in namespace tenant-1. A row
// named after a system namespace or an existing one is refused, and nothing there is touched. What a
// hostile row names (a Secret, another ServiceAccount) is harmless there. One operator and one sync
// for the file; its classes and Tenants are deleted in afterAll.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NetworkingV1Api, type V1Deployment, type V1Namespace, type V1Pod } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANNOTATION, CONDITION, GROUP, VERSION, type Tenant } from '../api/tenant.js';
import { CLASS_PLURAL, DEFAULT_CLASS_ANNOTATION, type TenantClassSpec } from '../api/tenantclass.js';
import { waitUntil } from '../harness/wait.js';
import { sleep } from '../util/backoff.js';
import { gone } from './support/deploy.js';
import { kubectl } from './support/kubectl.js';
import { clients, uniqueName } from './support/env.js';
import {
  allWrites,
  componentEnv,
  startLandlord,
  type LandlordProcess,
  type LogLine,
} from './support/landlord.js';
import { canI } from './support/service-account.js';
import { recordWatch, type WatchedEvent } from './support/watch.js';
import { createTable, putRow, startSync, updateRow, verbatimRow } from './support/sync.js';
import {
  condition,
  createTenant,
  deleteTenant,
  readTenant,
  setSpec,
  tenantManifest,
  waitForCondition,
} from './support/tenants.js';

const { core, apps, custom, kc } = clients();
const id = uniqueName('pt');
const perTenant = `${id}-class`;
const defaultClass = `${id}-default`;
const classes = { group: GROUP, version: VERSION, plural: CLASS_PLURAL };
let operator: LandlordProcess;
let sync: LandlordProcess | undefined;

const QUOTA = { hard: { pods: '3', 'requests.cpu': '1', 'requests.memory': '1Gi' } };
const LIMITS = {
  limits: [
    {
      type: 'Container',
      default: { cpu: '200m', memory: '128Mi' },
      defaultRequest: { cpu: '100m', memory: '64Mi' },
    },
  ],
};

const CLASS: TenantClassSpec = {
  namespace: { mode: 'PerTenant', nameTemplate: '{name}', labels: { 'example.com/tenant': '{name}' } },
  podSecurity: 'baseline',
  resourceQuota: QUOTA,
  limitRange: LIMITS,
  networkIsolation: 'Isolated',
  allowIngressFrom: { matchLabels: { 'kubernetes.io/metadata.name': 'ingress-nginx' } },
  rbac: [{ group: '{name}-devs', clusterRole: 'edit' }],
};

async function createClass(name: string, spec: TenantClassSpec, isDefault = false): Promise<void> {
  const annotations = isDefault ? { [DEFAULT_CLASS_ANNOTATION]: 'true' } : {};
  await custom.createClusterCustomObject({
    ...classes,
    body: { apiVersion: `${GROUP}/${VERSION}`, kind: 'TenantClass', metadata: { name, annotations }, spec },
  });
}

/** A Tenant of a class (the PerTenant one), its children in `namespace` (as the seed format has them). */
function tenantOf(name: string, className = perTenant, namespace = 'default'): Tenant {
  const tenant = tenantManifest(name, namespace, 1);
  tenant.spec = { ...tenant.spec, class: className };
  return tenant;
}

const readNamespace = (name: string): Promise<V1Namespace | undefined> =>
  core.readNamespace({ name }).catch(() => undefined);

const ready = (name: string): Promise<Tenant> =>
  waitForCondition(custom, name, { type: CONDITION.ready, status: 'True' }, 120_000);

const refused = (name: string, reason: string): Promise<Tenant> =>
  waitForCondition(custom, name, { type: CONDITION.applied, status: 'False', reason }, 90_000);

async function podsIn(namespace: string, count: number): Promise<V1Pod[]> {
  return waitUntil(
    `${count} pods in ${namespace}`,
    async () => {
      const pods = (await core.listNamespacedPod({ namespace })).items;
      return pods.length >= count ? pods : undefined;
    },
    { timeoutMs: 60_000 },
  );
}

const tenantA = `${id}-a`;

beforeAll(async () => {
  await createClass(perTenant, CLASS);
  operator = startLandlord(
    'operator',
    componentEnv({ LANDLORD_LOG_LEVEL: 'info', LANDLORD_OPERATOR_RESYNC_SECONDS: '10' }),
  );
  await operator.ready();
  await createTenant(custom, tenantOf(tenantA));
  await ready(tenantA);
});

afterAll(async () => {
  await sync?.stop();
  expect(await operator.stop()).toBe(0);
  const names = [
    tenantA,
    `${id}-quota`,
    `${id}-hostile`,
    'default',
    'kube-system',
    `${id}-taken`,
    'tenant-1',
  ];
  await Promise.all(names.map((name) => deleteTenant(custom, name).catch(() => undefined)));
  for (const name of [perTenant, defaultClass])
    await custom.deleteClusterCustomObject({ ...classes, name }).catch(() => undefined);
  await core.deleteNamespace({ name: `${id}-taken` }).catch(() => undefined);
});

describe("a PerTenant tenant's namespace", () => {
  it('is its own, owned by the Tenant, with the class labels and the Pod Security labels', async () => {
    const tenant = await readTenant(custom, tenantA);
    expect(tenant.status?.namespace).toBe(tenantA);
    expect(condition(tenant, CONDITION.applied)?.message).toContain(`own namespace ${tenantA}`);
    const ns = (await readNamespace(tenantA))!;
    expect(ns.metadata?.labels).toMatchObject({
      'pod-security.kubernetes.io/enforce': 'baseline',
      'pod-security.kubernetes.io/audit': 'baseline',
      'pod-security.kubernetes.io/warn': 'baseline',
      'example.com/tenant': tenantA,
    });
    expect(ns.metadata?.ownerReferences).toEqual([
      expect.objectContaining({ kind: 'Tenant', name: tenantA, uid: tenant.metadata.uid, controller: true }),
    ]);
  });

  it('holds the children, moved there from "default", running as the tenant\'s ServiceAccount', async () => {
    const deployment = await apps.readNamespacedDeployment({ name: `${tenantA}-app`, namespace: tenantA });
    expect(deployment.spec?.template.spec?.serviceAccountName).toBe('landlord-tenant');
    await core.readNamespacedConfigMap({ name: `${tenantA}-config-0`, namespace: tenantA });
    const inDefault = apps.readNamespacedDeployment({ name: `${tenantA}-app`, namespace: 'default' });
    expect(await gone(inDefault)).toBe(true);
  });

  it('costs no write once converged: whole resync passes apply nothing', async () => {
    // Every write: new children are created by POST, changed ones applied.
    const applies = (): Promise<number> => allWrites(operator);
    const before = await applies();
    const seen = operator.logs.length;
    // Two passes: the first may have begun before `before` was read.
    const passes = (): number => operator.logs.slice(seen).filter((l) => l.msg === 'resync complete').length;
    await waitUntil('two resync passes', () => Promise.resolve(passes() >= 2 || undefined), {
      timeoutMs: 60_000,
    });
    expect(await applies()).toBe(before);
  });

  it('is enforced by the API server itself: a pod mounting a host path, created directly, is rejected', async () => {
    // (Not `privileged: true`: the test API server refuses that for every namespace, before Pod Security.)
    const pod: V1Pod = {
      metadata: { name: 'host-path' },
      spec: {
        containers: [{ name: 'c', image: 'busybox' }],
        volumes: [{ name: 'host', hostPath: { path: '/etc' } }],
      },
    };
    const error = await core.createNamespacedPod({ namespace: tenantA, body: pod }).then(
      () => undefined,
      (err: { code?: number; body?: unknown }) => err,
    );
    expect(error?.code).toBe(403);
    const { message } = JSON.parse(String(error?.body)) as { message: string };
    expect(message).toContain('violates PodSecurity "baseline:latest": hostPath volumes');
  });

  it('gives pods the LimitRange defaults', async () => {
    const [pod] = await podsIn(tenantA, 1);
    expect(pod!.spec?.containers[0]?.resources).toEqual({
      requests: { cpu: '100m', memory: '64Mi' },
      limits: { cpu: '200m', memory: '128Mi' },
    });
  });

  it('isolates ingress to its own namespace and the allowed one', async () => {
    const policy = await kc
      .makeApiClient(NetworkingV1Api)
      .readNamespacedNetworkPolicy({ name: 'landlord-isolation', namespace: tenantA });
    // Egress too: e2e/escape-egress.test.ts checks where it leads.
    expect(policy.spec?.policyTypes).toEqual(['Ingress', 'Egress']);
    expect(policy.spec?.ingress?.map((rule) => rule._from)).toEqual([
      [{ podSelector: {} }],
      [{ namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'ingress-nginx' } } }],
    ]);
  });

  it('puts back a NetworkPolicy its team opened by hand, its spec-hash annotation left as it was', async () => {
    const read = () =>
      kc
        .makeApiClient(NetworkingV1Api)
        .readNamespacedNetworkPolicy({ name: 'landlord-isolation', namespace: tenantA });
    const before = await read();
    // Ingress from every namespace: what `edit` in the namespace allows a tenant's team to do.
    const open = JSON.stringify([
      { op: 'replace', path: '/spec/ingress', value: [{ from: [{ namespaceSelector: {} }] }] },
    ]);
    await kubectl('patch', 'networkpolicy', 'landlord-isolation', '-n', tenantA, '--type=json', '-p', open);
    const restored = await waitUntil(
      'the operator puts the ingress rules back',
      async () => {
        const now = await read();
        const same = JSON.stringify(now.spec?.ingress) === JSON.stringify(before.spec?.ingress);
        return same && now.metadata?.resourceVersion !== before.metadata?.resourceVersion ? now : undefined;
      },
      { timeoutMs: 60_000 },
    );
    expect(restored.spec).toEqual(before.spec);
  });

  it("binds the class's group to edit in the namespace and nowhere else", async () => {
    const asDev = (ns: string, group: string): Promise<boolean> =>
      canI('someone', [`--as-group=${group}`, 'create', 'deployments.apps', '-n', ns]);
    expect(await asDev(tenantA, `${tenantA}-devs`)).toBe(true);
    expect(await asDev('default', `${tenantA}-devs`)).toBe(false);
    expect(await asDev(tenantA, 'other-devs')).toBe(false);
  });
});

describe('the quota, enforced by the real quota controller', () => {
  const name = `${id}-quota`;
  const probe = `${id}-probe`;
  const hold = `${id}-quota-hold`;
  const QUOTA_CONTROLLER = 'system:serviceaccount:kube-system:resourcequota-controller';

  /**
   * Admission enforces only what a quota's status.hard says, which the quota controller writes
   * after the quota is made. This policy keeps it from writing that status in the tenant's
   * namespace (and a probe's), so the window in which pods would escape stays open.
   */
  const holdPolicy = {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingAdmissionPolicy',
    metadata: { name: hold },
    spec: {
      failurePolicy: 'Fail',
      matchConstraints: {
        resourceRules: [
          {
            apiGroups: [''],
            apiVersions: ['v1'],
            operations: ['UPDATE'],
            resources: ['resourcequotas/status'],
          },
        ],
      },
      matchConditions: [
        { name: 'quota-controller', expression: `request.userInfo.username == '${QUOTA_CONTROLLER}'` },
      ],
      validations: [{ expression: 'false', message: 'held back by e2e/isolation-pertenant.test.ts' }],
    },
  };
  const holdBinding = {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingAdmissionPolicyBinding',
    metadata: { name: hold },
    spec: {
      policyName: hold,
      validationActions: ['Deny'],
      matchResources: {
        namespaceSelector: {
          matchExpressions: [{ key: 'example.com/tenant', operator: 'In', values: [name, probe] }],
        },
      },
    },
  };
  const admission = (kind: string): { group: string; version: string; plural: string } => ({
    group: 'admissionregistration.k8s.io',
    version: 'v1',
    plural: kind,
  });

  /**
   * The policy is in force once the quota controller's status write in the probe is refused (a
   * dry run, as raw as the controller's own PUT: it may not read the status subresource).
   */
  async function quotaStatusHeld(): Promise<void> {
    const labels = { 'example.com/tenant': probe };
    await core.createNamespace({ body: { metadata: { name: probe, labels } } });
    const quota = await core.createNamespacedResourceQuota({
      namespace: probe,
      body: { metadata: { name: 'probe' }, spec: { hard: { pods: '1' } } },
    });
    const dir = await mkdtemp(join(tmpdir(), 'landlord-quota-'));
    const file = join(dir, 'quota.json');
    // Without a resourceVersion: the controller may have written the status before the policy held.
    const metadata = { ...quota.metadata, resourceVersion: undefined };
    await writeFile(file, JSON.stringify({ ...quota, metadata, status: { hard: { pods: '1' } } }));
    const path = `/api/v1/namespaces/${probe}/resourcequotas/probe/status?dryRun=All`;
    const refused = (err: { stderr?: string }): true | undefined =>
      String(err.stderr).includes(`'${hold}'`) ? true : undefined;
    try {
      await waitUntil(
        'the policy holding quota status writes to be in force',
        () =>
          kubectl('replace', '--raw', path, '-f', file, `--as=${QUOTA_CONTROLLER}`).then(
            () => undefined,
            refused,
          ),
        { timeoutMs: 60_000 },
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }

  afterAll(async () => {
    await custom
      .deleteClusterCustomObject({ ...admission('validatingadmissionpolicybindings'), name: hold })
      .catch(() => undefined);
    await custom
      .deleteClusterCustomObject({ ...admission('validatingadmissionpolicies'), name: hold })
      .catch(() => undefined);
    await core.deleteNamespace({ name: probe }).catch(() => undefined);
  });

  it('holds the workload back until the quota is enforced, then stops the pods past it: Degraded with the quota message', async () => {
    await custom.createClusterCustomObject({ ...admission('validatingadmissionpolicies'), body: holdPolicy });
    await custom.createClusterCustomObject({
      ...admission('validatingadmissionpolicybindings'),
      body: holdBinding,
    });
    await quotaStatusHeld();
    const quotas = await recordWatch(`/api/v1/namespaces/${name}/resourcequotas`);
    const deployments = await recordWatch(`/apis/apps/v1/namespaces/${name}/deployments`);
    const tenant = tenantOf(name);
    tenant.spec!.deployment!.spec!.replicas = 5;
    await createTenant(custom, tenant);
    await waitUntil(
      `the quota in ${name}`,
      () =>
        core.readNamespacedResourceQuota({ name: 'landlord-quota', namespace: name }).catch(() => undefined),
      { timeoutMs: 60_000 },
    );
    // Long enough for the operator to have made the workload, had it not waited (it takes a few ms).
    await sleep(5_000);
    expect(
      (await core.readNamespacedResourceQuota({ name: 'landlord-quota', namespace: name })).status?.hard,
    ).toBeUndefined();
    expect((await apps.listNamespacedDeployment({ namespace: name })).items).toEqual([]);
    expect((await core.listNamespacedPod({ namespace: name })).items).toEqual([]);

    await custom.deleteClusterCustomObject({ ...admission('validatingadmissionpolicybindings'), name: hold });
    const degraded = await waitForCondition(
      custom,
      name,
      { type: CONDITION.degraded, status: 'True', reason: 'ReplicaFailure' },
      120_000,
    );
    quotas.stop();
    deployments.stop();
    expect(condition(degraded, CONDITION.degraded)?.message).toContain('exceeded quota: landlord-quota');
    const pods = (await core.listNamespacedPod({ namespace: name })).items;
    expect(pods.length).toBe(3);
    // The Deployment came after the quota controller's first count. One etcd: its resourceVersions are ordered.
    const version = (e: WatchedEvent | undefined): bigint =>
      BigInt(e?.object.metadata?.resourceVersion ?? -1);
    const enforced = quotas.events.find((e) => (e.object.status as { hard?: object } | undefined)?.hard);
    const created = deployments.events.find((e) => e.phase === 'ADDED');
    expect(version(enforced)).toBeGreaterThan(0n);
    expect(version(created)).toBeGreaterThan(version(enforced));
  });
});

describe('namespaces that are not the tenant’s to have', () => {
  it.each(['default', 'kube-system'])('a row named %s is refused with NamespaceNotAllowed', async (name) => {
    const before = (await readNamespace(name))!;
    await createTenant(custom, tenantOf(name));
    const tenant = await refused(name, 'NamespaceNotAllowed');
    expect(condition(tenant, CONDITION.applied)?.message).toContain('system namespace');
    const after = (await readNamespace(name))!;
    expect(after.metadata?.labels).toEqual(before.metadata?.labels);
    expect(after.metadata?.ownerReferences).toBeUndefined();
    await deleteTenant(custom, name);
  });

  it('a row named after an existing namespace gets Conflict: nothing adopted, labelled or deleted', async () => {
    const name = `${id}-taken`;
    await core.createNamespace({ body: { metadata: { name, labels: { owner: 'someone-else' } } } });
    await core.createNamespacedConfigMap({ namespace: name, body: { metadata: { name: 'theirs' } } });
    await createTenant(custom, tenantOf(name));
    const tenant = await refused(name, 'Conflict');
    expect(condition(tenant, CONDITION.applied)?.message).toContain(`Namespace ${name} already exists`);
    const ns = (await readNamespace(name))!;
    expect(ns.metadata?.labels).toEqual({ owner: 'someone-else', 'kubernetes.io/metadata.name': name });
    expect(ns.metadata?.ownerReferences).toBeUndefined();
    await deleteTenant(custom, name);
    await waitUntil(`Tenant ${name} gone`, () => gone(readTenant(custom, name)), { timeoutMs: 30_000 });
    expect(ns.metadata?.deletionTimestamp).toBeUndefined();
    await core.readNamespacedConfigMap({ name: 'theirs', namespace: name });
    expect((await readNamespace(name))?.status?.phase).toBe('Active');
  });
});

describe('what a hostile row names is harmless in its own namespace', () => {
  const name = `${id}-hostile`;

  it("names a Secret that is not in its namespace, and another ServiceAccount, which is forced to the tenant's", async () => {
    await core.createNamespacedSecret({
      namespace: tenantA,
      body: { metadata: { name: 'db' }, stringData: { password: 'hunter2' } },
    });
    const tenant = tenantOf(name);
    const pod = tenant.spec!.deployment!.spec!.template.spec!;
    pod.serviceAccountName = 'landlord-operator';
    pod.volumes = [{ name: 's', secret: { secretName: 'db' } }];
    await createTenant(custom, tenant);
    await waitForCondition(custom, name, { type: CONDITION.applied, status: 'True' }, 90_000);
    const deployment: V1Deployment = await apps.readNamespacedDeployment({
      name: `${name}-app`,
      namespace: name,
    });
    expect(deployment.spec?.template.spec?.serviceAccountName).toBe('landlord-tenant');
    // The Secret the pod names can only be looked up in its own namespace, where there is none.
    expect(await gone(core.readNamespacedSecret({ name: 'db', namespace: name }))).toBe(true);
    expect(
      await gone(core.readNamespacedServiceAccount({ name: 'landlord-operator', namespace: name })),
    ).toBe(true);
  });
});

describe('the example row (docs/rows.md) under the default class', () => {
  const table = `${id}-table`;

  it('runs in namespace tenant-1, and the whole namespace goes when the row is deleted', async () => {
    await createClass(defaultClass, CLASS, true);
    await createTable(table);
    await putRow(table, verbatimRow('tenant-1'));
    sync = startSync(table, { LANDLORD_SYNC_RESYNC_SECONDS: '5' });
    const tenant = await ready('tenant-1');
    expect(tenant.status?.namespace).toBe('tenant-1');
    expect(tenant.status?.deployment).toBe('tenant-1/tenant-1-app');
    expect(tenant.status?.configMaps).toEqual(['tenant-1/tenant-1-config']);
    await updateRow(table, 'tenant-1', { deleted: true });
    await waitUntil('namespace tenant-1 gone', () => gone(core.readNamespace({ name: 'tenant-1' })), {
      timeoutMs: 180_000,
    });
    // At once, not only in afterAll: while a default class exists, this file's operator would give it
    // to any Tenant under the built-in class, and such a Tenant keeps it (status.class).
    await custom.deleteClusterCustomObject({ ...classes, name: defaultClass });
  });
});

describe('Shared and PerTenant side by side', () => {
  const sharedClass = `${id}-shared`;
  const sharedNs = `${id}-shared-ns`;
  const mover = `${id}-move`;
  const tight = `${id}-tight`;

  beforeAll(async () => {
    await createClass(sharedClass, { namespace: { mode: 'Shared' } });
    await core.createNamespace({ body: { metadata: { name: sharedNs } } });
  });

  afterAll(async () => {
    for (const name of [mover, `${id}-intruder`, `${id}-held`, `${id}-sharer`])
      await deleteTenant(custom, name).catch(() => undefined);
    for (const name of [sharedClass, tight])
      await custom.deleteClusterCustomObject({ ...classes, name }).catch(() => undefined);
    await core.deleteNamespace({ name: sharedNs }).catch(() => undefined);
  });

  it("refuses a Shared row naming another tenant's namespace (Conflict)", async () => {
    const name = `${id}-intruder`;
    await createTenant(custom, tenantOf(name, sharedClass, tenantA));
    const tenant = await refused(name, 'Conflict');
    expect(condition(tenant, CONDITION.applied)?.message).toContain(`the namespace of Tenant ${tenantA}`);
    expect(await gone(apps.readNamespacedDeployment({ name: `${name}-app`, namespace: tenantA }))).toBe(true);
  });

  // A paused PerTenant Tenant never gets a first status naming its namespace; the older of two, it
  // would win a label conflict if it counted among the manifest namespace's tenants.
  it("never counts a PerTenant tenant among the manifest namespace's, even before its first status", async () => {
    const held = tenantOf(`${id}-held`, perTenant, sharedNs);
    held.metadata.annotations = { [ANNOTATION.paused]: 'true' };
    await createTenant(custom, held);
    const paused = await waitForCondition(custom, held.metadata.name!, {
      type: CONDITION.ready,
      status: 'False',
      reason: 'Paused',
    });
    expect(paused.status?.namespace).toBeUndefined();
    const sharer = tenantOf(`${id}-sharer`, sharedClass, sharedNs);
    sharer.spec!.deployment!.spec = structuredClone(held.spec!.deployment!.spec);
    await createTenant(custom, sharer);
    await ready(sharer.metadata.name!);
  });

  // The new namespace's quota first admits no pod, so the new Deployment cannot roll out: the old one
  // must keep serving (with its ConfigMap) until the quota is raised and the new one is available.
  it('moves a tenant from Shared to PerTenant: the old children serve until the new Deployment has rolled out', async () => {
    await createClass(tight, { ...CLASS, resourceQuota: { hard: { pods: '0' } } });
    const tenant = tenantOf(mover, sharedClass, sharedNs);
    await createTenant(custom, tenant);
    await ready(mover);
    await setSpec(custom, mover, { ...tenant.spec, class: tight });
    await waitUntil(
      `Tenant ${mover} in its own namespace`,
      async () => (await readTenant(custom, mover)).status?.namespace === mover || undefined,
      { timeoutMs: 90_000 },
    );
    await waitForCondition(custom, mover, { type: CONDITION.degraded, status: 'True' }, 90_000);
    const oldDeployment = await apps.readNamespacedDeployment({ name: `${mover}-app`, namespace: sharedNs });
    expect(oldDeployment.status?.availableReplicas).toBe(1);
    await core.readNamespacedConfigMap({ name: `${mover}-config-0`, namespace: sharedNs });
    // "keeping ConfigMap …, Deployment … until Deployment … has rolled out": the kept ones in any order.
    const kept = `Deployment ${sharedNs}/${mover}-app`;
    const keeping = (line: LogLine): boolean =>
      line.tenant === mover &&
      line.msg?.startsWith('keeping ') === true &&
      line.msg.split(' until ')[0]!.includes(kept);
    expect(operator.logs.some(keeping)).toBe(true);

    await kubectl(
      'patch',
      'tenantclass',
      tight,
      '--type',
      'merge',
      '-p',
      JSON.stringify({ spec: { resourceQuota: QUOTA } }),
    );
    await ready(mover);
    const moved = await apps.readNamespacedDeployment({ name: `${mover}-app`, namespace: mover });
    expect(moved.status?.availableReplicas).toBe(1);
    await waitUntil(
      `the old Deployment and ConfigMap of ${mover} pruned`,
      async () =>
        ((await gone(apps.readNamespacedDeployment({ name: `${mover}-app`, namespace: sharedNs }))) &&
          (await gone(core.readNamespacedConfigMap({ name: `${mover}-config-0`, namespace: sharedNs })))) ||
        undefined,
      { timeoutMs: 60_000 },
    );
  });
});

describe('deleting the Tenant', () => {
  it('deletes its namespace and everything in it, by the garbage collector', async () => {
    await deleteTenant(custom, tenantA);
    await waitUntil(`namespace ${tenantA} gone`, () => gone(core.readNamespace({ name: tenantA })), {
      timeoutMs: 180_000,
    });
  });
});
