// A TenantClass edit reaches every Tenant of the class, and costs a write only where a Tenant's
// objects change (issue 12): 200 PerTenant Tenants of one class and 20 of another; raising the
// first class's quota rewrites 200 ResourceQuotas and nothing else: no Namespace, ServiceAccount,
// NetworkPolicy, Deployment or ConfigMap, and nothing at all of the other class's 20. Dropping a limit
// then removes it from every quota (the create's fields handed to the Apply entry first).
import { isDeepStrictEqual } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GROUP, VERSION, type Tenant } from '../api/tenant.js';
import { CLASS_PLURAL, type TenantClassSpec } from '../api/tenantclass.js';
import { waitUntil } from '../harness/wait.js';
import { clients, uniqueName } from './support/env.js';
import { kubectl } from './support/kubectl.js';
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
const id = uniqueName('rollout');
const EDITED = `${id}-edited`;
const OTHER = `${id}-other`;
const EDITED_TENANTS = 200;
const OTHER_TENANTS = 20;
const FILE_LABEL = 'e2e.landlord.dev/file';
const classes = { group: GROUP, version: VERSION, plural: CLASS_PLURAL };
/** Resources the operator writes for a PerTenant tenant, besides its status and Events. */
const OBJECT_RESOURCES = [
  'namespaces',
  'serviceaccounts',
  'resourcequotas',
  'limitranges',
  'networkpolicies',
  'rolebindings',
  'deployments',
  'configmaps',
];
let operator: LandlordProcess;

const classSpec = (pods: string): TenantClassSpec => ({
  namespace: { mode: 'PerTenant', nameTemplate: '{name}' },
  resourceQuota: { hard: { pods, services: '3' } },
});

function tenantOf(name: string, className: string): Tenant {
  const tenant = tenantManifest(name, 'default', 1);
  tenant.metadata.labels = { [FILE_LABEL]: id };
  tenant.spec = { ...tenant.spec, class: className };
  return tenant;
}

const names = (prefix: string, count: number): string[] =>
  Array.from({ length: count }, (_, i) => `${prefix}-${String(i).padStart(3, '0')}`);

async function createAll(tenants: readonly Tenant[]): Promise<void> {
  for (let i = 0; i < tenants.length; i += 20) {
    await Promise.all(tenants.slice(i, i + 20).map((t) => createTenant(custom, t)));
  }
}

const readyCount = async (): Promise<number> => (await readyTenants(custom, `${FILE_LABEL}=${id}`)).length;

/** What the operator writes: the tenants' objects, their status and Events. */
const WRITTEN_RESOURCES = [...OBJECT_RESOURCES, 'tenants/status', 'events'];

/** The operator's writes by resource, from its own request metrics. */
const operatorWrites = (): Promise<Record<string, number>> => writesByResource(operator, WRITTEN_RESOURCES);

/** The limits of every quota in the edited class's namespaces. */
async function editedQuotas(): Promise<Record<string, string>[]> {
  const quotas = await core.listResourceQuotaForAllNamespaces({
    fieldSelector: 'metadata.name=landlord-quota',
  });
  return quotas.items
    .filter((q) => q.metadata?.namespace?.startsWith(`${EDITED}-`) === true)
    .map((q) => q.spec?.hard ?? {});
}

/** Patches the edited class and waits until every quota of it says `hard`; the operator's writes since. */
async function editClass(patch: object, hard: Record<string, string>): Promise<Record<string, number>> {
  const before = await operatorWrites();
  const began = Date.now();
  await kubectl('patch', 'tenantclass', EDITED, '--type', 'merge', '-p', JSON.stringify({ spec: patch }));
  await waitUntil(
    `every quota of ${EDITED} at ${JSON.stringify(hard)}`,
    async () => {
      const quotas = await editedQuotas();
      return quotas.length === EDITED_TENANTS && quotas.every((q) => isDeepStrictEqual(q, hard));
    },
    // Within the test's own timeout, so that a quota left behind is named as such.
    { timeoutMs: 240_000, intervalMs: 1_000 },
  );
  const delta = await settledWrites(operator, WRITTEN_RESOURCES, before);
  console.log(
    `tenantclass-rollout: ${EDITED_TENANTS} quotas rewritten in ${((Date.now() - began) / 1000).toFixed(1)} s; operator writes by resource ${JSON.stringify(delta)}`,
  );
  return delta;
}

beforeAll(async () => {
  for (const [name, spec] of [
    [EDITED, classSpec('4')],
    [OTHER, classSpec('4')],
  ] as const) {
    await custom.createClusterCustomObject({
      ...classes,
      body: { apiVersion: `${GROUP}/${VERSION}`, kind: 'TenantClass', metadata: { name }, spec },
    });
  }
  operator = startLandlord('operator', componentEnv({ LANDLORD_LOG_LEVEL: 'info' }));
  await operator.ready();
  await createAll([
    ...names(EDITED, EDITED_TENANTS).map((n) => tenantOf(n, EDITED)),
    ...names(OTHER, OTHER_TENANTS).map((n) => tenantOf(n, OTHER)),
  ]);
  await waitUntil(
    `${EDITED_TENANTS + OTHER_TENANTS} PerTenant Tenants Ready`,
    async () => (await readyCount()) === EDITED_TENANTS + OTHER_TENANTS,
    { timeoutMs: 600_000, intervalMs: 2_000 },
  );
});

afterAll(async () => {
  expect(await operator.stop()).toBe(0);
  await deleteTenantsLabelled(custom, `${FILE_LABEL}=${id}`);
  for (const name of [EDITED, OTHER]) await custom.deleteClusterCustomObject({ ...classes, name });
});

describe(`a quota edit of a class of ${EDITED_TENANTS} PerTenant Tenants`, () => {
  it('rewrites their quotas, one apply each, and nothing else of theirs or of another class', async () => {
    const quotasBefore = await writesByVerb(operator, 'resourcequotas');
    const delta = await editClass({ resourceQuota: { hard: { pods: '5' } } }, { pods: '5', services: '3' });
    // One apply each. The quotas were created by POST, and the create's entry still owns their
    // fields; the apply names every one of them, so it leaves none behind and needs no hand-over.
    const quotas = verbDelta(quotasBefore, await writesByVerb(operator, 'resourcequotas'));
    expect(quotas).toEqual({ apply: EDITED_TENANTS });
    for (const resource of OBJECT_RESOURCES.filter((r) => r !== 'resourcequotas')) {
      expect(delta[resource], resource).toBe(0);
    }
    // The other class's quotas were not touched: still the 4 pods they were made with.
    const others = await core.listResourceQuotaForAllNamespaces({
      fieldSelector: 'metadata.name=landlord-quota',
    });
    const otherPods = others.items
      .filter((q) => q.metadata?.namespace?.startsWith(`${OTHER}-`) === true)
      .map((q) => q.spec?.hard?.pods);
    expect(otherPods).toEqual(Array.from({ length: OTHER_TENANTS }, () => '4'));
  });

  it('removes a limit the class drops, though the create wrote it: the hand-over comes first then', async () => {
    const quotasBefore = await writesByVerb(operator, 'resourcequotas');
    await editClass({ resourceQuota: { hard: { services: null } } }, { pods: '5' });
    // The create's entry still owned `services` beside the Apply entry (the edit above named it as
    // it was): without the hand-over, this apply would have left it in place.
    const quotas = verbDelta(quotasBefore, await writesByVerb(operator, 'resourcequotas'));
    expect(quotas).toEqual({ apply: EDITED_TENANTS, patch: EDITED_TENANTS });
  });
});
