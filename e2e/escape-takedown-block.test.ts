// Issue 55, attack 6: a tenant team blocks its own takedown. With `edit` in its namespace the team
// removed the ownerReference from one of landlord's objects there (the ServiceAccount, the
// NetworkPolicy); every reconcile then stopped at Conflict, so `archived` never took effect. Two
// things stop it (docs/isolation.md, "A tenant team blocks its own takedown"): the shipped
// admission policy landlord-tenant-managed-objects refuses any write or delete of an object
// labelled as the operator's in a tenant namespace by anyone but landlord and Kubernetes'
// controllers, and, where it is not installed, the operator takes back an object it made that lost
// its owner (or prunes it) instead of refusing it, so the takedown completes.
// Real API server with the shipped policies; the operator runs as the test's admin, the team is
// the impersonated group `<tenant>-devs`, bound to `edit` by the class.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { KubernetesObject } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONDITION, LABEL, MANAGED_BY, type Tenant } from '../api/tenant.js';
import { waitUntil } from '../harness/wait.js';
import { config } from './support/deploy.js';
import { clients, uniqueName } from './support/env.js';
import { createClass, deleteClass, ready, tenantOf } from './support/escape.js';
import { kubectl } from './support/kubectl.js';
import { componentEnv, startLandlord, type LandlordProcess } from './support/landlord.js';
import { createTenant, deleteTenant, waitForCondition } from './support/tenants.js';

const { apps, custom } = clients();
const id = uniqueName('tdb');
const className = `${id}-class`;
const tenant = `${id}-t`;
const POLICY = 'landlord-tenant-managed-objects';
let operator: LandlordProcess;
let manifests: string;
let namespace: string;
let uid: string;

/** A member of the tenant's team: user `dev` in group `<tenant>-devs`, which holds `edit`. */
const AS_DEV = ['--as=dev', `--as-group=${tenant}-devs`];

/** Runs kubectl as the team: undefined when allowed, else its error output. */
async function asDev(...args: string[]): Promise<string | undefined> {
  try {
    await kubectl(...args, ...AS_DEV, '-n', namespace);
    return undefined;
  } catch (err) {
    return String((err as { stderr?: string }).stderr ?? err);
  }
}

/** Creates `body` as the team. */
async function createAsDev(body: object): Promise<string | undefined> {
  const file = join(manifests, `${uniqueName('m')}.json`);
  await writeFile(file, JSON.stringify(body));
  return asDev('create', '-f', file);
}

const STRIP = ['--type=json', '-p', '[{"op":"remove","path":"/metadata/ownerReferences"}]'];

/** The name of landlord's only object of `resource` in the tenant's namespace. */
async function landlordsOne(resource: string): Promise<string> {
  const out = await kubectl(
    'get',
    resource,
    '-n',
    namespace,
    '-l',
    `${LABEL.tenant}=${tenant}`,
    '-o',
    'name',
  );
  const names = out.trim().split('\n').filter(Boolean);
  expect(names).toHaveLength(1);
  return names[0]!;
}

async function read(name: string): Promise<KubernetesObject> {
  return JSON.parse(await kubectl('get', name, '-n', namespace, '-o', 'json')) as KubernetesObject;
}

const controllerUid = (obj: KubernetesObject): string | undefined =>
  obj.metadata?.ownerReferences?.find((o) => o.controller === true)?.uid;

beforeAll(async () => {
  manifests = await mkdtemp(join(tmpdir(), 'landlord-takedown-'));
  // The policies first: the operator makes the tenant through them.
  await kubectl('apply', '--server-side', '-k', config('admission'));
  await createClass(custom, className, {
    namespace: { mode: 'PerTenant', nameTemplate: 'tenant-{name}' },
    rbac: [{ group: '{name}-devs', clusterRole: 'edit' }],
  });
  operator = startLandlord(
    'operator',
    componentEnv({ LANDLORD_LOG_LEVEL: 'info', LANDLORD_OPERATOR_RESYNC_SECONDS: '10' }),
  );
  await operator.ready();
  await createTenant(custom, tenantOf(tenant, className));
  const made: Tenant = await ready(custom, tenant);
  namespace = made.status!.namespace!;
  uid = made.metadata.uid!;
  // In force once the team's delete of landlord's NetworkPolicy is refused (a dry run).
  const policy = await landlordsOne('networkpolicies');
  await waitUntil(
    'the admission policies to be in force',
    async () => (await asDev('delete', policy, '--dry-run=server'))?.includes(POLICY) || undefined,
    { timeoutMs: 60_000 },
  );
});

afterAll(async () => {
  await deleteTenant(custom, tenant).catch(() => undefined);
  expect(await operator?.stop()).toBe(0);
  await deleteClass(custom, className);
  await kubectl('delete', '-k', config('admission'), '--ignore-not-found');
  await rm(manifests, { recursive: true, force: true });
});

describe('with the shipped admission policies', () => {
  it('leaves the team its own work in its namespace, and landlord and Kubernetes theirs', async () => {
    const own = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'team-notes' }, data: { a: '1' } };
    expect(await createAsDev(own)).toBeUndefined();
    expect(await asDev('label', 'configmap', 'team-notes', 'owner=team')).toBeUndefined();
    expect(await asDev('delete', 'configmap', 'team-notes')).toBeUndefined();
    // The operator made every child through the policy, and the deployment controller wrote the
    // Deployment's revision on it.
    const deployment = await apps.readNamespacedDeployment({ name: `${tenant}-app`, namespace });
    expect(deployment.metadata?.annotations?.['deployment.kubernetes.io/revision']).toBe('1');
  });

  it.each(['serviceaccounts', 'networkpolicies'])(
    "refuses the team's removal of the ownerReference of landlord's %s",
    async (resource) => {
      const name = await landlordsOne(resource);
      const error = await asDev('patch', name, ...STRIP);
      expect(error).toContain(`ValidatingAdmissionPolicy '${POLICY}'`);
      expect(error).toContain('only landlord may update');
      expect(controllerUid(await read(name))).toBe(uid);
    },
  );

  it("refuses the team's delete of landlord's NetworkPolicy and Deployment", async () => {
    for (const name of [await landlordsOne('networkpolicies'), `deployment/${tenant}-app`]) {
      const error = await asDev('delete', name);
      expect(error).toContain(`ValidatingAdmissionPolicy '${POLICY}'`);
      expect(error).toContain('only landlord may delete');
    }
  });

  it("refuses an object the team makes with landlord's labels, which the operator would take for its own", async () => {
    const forged = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: {
        name: 'forged',
        labels: { [LABEL.managedBy]: MANAGED_BY.operator, [LABEL.tenant]: tenant },
      },
    };
    const error = await createAsDev(forged);
    expect(error).toContain(`ValidatingAdmissionPolicy '${POLICY}'`);
    expect(error).toContain('only landlord may create');
    // Nor may the team put the label on an object of its own afterwards.
    expect(await createAsDev({ ...forged, metadata: { name: 'relabelled' } })).toBeUndefined();
    const relabel = await asDev(
      'label',
      'configmap',
      'relabelled',
      `${LABEL.managedBy}=${MANAGED_BY.operator}`,
    );
    expect(relabel).toContain(`ValidatingAdmissionPolicy '${POLICY}'`);
  });
});

describe('without the policy: the operator completes the takedown', () => {
  it('archives a tenant whose team stripped the ownerReferences of its objects, and takes them back', async () => {
    await kubectl('delete', 'validatingadmissionpolicybinding', POLICY);
    const account = await landlordsOne('serviceaccounts');
    const policy = await landlordsOne('networkpolicies');
    // The binding's removal reaches the API server's admission a moment later.
    await waitUntil(
      'the team to strip the ServiceAccount',
      async () => (await asDev('patch', account, ...STRIP)) === undefined || undefined,
      {
        timeoutMs: 60_000,
      },
    );
    expect(await asDev('patch', policy, ...STRIP)).toBeUndefined();
    await custom.patchClusterCustomObject({
      group: 'landlord.dev',
      version: 'v1alpha1',
      plural: 'tenants',
      name: tenant,
      body: [{ op: 'add', path: '/spec/state', value: 'archived' }],
    });
    const archived = await waitForCondition(
      custom,
      tenant,
      { type: CONDITION.ready, status: 'False', reason: 'Archived' },
      90_000,
    );
    expect(archived.status?.state).toBe('archived');
    await waitUntil(
      'the Deployment to be pruned',
      async () => {
        const out = await kubectl('get', 'deployments', '-n', namespace, '-o', 'name');
        return out.trim() === '' || undefined;
      },
      { timeoutMs: 60_000 },
    );
    // Taken back: the apply named the Tenant as controller again.
    for (const name of [account, policy]) expect(controllerUid(await read(name))).toBe(uid);
  });
});
