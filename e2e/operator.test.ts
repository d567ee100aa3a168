// The operator against a real control plane: each Tenant owns its Deployment and ConfigMaps,
// keeps them as specified, refuses what it must, and costs nothing when nothing changes. One file
// because the cases share one operator process and its request counters, which the zero-write
// checks read across cases; split, each part would start its own operator.
import type { V1Deployment } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONDITION, type Tenant } from '../api/tenant.js';
import { waitUntil } from '../harness/wait.js';
import { clients, uniqueName } from './support/env.js';
import { kubectl } from './support/kubectl.js';
import {
  componentEnv,
  metricValue,
  startLandlord,
  type LandlordProcess,
  OPERATOR_WRITE_RESOURCES,
  writeRequests,
} from './support/landlord.js';
import {
  condition,
  createTenant,
  deleteTenant,
  deploymentManifest,
  readTenant,
  setSpec,
  tenantManifest,
  waitForCondition,
} from './support/tenants.js';

const { core, apps, custom } = clients();
const ns = uniqueName('op');
let operator: LandlordProcess;

const notFound = (read: () => Promise<unknown>) => () =>
  read().then(
    () => false,
    (err: { code?: number }) => err.code === 404,
  );

const ready = (name: string, timeoutMs?: number) =>
  waitForCondition(custom, name, { type: CONDITION.ready, status: 'True' }, timeoutMs);

/** Write requests the operator made for tenants, their children and Events, from its own metrics. */
async function writes(): Promise<number> {
  return writeRequests(operator, OPERATOR_WRITE_RESOURCES);
}

beforeAll(async () => {
  await core.createNamespace({ body: { metadata: { name: ns } } });
  operator = startLandlord('operator', componentEnv({ LANDLORD_OPERATOR_RESYNC_SECONDS: '10' }));
  await operator.ready();
});

afterAll(async () => {
  expect(await operator.stop()).toBe(0);
});

describe('a Tenant owns its children', () => {
  const name = uniqueName('own');

  it('creates the Deployment and ConfigMaps with controller ownerReferences, and reports Ready once pods are Ready', async () => {
    const created = await createTenant(custom, tenantManifest(name, ns, 2));
    const tenant = await ready(name);
    const deployment = await apps.readNamespacedDeployment({ name: `${name}-app`, namespace: ns });
    const owner = {
      apiVersion: 'landlord.dev/v1alpha1',
      kind: 'Tenant',
      name,
      uid: created.metadata.uid,
      controller: true,
      blockOwnerDeletion: true,
    };
    expect(deployment.metadata?.ownerReferences).toEqual([owner]);
    expect(deployment.status?.readyReplicas).toBe(1);
    for (const i of [0, 1]) {
      const cm = await core.readNamespacedConfigMap({ name: `${name}-config-${i}`, namespace: ns });
      expect(cm.metadata?.ownerReferences).toEqual([owner]);
      expect(cm.data).toEqual({ key: 'value' });
    }
    expect(tenant.status).toMatchObject({
      observedGeneration: 1,
      replicaSummary: '1/1',
      deployment: `${ns}/${name}-app`,
      configMaps: [`${ns}/${name}-config-0`, `${ns}/${name}-config-1`],
    });
    expect(condition(tenant, CONDITION.applied)?.reason).toBe('Applied');
    expect(condition(tenant, CONDITION.available)?.status).toBe('True');
    expect(condition(tenant, CONDITION.degraded)?.status).toBe('False');
    // New children are created by one POST each: none was read first (the cache answers), none applied.
    const text = await operator.metrics();
    const count = (verb: string) =>
      ['deployments', 'configmaps'].map((resource) =>
        metricValue(text, 'landlord_api_requests_total', { verb, resource }),
      );
    expect(count('get')).toEqual([0, 0]);
    expect(count('create')).toEqual([1, 2]);
    expect(count('apply')).toEqual([0, 0]);
    // Its status was written once, when the rollout ended: not "applied, rolling out", then "ready".
    expect(
      metricValue(text, 'landlord_api_requests_total', { verb: 'apply', resource: 'tenants/status' }),
    ).toBe(1);
  });

  it('applies a spec change, removing what the spec stopped naming, and prunes a ConfigMap the spec no longer names', async () => {
    const spec = tenantManifest(name, ns, 1).spec!;
    spec.deployment!.spec!.replicas = 3;
    // The key `key` goes: the children were created by POST, so this shows the create's fields were
    // handed to the operator's apply, which removes what it no longer names.
    spec.configMaps![0]!.data = { changed: 'yes' };
    await setSpec(custom, name, spec);
    const tenant = await waitUntil(
      'the new spec to be rolled out',
      async () => {
        const t = await readTenant(custom, name);
        const r = condition(t, CONDITION.ready);
        return r?.status === 'True' && r.observedGeneration === 2 ? t : undefined;
      },
      { timeoutMs: 60_000 },
    );
    expect(tenant.status?.replicaSummary).toBe('3/3');
    const cm = await core.readNamespacedConfigMap({ name: `${name}-config-0`, namespace: ns });
    expect(cm.data).toEqual({ changed: 'yes' });
    const operatorEntries = cm.metadata?.managedFields?.filter((e) => e.manager === 'landlord-operator');
    expect(operatorEntries?.map((e) => e.operation)).toEqual(['Apply']);
    await waitUntil(
      'the removed ConfigMap to be pruned',
      notFound(() => core.readNamespacedConfigMap({ name: `${name}-config-1`, namespace: ns })),
      { timeoutMs: 30_000 },
    );
    expect(tenant.status?.configMaps).toEqual([`${ns}/${name}-config-0`]);
  });

  it('reverts a manual edit of the image and recreates a deleted ConfigMap', async () => {
    await apps.patchNamespacedDeployment({
      name: `${name}-app`,
      namespace: ns,
      body: [{ op: 'replace', path: '/spec/template/spec/containers/0/image', value: 'evil:1' }],
    });
    await waitUntil(
      'the image edit to be reverted',
      async () => {
        const d = await apps.readNamespacedDeployment({ name: `${name}-app`, namespace: ns });
        return d.spec?.template.spec?.containers[0]?.image === 'nginx:1.27';
      },
      { timeoutMs: 30_000 },
    );
    await core.deleteNamespacedConfigMap({ name: `${name}-config-0`, namespace: ns });
    const cm = await waitUntil(
      'the deleted ConfigMap to be recreated',
      () => core.readNamespacedConfigMap({ name: `${name}-config-0`, namespace: ns }),
      { timeoutMs: 30_000 },
    );
    expect(cm.data).toEqual({ changed: 'yes' });
  });

  it('leaves deletion to the garbage collector: the children go with the Tenant', async () => {
    await deleteTenant(custom, name);
    await waitUntil(
      'the Deployment to be garbage-collected',
      notFound(() => apps.readNamespacedDeployment({ name: `${name}-app`, namespace: ns })),
      { timeoutMs: 60_000 },
    );
    await waitUntil(
      'the ConfigMap to be garbage-collected',
      notFound(() => core.readNamespacedConfigMap({ name: `${name}-config-0`, namespace: ns })),
      { timeoutMs: 60_000 },
    );
  });
});

describe('refusals', () => {
  const name = uniqueName('refuse');
  const bystander = uniqueName('bystander');
  let before: V1Deployment;

  beforeAll(async () => {
    await createTenant(custom, tenantManifest(name, ns));
    await ready(name);
    before = await apps.readNamespacedDeployment({ name: `${name}-app`, namespace: ns });
  });

  type Tweak = (spec: NonNullable<Tenant['spec']>) => void;
  const cases: [string, string, Tweak][] = [
    ['an invalid spec', 'InvalidSpec', (s) => (s.deployment!.spec!.template.spec!.containers = [])],
    [
      'a kube-system namespace',
      'NamespaceNotAllowed',
      (s) => (s.configMaps![0]!.metadata!.namespace = 'kube-system'),
    ],
    [
      'a ClusterRole child',
      'KindNotAllowed',
      (s) =>
        s.configMaps!.push({
          apiVersion: 'rbac.authorization.k8s.io/v1',
          kind: 'ClusterRole',
          metadata: { name: 'x' },
        }),
    ],
    [
      'a privileged container',
      'PodSecurityViolation',
      (s) => (s.deployment!.spec!.template.spec!.containers[0]!.securityContext = { privileged: true }),
    ],
  ];

  it.each(cases)(
    'refuses %s with reason %s, leaves the running children alone, and keeps serving others',
    async (_what, reason, tweak) => {
      const spec = tenantManifest(name, ns).spec!;
      spec.deployment!.spec!.template.spec!.containers[0]!.image = 'nginx:1.28';
      tweak(spec);
      await setSpec(custom, name, spec);
      const tenant = await waitForCondition(custom, name, { type: CONDITION.ready, status: 'False', reason });
      expect(condition(tenant, CONDITION.applied)).toMatchObject({ status: 'False', reason });
      expect(condition(tenant, CONDITION.applied)?.message).toMatch(/spec\./);
      // The previous Deployment is untouched: same generation, same image, still available.
      const after = await apps.readNamespacedDeployment({ name: `${name}-app`, namespace: ns });
      expect(after.metadata?.generation).toBe(before.metadata?.generation);
      expect(after.spec?.template.spec?.containers[0]?.image).toBe('nginx:1.27');
      expect(condition(tenant, CONDITION.available)?.status).toBe('True');
      // An Event and a log line name the tenant and the reason.
      await waitUntil(
        `a ${reason} Event`,
        async () => {
          const events = await core.listNamespacedEvent({
            namespace: 'default',
            fieldSelector: `involvedObject.name=${name},reason=${reason}`,
          });
          return events.items.length > 0;
        },
        { timeoutMs: 10_000 },
      );
      await operator.waitForLog((l) => l.tenant === name && l.reason === reason);
      // Others are still served.
      const other = `${bystander}-${reason.toLowerCase()}`;
      await createTenant(custom, tenantManifest(other, ns, 0));
      await ready(other);
    },
  );

  it('refuses a child that another Tenant owns, naming the owner', async () => {
    const thief = uniqueName('thief');
    const tenant = tenantManifest(thief, ns, 0);
    tenant.spec!.deployment = deploymentManifest(`${name}-app`, ns);
    await createTenant(custom, tenant);
    const refused = await waitForCondition(custom, thief, {
      type: CONDITION.ready,
      status: 'False',
      reason: 'Conflict',
    });
    expect(condition(refused, CONDITION.applied)?.message).toContain(`is owned by Tenant ${name}`);
    const d = await apps.readNamespacedDeployment({ name: `${name}-app`, namespace: ns });
    expect(d.metadata?.ownerReferences?.map((o) => o.name)).toEqual([name]);
    // Once the owner and its Deployment are gone, the refused Tenant is looked at again at once
    // (not at the next resync) and takes the name.
    await deleteTenant(custom, name);
    const owned = await ready(thief);
    expect(condition(owned, CONDITION.applied)?.reason).toBe('Applied');
  });

  it('refuses an object of that name made by hand, which its cache cannot show, and never changes it', async () => {
    const late = uniqueName('late');
    const squatted = `${late}-config-0`;
    // No tenant label: the operator's label-filtered cache does not hold it.
    await core.createNamespacedConfigMap({
      namespace: ns,
      body: { metadata: { name: squatted }, data: { mine: 'yes' } },
    });
    await createTenant(custom, tenantManifest(late, ns, 1));
    const refused = await waitForCondition(custom, late, {
      type: CONDITION.applied,
      status: 'False',
      reason: 'Conflict',
    });
    expect(condition(refused, CONDITION.applied)?.message).toContain(
      `ConfigMap ${ns}/${squatted} already exists and is not managed by landlord`,
    );
    const cm = await core.readNamespacedConfigMap({ name: squatted, namespace: ns });
    expect(cm.data).toEqual({ mine: 'yes' });
    expect(cm.metadata?.ownerReferences).toBeUndefined();
    expect(cm.metadata?.labels).toBeUndefined();
    // Gone, the name is free: the next resync (10 s here) applies it.
    await core.deleteNamespacedConfigMap({ name: squatted, namespace: ns });
    await ready(late, 60_000);
  });
});

describe('kubectl', () => {
  const name = uniqueName('kubectl');

  it('shows the printer columns, the conditions and the Events', async () => {
    await createTenant(custom, tenantManifest(name, ns));
    await ready(name);
    const table = await kubectl('get', 'tenants', name);
    const [header, row] = table.trim().split('\n');
    expect(header?.split(/\s{2,}/)).toEqual([
      'NAME',
      'READY',
      'REASON',
      'REPLICAS',
      'SYNCED',
      'STATE',
      'AGE',
    ]);
    expect(row?.split(/\s+/).slice(0, 4)).toEqual([name, 'True', 'Ready', '1/1']);
    const short = await kubectl('get', 'tn', name, '-o', 'name');
    expect(short.trim()).toBe(`tenant.landlord.dev/${name}`);
    // Events are written in the background, so the one for this change may trail Ready a little.
    const createdEvent =
      /Normal\s+Created\s+.*landlord-operator\s+Created Deployment \S+, ConfigMap \S+ for generation 1/;
    const described = await waitUntil(
      'the Created Event',
      async () => {
        const text = await kubectl('describe', 'tenant', name);
        return createdEvent.test(text) ? text : undefined;
      },
      { timeoutMs: 10_000 },
    );
    for (const type of ['Ready', 'Applied', 'Available', 'Degraded'])
      expect(described).toContain(`Type:                  ${type}`);
  });
});

describe('watch events a reconcile would find nothing new in', () => {
  const name = uniqueName('echo');
  const events = async (kind: string, outcome: 'queued' | 'skipped'): Promise<number> =>
    metricValue(await operator.metrics(), 'landlord_watch_events_total', { kind, outcome });
  const moreThan = async (kind: string, outcome: 'queued' | 'skipped', before: number) =>
    (await events(kind, outcome)) > before;

  it('skips status writes and the echoes of its own applies, and queues a change of the spec', async () => {
    const before = await Promise.all(['Tenant', 'Deployment', 'ConfigMap'].map((k) => events(k, 'skipped')));
    await createTenant(custom, tenantManifest(name, ns));
    await ready(name);
    // Its own status write comes back as a Tenant event; its applies as a Deployment and a ConfigMap event.
    await waitUntil(
      'the echoes of its own writes to be skipped',
      async () =>
        (await moreThan('Tenant', 'skipped', before[0]!)) &&
        (await moreThan('Deployment', 'skipped', before[1]!)) &&
        (await moreThan('ConfigMap', 'skipped', before[2]!)),
      { timeoutMs: 10_000 },
    );
    // Another writer's condition (sync's Synced is one) changes nothing the operator decides from.
    const skipped = await events('Tenant', 'skipped');
    const condition = { type: 'E2E', status: 'True', reason: 'ByHand', message: 'set by the test' };
    await custom.patchClusterCustomObjectStatus({
      group: 'landlord.dev',
      version: 'v1alpha1',
      plural: 'tenants',
      name,
      body: [
        {
          op: 'add',
          path: '/status/conditions/-',
          value: { ...condition, lastTransitionTime: new Date().toISOString().replace(/\.\d+/, '') },
        },
      ],
    });
    await waitUntil('the status write to be skipped', () => moreThan('Tenant', 'skipped', skipped), {
      timeoutMs: 10_000,
    });
    const queued = await events('Tenant', 'queued');
    const spec = (await readTenant(custom, name)).spec;
    await setSpec(custom, name, { ...spec, deployment: deploymentManifest(name, ns, 'nginx:1.28') });
    await waitUntil('the new spec to be queued', () => moreThan('Tenant', 'queued', queued), {
      timeoutMs: 10_000,
    });
    const applied = await waitForCondition(custom, name, { type: CONDITION.applied, status: 'True' });
    expect(applied.status?.observedGeneration).toBe(2);
  });
});

describe('scale and steady state', () => {
  it('brings 200 Tenants created at once to Ready', async () => {
    const names = Array.from({ length: 200 }, (_, i) => `bulk-${ns}-${i}`);
    const started = Date.now();
    for (let i = 0; i < names.length; i += 20) {
      await Promise.all(names.slice(i, i + 20).map((n) => createTenant(custom, tenantManifest(n, ns))));
    }
    await waitUntil(
      '200 Tenants to be Ready',
      async () => {
        const list = (await custom.listClusterCustomObject({
          group: 'landlord.dev',
          version: 'v1alpha1',
          plural: 'tenants',
        })) as { items: Tenant[] };
        const readyCount = list.items.filter(
          (t) => names.includes(t.metadata.name!) && condition(t, CONDITION.ready)?.status === 'True',
        ).length;
        return readyCount === names.length;
      },
      { timeoutMs: 240_000, intervalMs: 1_000 },
    );
    console.log(`200 Tenants Ready in ${((Date.now() - started) / 1000).toFixed(1)}s`);
  });

  it('makes no API writes in steady state, across a resync and across a restart', async () => {
    // Let the last rollouts settle, then measure over more than one resync interval (10 s here).
    await new Promise((r) => setTimeout(r, 5_000));
    const before = await writes();
    const since = Date.now();
    await operator.waitForLog(
      (l) => l.msg === 'resync complete' && Date.parse(String(l.time)) > since,
      30_000,
    );
    expect(await writes()).toBe(before);
    expect(await operator.stop()).toBe(0);
    operator = startLandlord('operator', componentEnv({ LANDLORD_OPERATOR_RESYNC_SECONDS: '10' }));
    await operator.ready();
    await operator.waitForLog((l) => l.msg === 'resync complete', 30_000);
    expect(await writes()).toBe(0);
  });
});
