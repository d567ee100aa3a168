// Issue 55, attack 7: a forged source table. A TenantClass's allowedTables lets in the rows of the
// tables it lists, by the table sync stamps on the Tenant (the landlord.dev/table annotation and the
// landlord.dev/source-table label). Whoever may write Tenants, but not TenantClasses, could put the
// stamp of an allowed table on a hand-made Tenant and get the class (a `privileged` one here).
// Two things stop it (docs/isolation.md, "A forged source table"): the shipped admission policy
// (config/admission, landlord-tenant-source-stamp) lets a write set, change or remove the stamp only
// with the RBAC verb `stamp` on Tenants, which only sync's ClusterRole grants; and, where the policy
// is not installed, the operator trusts the stamp only where sync's field manager owns it.
// Real API server with the shipped policies and RBAC: sync runs as its own ServiceAccount (the
// honest path goes through the policy), the operator as the test's admin, and the forger is a user
// (impersonated) bound to a ClusterRole that may write Tenants and nothing else.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { V1Deployment } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sourceTableLabel } from '../api/table-identity.js';
import { ANNOTATION, CONDITION, FIELD_MANAGER, LABEL, type Tenant } from '../api/tenant.js';
import { waitUntil } from '../harness/wait.js';
import { asServiceAccount, config, SYSTEM } from './support/deploy.js';
import { clients, uniqueName } from './support/env.js';
import { createClass, deleteClass, refusedWith, tenantOf } from './support/escape.js';
import { kubectl, kubectlAttempt } from './support/kubectl.js';
import { componentEnv, startLandlord, type LandlordProcess } from './support/landlord.js';
import { canI, serviceAccountKubeconfig, serviceAccountUser } from './support/service-account.js';
import { createTable, deleteSyncedTenants, putRow, readTenant, verbatimRow } from './support/sync.js';
import { condition, deleteTenant } from './support/tenants.js';

const { apps, custom } = clients();
const id = uniqueName('ft');
const table = `${id}-table`;
/** The class meant for the table's rows only: privileged Pod Security. */
const restricted = `${id}-priv`;
const forger = `${id}-forger`;
const [honest, forged, managerForged, labelled, plain, unguarded] = [
  'honest',
  'forged',
  'manager',
  'label',
  'plain',
  'unguarded',
].map((s) => `${id}-${s}`) as [string, string, string, string, string, string];
let sync: LandlordProcess;
let operator: LandlordProcess;
let manifests: string;

/** May write Tenants (no TenantClasses, no `stamp`), as a platform gives a team or a pipeline. */
const writerRole = {
  apiVersion: 'rbac.authorization.k8s.io/v1',
  kind: 'ClusterRole',
  metadata: { name: `${id}-tenant-writer` },
  rules: [
    {
      apiGroups: ['landlord.dev'],
      resources: ['tenants'],
      verbs: ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete'],
    },
  ],
};

const writerBinding = {
  apiVersion: 'rbac.authorization.k8s.io/v1',
  kind: 'ClusterRoleBinding',
  metadata: { name: `${id}-tenant-writer` },
  roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: `${id}-tenant-writer` },
  subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: forger }],
};

/** Runs kubectl `verb` on `body` with `flags`: undefined when allowed, else kubectl's error. */
const attempt = (verb: string[], body: object, flags: string[] = []): Promise<string | undefined> =>
  kubectlAttempt(manifests, verb, body, flags);

/** kubectl as the forger: undefined when allowed, else kubectl's error. */
async function asForger(...args: string[]): Promise<string | undefined> {
  try {
    await kubectl(...args, `--as=${forger}`);
    return undefined;
  } catch (err) {
    return String((err as { stderr?: string }).stderr ?? err);
  }
}

/** A hand-made Tenant of the restricted class, with the stamp of the allowed table (or part of it). */
function stamped(
  name: string,
  stamp: { annotation?: boolean; label?: boolean } = { annotation: true },
): Tenant {
  const tenant = tenantOf(name, restricted);
  if (stamp.annotation === true) tenant.metadata.annotations = { [ANNOTATION.table]: table };
  if (stamp.label === true) tenant.metadata.labels = { [LABEL.sourceTable]: sourceTableLabel(table) };
  return tenant;
}

const STAMP_REFUSED = /only landlord sync may set, change or remove the\s+annotation landlord\.dev\/table/;

/** The policy is in force when the forger's dry-run of a stamped Tenant is refused by it. */
async function policyInForce(inForce: boolean): Promise<void> {
  await waitUntil(
    `the stamp policy to be ${inForce ? 'in force' : 'gone'}`,
    async () => {
      const refused = await attempt(['create', '--dry-run=server'], stamped(`${id}-probe`), [
        `--as=${forger}`,
      ]);
      return (refused !== undefined && STAMP_REFUSED.test(refused)) === inForce || undefined;
    },
    { timeoutMs: 60_000 },
  );
}

const deploymentOf = (name: string): Promise<V1Deployment> =>
  apps.readNamespacedDeployment({ name: `${name}-app`, namespace: 'default' });

/** Waits until the Tenant runs under the restricted class. */
function underRestricted(name: string): Promise<Tenant> {
  return waitUntil(
    `Tenant ${name} Ready under TenantClass ${restricted}`,
    async () => {
      const tenant = await readTenant(name);
      const ready = tenant === undefined ? undefined : condition(tenant, CONDITION.ready);
      return ready?.status === 'True' && tenant?.status?.class === restricted ? tenant : undefined;
    },
    { timeoutMs: 120_000, intervalMs: 250 },
  );
}

beforeAll(async () => {
  manifests = await mkdtemp(join(tmpdir(), 'landlord-forged-'));
  await Promise.all([
    kubectl('apply', '--server-side', '-k', config('admission')),
    kubectl('apply', '--server-side', '-k', config('rbac')),
    createClass(custom, restricted, {
      namespace: { mode: 'Shared' },
      podSecurity: 'privileged',
      allowedTables: [table],
    }),
    createTable(table),
  ]);
  expect(await attempt(['apply', '--server-side'], writerRole)).toBeUndefined();
  expect(await attempt(['apply', '--server-side'], writerBinding)).toBeUndefined();
  const kubeconfig = await serviceAccountKubeconfig(SYSTEM, 'landlord-sync');
  sync = startLandlord(
    'sync',
    asServiceAccount(kubeconfig, {
      DYNAMODB_TABLE: table,
      LANDLORD_SYNC_RESYNC_SECONDS: '5',
      LANDLORD_LEADER_ELECTION: 'false',
    }),
  );
  operator = startLandlord('operator', componentEnv({ LANDLORD_LOG_LEVEL: 'info' }));
  await Promise.all([sync.ready(), operator.ready(), policyInForce(true)]);
});

afterAll(async () => {
  expect(await sync?.stop()).toBe(0);
  expect(await operator?.stop()).toBe(0);
  await deleteSyncedTenants(table).catch(() => undefined);
  for (const name of [forged, managerForged, labelled, plain, unguarded])
    await deleteTenant(custom, name).catch(() => undefined);
  await deleteClass(custom, restricted);
  await kubectl('delete', 'clusterrolebinding,clusterrole', `${id}-tenant-writer`, '--ignore-not-found');
  await kubectl('delete', '-k', config('admission'), '--ignore-not-found');
  await rm(manifests, { recursive: true, force: true });
});

describe('who holds the verb the policy asks for', () => {
  it('sync’s ServiceAccount only: not the operator’s, not a user who may write Tenants', async () => {
    const stamp = ['stamp', 'tenants.landlord.dev'];
    expect(await canI(serviceAccountUser(SYSTEM, 'landlord-sync'), stamp)).toBe(true);
    expect(await canI(serviceAccountUser(SYSTEM, 'landlord-operator'), stamp)).toBe(false);
    expect(await canI(forger, stamp)).toBe(false);
    expect(await canI(forger, ['create', 'tenants.landlord.dev'])).toBe(true);
    expect(await canI(forger, ['create', 'tenantclasses.landlord.dev'])).toBe(false);
  });
});

describe('the honest path, through the policy', () => {
  it('a row sync made, stamped by sync as its ServiceAccount, gets the restricted class', async () => {
    await putRow(table, { ...verbatimRow(honest), class: restricted });
    const tenant = await underRestricted(honest);
    expect(tenant.metadata.annotations?.[ANNOTATION.table]).toBe(table);
    expect(tenant.metadata.labels?.[LABEL.sourceTable]).toBe(sourceTableLabel(table));
    expect(tenant.metadata.managedFields?.some((e) => e.manager === FIELD_MANAGER.sync)).toBe(true);
    expect((await deploymentOf(honest)).metadata?.name).toBe(`${honest}-app`);
  });
});

describe('the forger, with the shipped policy installed', () => {
  it('cannot create a Tenant with the allowed table’s annotation: refused, saying why', async () => {
    const refused = await attempt(['create'], stamped(forged), [`--as=${forger}`]);
    expect(refused).toMatch(STAMP_REFUSED);
    expect(refused).toContain(`${forger} lacks the RBAC verb stamp on tenants.landlord.dev`);
    expect(await readTenant(forged)).toBeUndefined();
  });

  it('nor by naming sync’s field manager: the policy asks who sends the request, not what it says', async () => {
    const refused = await attempt(
      ['create', `--field-manager=${FIELD_MANAGER.sync}`],
      stamped(managerForged),
      [`--as=${forger}`],
    );
    expect(refused).toMatch(STAMP_REFUSED);
    const applied = await attempt(
      ['apply', '--server-side', `--field-manager=${FIELD_MANAGER.sync}`],
      stamped(managerForged),
      [`--as=${forger}`],
    );
    expect(applied).toMatch(STAMP_REFUSED);
    expect(await readTenant(managerForged)).toBeUndefined();
  });

  it('nor with the source-table label alone', async () => {
    const refused = await attempt(['create'], stamped(labelled, { label: true }), [`--as=${forger}`]);
    expect(refused).toMatch(STAMP_REFUSED);
    expect(await readTenant(labelled)).toBeUndefined();
  });

  it('may make a Tenant without the stamp, which the class refuses (ClassNotAllowed), and cannot stamp it after', async () => {
    expect(await attempt(['create'], stamped(plain, {}), [`--as=${forger}`])).toBeUndefined();
    const message = await refusedWith(custom, plain, 'ClassNotAllowed');
    expect(message).toContain(`no ${ANNOTATION.table} annotation`);
    const annotated = await asForger('annotate', 'tenant', plain, `${ANNOTATION.table}=${table}`);
    expect(annotated).toMatch(STAMP_REFUSED);
    const labelledAfter = await asForger(
      'label',
      'tenant',
      plain,
      `${LABEL.sourceTable}=${sourceTableLabel(table)}`,
    );
    expect(labelledAfter).toMatch(STAMP_REFUSED);
    expect((await readTenant(plain))?.metadata.annotations?.[ANNOTATION.table]).toBeUndefined();
  });

  it('cannot change or remove the stamp of a Tenant sync made, but may write what leaves it as it was', async () => {
    expect(await asForger('annotate', '--overwrite', 'tenant', honest, `${ANNOTATION.table}=other`)).toMatch(
      STAMP_REFUSED,
    );
    expect(await asForger('annotate', 'tenant', honest, `${ANNOTATION.table}-`)).toMatch(STAMP_REFUSED);
    expect(await asForger('label', 'tenant', honest, `${LABEL.sourceTable}-`)).toMatch(STAMP_REFUSED);
    expect(await asForger('label', 'tenant', honest, 'team=blue')).toBeUndefined();
    const tenant = await readTenant(honest);
    expect(tenant?.metadata.annotations?.[ANNOTATION.table]).toBe(table);
    expect(tenant?.metadata.labels?.team).toBe('blue');
    expect(tenant?.status?.class).toBe(restricted);
  });
});

describe('the forger, where the policy is not installed', () => {
  beforeAll(async () => {
    await kubectl('delete', 'validatingadmissionpolicybinding', 'landlord-tenant-source-stamp');
    await policyInForce(false);
  });

  it('creates the Tenant with the allowed table’s annotation, and the operator does not grant the class: ClassNotAllowed', async () => {
    expect(await attempt(['create'], stamped(unguarded), [`--as=${forger}`])).toBeUndefined();
    const message = await refusedWith(custom, unguarded, 'ClassNotAllowed');
    expect(message).toContain(`${ANNOTATION.table} annotation was not written by landlord sync`);
    expect(message).not.toContain(`table ${table}`);
    const tenant = await readTenant(unguarded);
    expect(tenant?.metadata.annotations?.[ANNOTATION.table]).toBe(table);
    expect(tenant?.status?.class).toBeUndefined();
    await expect(deploymentOf(unguarded)).rejects.toMatchObject({ code: 404 });
  });

  it('left the tenant sync made under its class', async () => {
    await underRestricted(honest);
  });
});
