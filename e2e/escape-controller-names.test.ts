// Issue 37, class 5: a row that names an object a Kubernetes controller writes in every namespace
// (kube-root-ca.crt, published by kube-controller-manager) would have landlord and that controller
// rewrite it against each other forever. Attacks: a new PerTenant tenant with such a ConfigMap, a
// running tenant that adds one (its last valid children stay), a Shared tenant naming the one in
// "default"; each refused with ForbiddenName, the published ConfigMap untouched, the neighbour
// untouched, and then the API server counts no write to Tenants, Deployments, ConfigMaps or Events
// for 60 s while the operator looks at every Tenant again every 10 s.
import { setTimeout as sleep } from 'node:timers/promises';
import type { V1ConfigMap } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LABEL, type Tenant } from '../api/tenant.js';
import { requestCounts } from '../harness/apiserver-requests.js';
import { waitUntil } from '../harness/wait.js';
import { quietCounts } from './support/cluster-settle.js';
import { gone } from './support/deploy.js';
import { clients, uniqueName } from './support/env.js';
import {
  apiServerAccess,
  createClass,
  deleteClass,
  ready,
  refusedWith,
  tenantOf,
  writesTo,
} from './support/escape.js';
import { componentEnv, startLandlord, type LandlordProcess } from './support/landlord.js';
import { configMapManifest, createTenant, deleteTenant, readTenant, setSpec } from './support/tenants.js';

const { apps, core, custom } = clients();
const id = uniqueName('cnames');
const perTenant = `${id}-pt`;
const shared = `${id}-shared`;
const [running, neighbour, fresh, sharer] = ['run', 'nb', 'new', 'sh'].map((s) => `${id}-${s}`) as [
  string,
  string,
  string,
  string,
];
const ROOT_CA = 'kube-root-ca.crt';
let operator: LandlordProcess;

const readConfigMap = (namespace: string, name: string): Promise<V1ConfigMap> =>
  core.readNamespacedConfigMap({ namespace, name });

/**
 * The root CA ConfigMap of the namespace, once the controller has published it. Its publisher
 * writes it some time after the namespace appears, later still on a loaded machine: a tenant can
 * be Ready before its namespace has one.
 */
const published = (namespace: string): Promise<V1ConfigMap> =>
  waitUntil(
    `${ROOT_CA} published in ${namespace}`,
    () => readConfigMap(namespace, ROOT_CA).catch(() => undefined),
    { timeoutMs: 60_000, intervalMs: 250 },
  );

/** The published ConfigMap as its controller keeps it: its data, no landlord label or owner. */
function expectPublished(cm: V1ConfigMap, before: V1ConfigMap): void {
  expect(cm.metadata?.resourceVersion).toBe(before.metadata?.resourceVersion);
  expect(cm.metadata?.labels?.[LABEL.tenant]).toBeUndefined();
  expect(cm.metadata?.ownerReferences).toBeUndefined();
  expect(Object.keys(cm.data ?? {})).toEqual(['ca.crt']);
}

function withConfigMap(tenant: Tenant, namespace: string, name: string): Tenant {
  const configMaps = [
    ...(tenant.spec?.configMaps ?? []),
    configMapManifest(name, namespace, { 'ca.crt': 'mine' }),
  ];
  return { ...tenant, spec: { ...tenant.spec, configMaps } };
}

beforeAll(async () => {
  await createClass(custom, perTenant, { namespace: { mode: 'PerTenant' } });
  await createClass(custom, shared, { namespace: { mode: 'Shared' } });
  operator = startLandlord(
    'operator',
    componentEnv({ LANDLORD_LOG_LEVEL: 'info', LANDLORD_OPERATOR_RESYNC_SECONDS: '10' }),
  );
  await operator.ready();
  await Promise.all([running, neighbour].map((name) => createTenant(custom, tenantOf(name, perTenant))));
  await Promise.all([running, neighbour].map((name) => ready(custom, name)));
});

afterAll(async () => {
  expect(await operator.stop()).toBe(0);
  const names = [running, neighbour, fresh, sharer];
  await Promise.all(names.map((name) => deleteTenant(custom, name).catch(() => undefined)));
  await Promise.all([perTenant, shared].map((name) => deleteClass(custom, name)));
});

describe('names a controller writes in every namespace', () => {
  it('a new tenant with a kube-root-ca.crt ConfigMap: ForbiddenName, no namespace made', async () => {
    await createTenant(custom, withConfigMap(tenantOf(fresh, perTenant), 'default', ROOT_CA));
    const message = await refusedWith(custom, fresh, 'ForbiddenName');
    expect(message).toContain('spec.configMaps[1].metadata.name');
    expect(message).toContain('root CA publisher');
    expect(await gone(core.readNamespace({ name: fresh }))).toBe(true);
  });

  it('a running tenant that adds one: ForbiddenName, its children and the published ConfigMap untouched', async () => {
    const before = await published(running);
    const deployment = await apps.readNamespacedDeployment({ name: `${running}-app`, namespace: running });
    const tenant = await readTenant(custom, running);
    await setSpec(custom, running, withConfigMap(tenant, running, ROOT_CA).spec);
    await refusedWith(custom, running, 'ForbiddenName');
    expectPublished(await readConfigMap(running, ROOT_CA), before);
    const now = await apps.readNamespacedDeployment({ name: `${running}-app`, namespace: running });
    expect(now.metadata?.generation).toBe(deployment.metadata?.generation);
    await readConfigMap(running, `${running}-config-0`);
  });

  it('a Shared tenant naming the one in "default": ForbiddenName, that ConfigMap untouched', async () => {
    const before = await published('default');
    await createTenant(custom, withConfigMap(tenantOf(sharer, shared), 'default', ROOT_CA));
    await refusedWith(custom, sharer, 'ForbiddenName');
    expectPublished(await readConfigMap('default', ROOT_CA), before);
    expect(await gone(apps.readNamespacedDeployment({ name: `${sharer}-app`, namespace: 'default' }))).toBe(
      true,
    );
  });

  it('leaves the neighbour alone, and the API server counts no write for 60 s after the attacks', async () => {
    const neighbourBefore = await readTenant(custom, neighbour);
    const { counts: before } = await quietCounts(apiServerAccess(), { timeoutMs: 120_000 });
    await sleep(60_000);
    const after = await requestCounts(apiServerAccess());
    const resources = ['tenants', 'tenants/status', 'deployments', 'configmaps', 'events'];
    expect(writesTo(before, after, resources)).toEqual({});
    const neighbourNow = await readTenant(custom, neighbour);
    expect(neighbourNow.metadata?.resourceVersion).toBe(neighbourBefore.metadata?.resourceVersion);
    await ready(custom, neighbour);
  }, 180_000);
});
