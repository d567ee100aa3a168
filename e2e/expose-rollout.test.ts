// An exposed class's edit reaches every Tenant of the class and writes only what it changes (issue
// 40): 200 PerTenant Tenants of one class with `expose`. A port edit rewrites their 200 Services (one apply each, after a one-time hand-over of what their create wrote) and
// nothing else (no Ingress, Namespace, Deployment or ConfigMap); a host template edit rewrites their
// 200 Ingresses and the 200 namespaces' landlord.dev/hosts annotation, and no Service or Deployment.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GROUP, HOSTS_ANNOTATION, VERSION, type Tenant } from '../api/tenant.js';
import type { ClassExpose, TenantClassSpec } from '../api/tenantclass.js';
import { waitUntil } from '../harness/wait.js';
import { EXPOSE_NAMES } from '../operator/exposure/objects.js';
import { clients, uniqueName } from './support/env.js';
import { createClass, deleteClass, patchClass } from './support/escape.js';
import {
  componentEnv,
  startLandlord,
  verbDelta,
  settledWrites,
  writesByResource,
  writesByVerb,
  type LandlordProcess,
} from './support/landlord.js';
import { createTenant, deleteTenantsLabelled, readyTenants, tenantManifest } from './support/tenants.js';

const { core, custom } = clients();
const id = uniqueName('exroll');
const CLASS = `${id}-web`;
const TENANTS = 200;
const FILE_LABEL = 'e2e.landlord.dev/file';
/** What the operator writes for an exposed PerTenant tenant, besides its status and Events. */
const OBJECT_RESOURCES = [
  'namespaces',
  'serviceaccounts',
  'networkpolicies',
  'deployments',
  'configmaps',
  'services',
  'ingresses',
];
const EXPOSE: ClassExpose = { port: 8080, host: '{name}.apps.example.com', ingressClassName: 'nginx' };
const SPEC: TenantClassSpec = {
  namespace: { mode: 'PerTenant', nameTemplate: '{name}' },
  expose: EXPOSE,
  allowedDomains: ['apps.example.com', 'shop.example.com'],
};
let operator: LandlordProcess;

function tenantOf(name: string): Tenant {
  const tenant = tenantManifest(name, 'default', 1);
  tenant.metadata.labels = { [FILE_LABEL]: id };
  tenant.spec = { ...tenant.spec, class: CLASS };
  return tenant;
}

const names = Array.from({ length: TENANTS }, (_, i) => `${id}-${String(i).padStart(3, '0')}`);

const readyCount = async (): Promise<number> => (await readyTenants(custom, `${FILE_LABEL}=${id}`)).length;

/** The operator's writes by resource, from its own request metrics. */
const operatorWrites = (): Promise<Record<string, number>> => writesByResource(operator, OBJECT_RESOURCES);

/** Once the operator's writes hold still: the delta since `before`, by resource. */
const settledDelta = (before: Record<string, number>): Promise<Record<string, number>> =>
  settledWrites(operator, OBJECT_RESOURCES, before);

const ours = (namespace: string | undefined): boolean => namespace?.startsWith(`${id}-`) === true;

beforeAll(async () => {
  await createClass(custom, CLASS, SPEC);
  operator = startLandlord('operator', componentEnv({ LANDLORD_LOG_LEVEL: 'info' }));
  await operator.ready();
  for (let i = 0; i < names.length; i += 20) {
    await Promise.all(names.slice(i, i + 20).map((n) => createTenant(custom, tenantOf(n))));
  }
  await waitUntil(`${TENANTS} exposed Tenants Ready`, async () => (await readyCount()) === TENANTS, {
    timeoutMs: 600_000,
    intervalMs: 2_000,
  });
});

afterAll(async () => {
  if ((operator as LandlordProcess | undefined) !== undefined) expect(await operator.stop()).toBe(0);
  await deleteTenantsLabelled(custom, `${FILE_LABEL}=${id}`);
  await deleteClass(custom, CLASS);
});

describe(`an edit of an exposed class of ${TENANTS} Tenants`, () => {
  it('a port edit rewrites their Services, one apply each, and nothing else', async () => {
    const before = await operatorWrites();
    const servicesBefore = await writesByVerb(operator, 'services');
    const began = Date.now();
    await patchClass(custom, CLASS, 'expose', { ...EXPOSE, port: 9090 });
    await waitUntil(
      `every Service of ${CLASS} on 9090`,
      async () => {
        const services = (
          await core.listServiceForAllNamespaces({ fieldSelector: `metadata.name=${EXPOSE_NAMES.service}` })
        ).items.filter((s) => ours(s.metadata?.namespace));
        return services.length === TENANTS && services.every((s) => s.spec?.ports?.[0]?.targetPort === 9090);
      },
      { timeoutMs: 300_000, intervalMs: 1_000 },
    );
    const delta = await settledDelta(before);
    console.log(
      `expose-rollout: port edit reached ${TENANTS} Services in ${((Date.now() - began) / 1000).toFixed(1)} s; operator writes by resource ${JSON.stringify(delta)}`,
    );
    // One apply each; the Services were created by POST and this is their first change, so each
    // first hands the create's fields to the operator's Apply entry (one JSON patch, once).
    const services = verbDelta(servicesBefore, await writesByVerb(operator, 'services'));
    expect(services).toEqual({ apply: TENANTS, patch: TENANTS });
    for (const resource of OBJECT_RESOURCES.filter((r) => r !== 'services'))
      expect(delta[resource], resource).toBe(0);
  });

  it('a host template edit rewrites their Ingresses and hosts annotations, and no Service or Deployment', async () => {
    const before = await operatorWrites();
    const changedBefore = await Promise.all(
      ['ingresses', 'namespaces'].map((r) => writesByVerb(operator, r)),
    );
    const began = Date.now();
    await patchClass(custom, CLASS, 'expose', { ...EXPOSE, port: 9090, host: '{name}.shop.example.com' });
    await waitUntil(
      `every namespace of ${CLASS} announcing its new host`,
      async () => {
        const namespaces = (await core.listNamespace()).items.filter((n) => ours(n.metadata?.name));
        return (
          namespaces.length === TENANTS &&
          namespaces.every(
            (n) => n.metadata?.annotations?.[HOSTS_ANNOTATION] === `${n.metadata?.name}.shop.example.com`,
          )
        );
      },
      { timeoutMs: 300_000, intervalMs: 1_000 },
    );
    const delta = await settledDelta(before);
    console.log(
      `expose-rollout: host edit reached ${TENANTS} tenants in ${((Date.now() - began) / 1000).toFixed(1)} s; operator writes by resource ${JSON.stringify(delta)}`,
    );
    // One apply each, after the one-time hand-over of what their create wrote (a JSON patch each).
    const changed = await Promise.all(['ingresses', 'namespaces'].map((r) => writesByVerb(operator, r)));
    expect(changed.map((after, i) => verbDelta(changedBefore[i]!, after))).toEqual([
      { apply: TENANTS, patch: TENANTS },
      { apply: TENANTS, patch: TENANTS },
    ]);
    for (const resource of ['serviceaccounts', 'networkpolicies', 'deployments', 'configmaps', 'services'])
      expect(delta[resource], resource).toBe(0);
    const tenant = (await custom.getClusterCustomObject({
      group: GROUP,
      version: VERSION,
      plural: 'tenants',
      name: names[0]!,
    })) as Tenant;
    expect(tenant.status?.url).toBe(`http://${names[0]}.shop.example.com`);
  });
});
