// Issue 37, class 4, under the class landlord ships (config/classes/standard.yaml, installed here by
// another name so it is not the cluster's default): its quota covers disk and claims, its
// LimitRange gives every container an ephemeral-storage request and limit, and an emptyDir the row
// leaves unbounded gets the class's size. Attacks on a running tenant, each refused with its own
// reason while its last valid Deployment keeps running and the neighbour is untouched: a node
// pinned by its hostname label (nodeSelector, NotIn in a preferred term) or by name (NotIn in
// matchFields), a day of termination grace, an emptyDir larger than the class allows, a generic
// ephemeral volume, and activeDeadlineSeconds, which the API server itself refuses on a Deployment.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { V1Deployment, V1PodSpec } from '@kubernetes/client-node';
import { load } from 'js-yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Tenant } from '../api/tenant.js';
import type { TenantClass } from '../api/tenantclass.js';
import { repoRoot } from '../harness/paths.js';
import { waitUntil } from '../harness/wait.js';
import { clients, uniqueName } from './support/env.js';
import { createClass, deleteClass, ready, refusedWith, tenantOf } from './support/escape.js';
import { componentEnv, startLandlord, type LandlordProcess } from './support/landlord.js';
import { createTenant, deleteTenant, readTenant, setSpec } from './support/tenants.js';

const { apps, core, custom } = clients();
const id = uniqueName('place');
const standard = `${id}-standard`;
const [tenant, neighbour] = [`${id}-t`, `${id}-n`];
const HOSTNAME = 'kubernetes.io/hostname';
let operator: LandlordProcess;

/** The shipped class's namespace template: `tenant-` and the tenant's name. */
const namespaceOf = (name: string): string => `tenant-${name}`;

const deploymentOf = (name: string): Promise<V1Deployment> =>
  apps.readNamespacedDeployment({ name: `${name}-app`, namespace: namespaceOf(name) });

/** The spec the tenant last had applied, kept so that each attack changes one thing of it. */
let lastValid: Tenant['spec'];

/** The last valid spec (the current one before any attack) with its pod spec changed by `tweak`. */
async function withPod(tweak: (pod: V1PodSpec) => void): Promise<Tenant['spec']> {
  const spec = structuredClone(lastValid ?? (await readTenant(custom, tenant)).spec!);
  tweak(spec.deployment!.spec!.template.spec!);
  return spec;
}

beforeAll(async () => {
  const shipped = load(
    readFileSync(join(repoRoot, 'config', 'classes', 'standard.yaml'), 'utf8'),
  ) as TenantClass;
  await createClass(custom, standard, shipped.spec ?? {});
  operator = startLandlord('operator', componentEnv({ LANDLORD_LOG_LEVEL: 'info' }));
  await operator.ready();
  await Promise.all([tenant, neighbour].map((name) => createTenant(custom, tenantOf(name, standard))));
  await Promise.all([tenant, neighbour].map((name) => ready(custom, name)));
});

afterAll(async () => {
  expect(await operator.stop()).toBe(0);
  await Promise.all([tenant, neighbour].map((name) => deleteTenant(custom, name).catch(() => undefined)));
  await deleteClass(custom, standard);
});

describe('the shipped class holds disk and claims', () => {
  it('quotas ephemeral-storage, claims and storage', async () => {
    const quota = await core.readNamespacedResourceQuota({
      name: 'landlord-quota',
      namespace: namespaceOf(tenant),
    });
    expect(Object.keys(quota.spec?.hard ?? {})).toEqual(
      expect.arrayContaining([
        'requests.ephemeral-storage',
        'limits.ephemeral-storage',
        'persistentvolumeclaims',
        'requests.storage',
      ]),
    );
  });

  it('gives every container an ephemeral-storage request and limit, and the pods still run', async () => {
    const pods = await waitUntil(
      `a running pod in ${namespaceOf(tenant)}`,
      async () => {
        const items = (await core.listNamespacedPod({ namespace: namespaceOf(tenant) })).items;
        return items.some((p) => p.status?.phase === 'Running') ? items : undefined;
      },
      { timeoutMs: 90_000 },
    );
    expect(pods[0]?.spec?.containers[0]?.resources).toMatchObject({
      requests: { 'ephemeral-storage': '256Mi' },
      limits: { 'ephemeral-storage': '1Gi' },
    });
  });

  it("sets the class's size on an emptyDir the row leaves unbounded", async () => {
    const spec = await withPod((pod) => {
      pod.volumes = [{ name: 'scratch', emptyDir: {} }];
    });
    await setSpec(custom, tenant, spec);
    await ready(custom, tenant);
    lastValid = spec;
    const volumes = (await deploymentOf(tenant)).spec?.template.spec?.volumes;
    expect(volumes).toEqual([{ name: 'scratch', emptyDir: { sizeLimit: '1Gi' } }]);
  });
});

const ATTACKS: [string, string, (pod: V1PodSpec) => void, string][] = [
  [
    'a node by its hostname label',
    'PlacementNotAllowed',
    (pod) => (pod.nodeSelector = { [HOSTNAME]: 'kwok-node-0' }),
    'hostname label',
  ],
  [
    'a node by excluding the others (NotIn hostname, preferred)',
    'PlacementNotAllowed',
    (pod) =>
      (pod.affinity = {
        nodeAffinity: {
          preferredDuringSchedulingIgnoredDuringExecution: [
            {
              weight: 1,
              preference: { matchExpressions: [{ key: HOSTNAME, operator: 'NotIn', values: ['other'] }] },
            },
          ],
        },
      }),
    'preference.matchExpressions[0]',
  ],
  [
    'a node by name (NotIn matchFields)',
    'PlacementNotAllowed',
    (pod) =>
      (pod.affinity = {
        nodeAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: {
            nodeSelectorTerms: [
              { matchFields: [{ key: 'metadata.name', operator: 'NotIn', values: ['other'] }] },
            ],
          },
        },
      }),
    'matchFields[0]',
  ],
  [
    'a day of termination grace',
    'LimitExceeded',
    (pod) => (pod.terminationGracePeriodSeconds = 86_400),
    'maxTerminationGracePeriodSeconds of 300',
  ],
  [
    'an emptyDir over the class maximum',
    'LimitExceeded',
    (pod) => (pod.volumes = [{ name: 'scratch', emptyDir: { sizeLimit: '500Gi' } }]),
    'maxEmptyDirSizeLimit of 8Gi',
  ],
  [
    'a generic ephemeral volume',
    'VolumeNotAllowed',
    (pod) =>
      (pod.volumes = [
        {
          name: 'claim',
          ephemeral: {
            volumeClaimTemplate: {
              spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Ti' } } },
            },
          },
        },
      ]),
    'volumes[0].ephemeral',
  ],
  ['an active deadline', 'InvalidSpec', (pod) => (pod.activeDeadlineSeconds = 60), 'activeDeadlineSeconds'],
];

describe('attacks on a running tenant', () => {
  it.each(ATTACKS)('%s: %s, the last valid Deployment stays', async (_name, reason, tweak, says) => {
    const before = await deploymentOf(tenant);
    await setSpec(custom, tenant, await withPod(tweak));
    expect(await refusedWith(custom, tenant, reason)).toContain(says);
    const after = await deploymentOf(tenant);
    expect(after.metadata?.generation).toBe(before.metadata?.generation);
    expect(after.spec?.template.spec).toEqual(before.spec?.template.spec);
  });

  it('activeDeadlineSeconds is refused by the API server itself on a Deployment', async () => {
    const deployment = structuredClone(await deploymentOf(neighbour));
    const body: V1Deployment = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: `${id}-deadline`, namespace: namespaceOf(neighbour) },
      spec: {
        ...deployment.spec!,
        template: {
          ...deployment.spec!.template,
          spec: { ...deployment.spec!.template.spec!, activeDeadlineSeconds: 60 },
        },
      },
    };
    const error = await apps
      .createNamespacedDeployment({ namespace: namespaceOf(neighbour), body, dryRun: 'All' })
      .then(
        () => undefined,
        (err: { code?: number; body?: unknown }) => err,
      );
    expect(error?.code).toBe(422);
    expect(String(error?.body)).toContain('activeDeadlineSeconds');
  });

  it('leaves the neighbour as it was', async () => {
    const seen = await ready(custom, neighbour);
    expect(seen.metadata?.generation).toBe(1);
    expect((await deploymentOf(neighbour)).metadata?.generation).toBe(1);
  });
});
