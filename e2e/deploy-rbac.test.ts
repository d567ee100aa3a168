// Deploying landlord: each component runs under its own ServiceAccount's token, with config/rbac
// (and the purger's config/purger/rbac.yaml) applied to the real API server: what its RBAC allows
// is enough, and not more. Then the operator
// alone, with Deployment and ConfigMap rights in its allowed namespace only, as docs/deploying.md
// describes.
import { PutItemCommand } from '@aws-sdk/client-dynamodb';
import { CoordinationV1Api, RbacAuthorizationV1Api } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sourceTableLabel } from '../api/table-identity.js';
import {
  ANNOTATION,
  CONDITION,
  FIELD_MANAGER,
  GROUP,
  LABEL,
  MANAGED_BY,
  PLURAL,
  VERSION,
} from '../api/tenant.js';
import { CLASS_API_VERSION, CLASS_KIND, CLASS_PLURAL } from '../api/tenantclass.js';
import {
  countPartition,
  createDataTable,
  deleteDataTable,
  loadPartitions,
  type DataTableShape,
} from '../harness/data-table.js';
import { waitUntil } from '../harness/wait.js';
import { asServiceAccount, config, forbidden, gone, sampleTable, seedRow, SYSTEM } from './support/deploy.js';
import { dynamoClient } from './support/dynamo.js';
import { clients, uniqueName } from './support/env.js';
import { kubectl } from './support/kubectl.js';
import { startLandlord, type LandlordProcess } from './support/landlord.js';
import { canI, serviceAccountKubeconfig, serviceAccountUser } from './support/service-account.js';
import {
  createTenant,
  deleteTenant,
  readTenant,
  setSpec,
  tenantManifest,
  waitForCondition,
} from './support/tenants.js';

const { core, apps, custom, kc } = clients();
const coordination = kc.makeApiClient(CoordinationV1Api);

const operatorUser = serviceAccountUser(SYSTEM, 'landlord-operator');
const syncUser = serviceAccountUser(SYSTEM, 'landlord-sync');
const purgerUser = serviceAccountUser(SYSTEM, 'landlord-purger');
const USERS: Record<string, string> = { operator: operatorUser, sync: syncUser, purger: purgerUser };
const TENANT_TABLE = uniqueName('rbac-tenants');

async function leaseHolder(name: string): Promise<string | undefined> {
  const lease = await coordination.readNamespacedLease({ name, namespace: SYSTEM });
  return lease.spec?.holderIdentity;
}

async function eventsAbout(name: string, component: string): Promise<number> {
  const list = await core.listNamespacedEvent({
    namespace: 'default',
    fieldSelector: `involvedObject.name=${name}`,
  });
  return list.items.filter((e) => e.reportingComponent === component).length;
}

describe('each component under its own ServiceAccount (config/rbac)', () => {
  const ns = uniqueName('deploy');
  const tenants: string[] = [];
  const classNames: string[] = [];
  let operator: LandlordProcess | undefined;
  let sync: LandlordProcess | undefined;
  let purger: LandlordProcess | undefined;
  const dataTable: DataTableShape = { table: uniqueName('rbac-data'), partitionKey: 'tenant' };

  beforeAll(async () => {
    await kubectl('apply', '-k', config('rbac'), '--server-side');
    await kubectl('apply', '-f', config('purger/rbac.yaml'), '--server-side');
    await core.createNamespace({ body: { metadata: { name: ns } } });
  });

  afterAll(async () => {
    // sync first: it would put back a Tenant deleted while its row exists.
    expect(await sync?.stop()).toBe(0);
    expect(await purger?.stop()).toBe(0);
    await deleteDataTable(dynamoClient(), dataTable.table).catch(() => undefined);
    await kubectl('delete', '-f', config('purger/rbac.yaml'), '--ignore-not-found');
    for (const name of tenants) await deleteTenant(custom, name).catch(() => undefined);
    expect(await operator?.stop()).toBe(0);
    for (const name of classNames)
      await custom.deleteClusterCustomObject({ group: GROUP, version: VERSION, plural: CLASS_PLURAL, name });
    await core.deleteNamespace({ name: ns });
  });

  it('the operator makes a Tenant Ready: children applied and pruned, status written, Events recorded, Lease held', async () => {
    const kubeconfig = await serviceAccountKubeconfig(SYSTEM, 'landlord-operator');
    operator = startLandlord('operator', asServiceAccount(kubeconfig));
    await operator.ready();
    await operator.waitForLog((l) => l.msg === 'became leader');
    const name = uniqueName('rbac-op');
    tenants.push(name);
    await createTenant(custom, tenantManifest(name, ns, 1));
    await waitForCondition(custom, name, { type: CONDITION.ready, status: 'True' });
    await apps.readNamespacedDeployment({ name: `${name}-app`, namespace: ns });
    await core.readNamespacedConfigMap({ name: `${name}-config-0`, namespace: ns });
    await waitUntil(
      'an Event about the Tenant',
      async () => (await eventsAbout(name, 'landlord-operator')) > 0,
      {
        timeoutMs: 30_000,
      },
    );
    expect(await leaseHolder('landlord-operator')).toBe(operator.identity);
    // A ConfigMap the spec no longer names is pruned (delete).
    await setSpec(custom, name, tenantManifest(name, ns, 0).spec);
    await waitUntil(
      'the ConfigMap to be pruned',
      () => gone(core.readNamespacedConfigMap({ name: `${name}-config-0`, namespace: ns })),
      {
        timeoutMs: 30_000,
      },
    );
    expect(await forbidden(operator)).toBe(0);
  });

  it('sync turns a row into a Tenant with Synced=True, which the operator then makes Ready', async () => {
    const table = await sampleTable();
    const name = uniqueName('rbac-sync');
    tenants.push(name);
    await dynamoClient().send(new PutItemCommand({ TableName: table, Item: seedRow(name, ns) }));
    const kubeconfig = await serviceAccountKubeconfig(SYSTEM, 'landlord-sync');
    sync = startLandlord('sync', asServiceAccount(kubeconfig, { DYNAMODB_TABLE: table }));
    await sync.ready();
    await sync.waitForLog((l) => l.msg === 'became leader');
    await waitForCondition(custom, name, { type: CONDITION.synced, status: 'True' });
    await waitForCondition(custom, name, { type: CONDITION.ready, status: 'True' });
    await core.readNamespacedConfigMap({ name: `${name}-config`, namespace: ns });
    expect(await leaseHolder('landlord-sync')).toBe(sync.identity);
    // A row marked deleted takes its Tenant away (delete).
    await dynamoClient().send(
      new PutItemCommand({ TableName: table, Item: { ...seedRow(name, ns), deleted: { BOOL: true } } }),
    );
    await waitUntil('the Tenant of the deleted row to go', () => gone(readTenant(custom, name)), {
      timeoutMs: 60_000,
    });
    expect(await forbidden(sync)).toBe(0);
    expect(await forbidden(operator!)).toBe(0);
  });

  it("the purger deletes a purged Tenant's data and writes its status and Events, holding its Lease", async () => {
    const dynamo = dynamoClient();
    const name = uniqueName('rbac-purge');
    tenants.push(name);
    await createDataTable(dynamo, dataTable);
    await loadPartitions(dynamo, dataTable, [{ value: name, items: 1 }]);
    const tables = [{ table: dataTable.table, partitionKey: 'tenant', valueTemplate: '{name}' }];
    const kubeconfig = await serviceAccountKubeconfig(SYSTEM, 'landlord-purger');
    purger = startLandlord(
      'purger',
      asServiceAccount(kubeconfig, {
        LANDLORD_PURGER_TABLES: JSON.stringify(tables),
        LANDLORD_PURGER_TENANT_TABLES: TENANT_TABLE,
        LANDLORD_PURGER_DELAY: '0s',
      }),
    );
    await purger.ready();
    await purger.waitForLog((l) => l.msg === 'became leader');
    const tenant = tenantManifest(name, ns, 0);
    // The purger purges only Tenants sync made from its tenant tables: this one carries sync's marks
    // for TENANT_TABLE, written under sync's field manager as sync writes them (escape-purger.test.ts
    // shows a Tenant without them refused).
    const metadata = {
      ...tenant.metadata,
      labels: { [LABEL.managedBy]: MANAGED_BY.sync, [LABEL.sourceTable]: sourceTableLabel(TENANT_TABLE) },
      annotations: { [ANNOTATION.table]: TENANT_TABLE },
    };
    await custom.createClusterCustomObject({
      group: GROUP,
      version: VERSION,
      plural: PLURAL,
      body: { ...tenant, metadata, spec: { ...tenant.spec, state: 'purged' } },
      fieldManager: FIELD_MANAGER.sync,
    });
    await waitForCondition(custom, name, { type: CONDITION.purged, status: 'True' });
    expect(await countPartition(dynamo, dataTable, name)).toBe(0);
    await waitUntil(
      'an Event about the purge',
      async () => (await eventsAbout(name, 'landlord-purger')) > 0,
      {
        timeoutMs: 30_000,
      },
    );
    expect(await leaseHolder('landlord-purger')).toBe(purger.identity);
    expect(await forbidden(purger)).toBe(0);
  });

  // Last of the operator's cases: the refused RoleBinding counts as forbidden requests.
  it("makes a PerTenant tenant's namespace with its own rights, and RBAC's escalation check holds the classes to bindable roles", async () => {
    const classes = { group: GROUP, version: VERSION, plural: CLASS_PLURAL };
    const makeClass = (name: string, clusterRole: string): Promise<unknown> =>
      custom.createClusterCustomObject({
        ...classes,
        body: {
          apiVersion: CLASS_API_VERSION,
          kind: CLASS_KIND,
          metadata: { name },
          spec: { namespace: { mode: 'PerTenant' }, rbac: [{ group: '{name}-devs', clusterRole }] },
        },
      });
    const [editors, admins] = [uniqueName('rbac-edit'), uniqueName('rbac-admin')];
    classNames.push(editors, admins);
    await makeClass(editors, 'edit');
    await makeClass(admins, 'cluster-admin');
    const [good, greedy] = [uniqueName('rbac-pt'), uniqueName('rbac-greedy')];
    tenants.push(good, greedy);
    const before = await forbidden(operator!);
    await createTenant(custom, {
      ...tenantManifest(good, 'default', 1),
      spec: { ...tenantManifest(good, 'default', 1).spec, class: editors },
    });
    await waitForCondition(custom, good, { type: CONDITION.ready, status: 'True' }, 90_000);
    await apps.readNamespacedDeployment({ name: `${good}-app`, namespace: good });
    expect(await forbidden(operator!)).toBe(before);
    await createTenant(custom, {
      ...tenantManifest(greedy, 'default', 1),
      spec: { ...tenantManifest(greedy, 'default', 1).spec, class: admins },
    });
    const refused = await waitForCondition(
      custom,
      greedy,
      { type: CONDITION.applied, status: 'False', reason: 'ApplyFailed' },
      90_000,
    );
    const message = refused.status?.conditions?.find((c) => c.type === CONDITION.applied)?.message ?? '';
    expect(message).toContain('RoleBinding');
    expect(message).toContain('forbidden');
    const bindings = await kc
      .makeApiClient(RbacAuthorizationV1Api)
      .listNamespacedRoleBinding({ namespace: greedy });
    expect(bindings.items).toEqual([]);
  });

  // Least privilege: nothing beyond each component's own objects (`kubectl auth can-i` arguments).
  const denied = [
    // Secrets: the operator writes copies into tenant namespaces and watches them (and the
    // sources) cluster-wide by label (config/rbac/operator.yaml, docs/secrets.md), so no denial here.
    { component: 'operator', check: 'create tenants.landlord.dev' },
    { component: 'operator', check: 'patch tenants.landlord.dev' },
    { component: 'operator', check: 'delete tenants.landlord.dev' },
    { component: 'operator', check: 'create pods -n default' },
    { component: 'operator', check: `update leases.coordination.k8s.io/landlord-sync -n ${SYSTEM}` },
    { component: 'operator', check: 'create events -n kube-system' },
    {
      component: 'operator',
      check: 'patch customresourcedefinitions.apiextensions.k8s.io/tenants.landlord.dev',
    },
    { component: 'operator', check: 'create clusterroles.rbac.authorization.k8s.io' },
    // PerTenant: it may bind only the ClusterRoles classes are allowed to name (docs/isolation.md).
    { component: 'operator', check: 'bind clusterroles.rbac.authorization.k8s.io/cluster-admin' },
    { component: 'operator', check: 'bind clusterroles.rbac.authorization.k8s.io/admin' },
    { component: 'operator', check: 'create clusterrolebindings.rbac.authorization.k8s.io' },
    { component: 'sync', check: 'create deployments.apps -n default' },
    { component: 'sync', check: 'create configmaps -n default' },
    { component: 'sync', check: `get secrets -n ${SYSTEM}` },
    { component: 'sync', check: `create pods -n ${SYSTEM}` },
    { component: 'sync', check: `update leases.coordination.k8s.io/landlord-operator -n ${SYSTEM}` },
    { component: 'sync', check: 'patch customresourcedefinitions.apiextensions.k8s.io/tenants.landlord.dev' },
    { component: 'sync', check: 'create clusterroles.rbac.authorization.k8s.io' },
    { component: 'sync', check: `create rolebindings.rbac.authorization.k8s.io -n ${SYSTEM}` },
    // Revisions only in its own namespace, and never rewritten (config/rbac/sync.yaml, history).
    { component: 'sync', check: 'create controllerrevisions.apps -n default' },
    { component: 'sync', check: `update controllerrevisions.apps -n ${SYSTEM}` },
    { component: 'operator', check: `create controllerrevisions.apps -n ${SYSTEM}` },
    // The purger holds the data-deleting credentials: it may not make, change or delete a Tenant.
    { component: 'purger', check: 'create tenants.landlord.dev' },
    { component: 'purger', check: 'patch tenants.landlord.dev' },
    { component: 'purger', check: 'delete tenants.landlord.dev' },
    { component: 'purger', check: 'create deployments.apps -n default' },
    { component: 'purger', check: 'delete configmaps -n default' },
    // It reads a database server's admin Secret by name in its own namespace (docs/databases.md):
    // it cannot list them, nor read a Secret anywhere else.
    { component: 'purger', check: `list secrets -n ${SYSTEM}` },
    { component: 'purger', check: 'get secrets -n default' },
    { component: 'purger', check: `update leases.coordination.k8s.io/landlord-sync -n ${SYSTEM}` },
    { component: 'purger', check: 'create clusterroles.rbac.authorization.k8s.io' },
  ];
  it.each(denied)('$component may not: $check', async ({ component, check }) => {
    expect(await canI(USERS[component]!, check.split(' '))).toBe(false);
  });

  // What PerTenant classes need, and no more than that (config/rbac/operator.yaml).
  const allowed = [
    'create namespaces',
    // Unclaimed warm pool members, when a class's pool shrinks or changes (docs/warm-pool.md).
    'delete namespaces',
    'patch resourcequotas -n any-tenant',
    'delete rolebindings.rbac.authorization.k8s.io -n any-tenant',
    'create networkpolicies.networking.k8s.io -n any-tenant',
    // A class's secrets: copies written and pruned in the tenant namespace, sources read.
    'patch secrets -n any-tenant',
    'delete secrets -n any-tenant',
    'watch secrets -n platform-secrets',
    'bind clusterroles.rbac.authorization.k8s.io/edit',
    'bind clusterroles.rbac.authorization.k8s.io/view',
  ];
  it.each(allowed)('the operator may: %s', async (check) => {
    expect(await canI(operatorUser, check.split(' '))).toBe(true);
  });

  // What each tenant's history needs of sync: revisions listed, created and pruned in its namespace.
  it.each(['list', 'create', 'delete'])('sync may %s controllerrevisions in its namespace', async (verb) => {
    expect(await canI(syncUser, [verb, 'controllerrevisions.apps', '-n', SYSTEM])).toBe(true);
  });
});

describe('the operator with Deployment and ConfigMap rights in its allowed namespace only', () => {
  // The per-namespace set-up docs/deploying.md describes, done the same way.
  const ns = uniqueName('allowed');
  let operator: LandlordProcess | undefined;
  const name = uniqueName('allowed');

  beforeAll(async () => {
    await core.createNamespace({ body: { metadata: { name: ns } } });
    await kubectl('delete', 'clusterrolebinding', 'landlord-operator-children');
    await kubectl(
      ...['create', 'rolebinding', 'landlord-operator-children', '-n', ns],
      ...['--clusterrole=landlord-operator-children', `--serviceaccount=${SYSTEM}:landlord-operator`],
    );
  });

  afterAll(async () => {
    expect(await operator?.stop()).toBe(0);
    await deleteTenant(custom, name).catch(() => undefined);
    await kubectl('apply', '-k', config('rbac'), '--server-side');
    await core.deleteNamespace({ name: ns });
  });

  it('makes a Tenant there Ready without a single refused request', async () => {
    expect(await canI(operatorUser, ['list', 'deployments.apps', '--all-namespaces'])).toBe(false);
    const kubeconfig = await serviceAccountKubeconfig(SYSTEM, 'landlord-operator');
    operator = startLandlord('operator', asServiceAccount(kubeconfig, { LANDLORD_ALLOWED_NAMESPACES: ns }));
    await operator.ready();
    await operator.waitForLog((l) => l.msg === 'became leader');
    await createTenant(custom, tenantManifest(name, ns, 1));
    await waitForCondition(custom, name, { type: CONDITION.ready, status: 'True' });
    expect(await forbidden(operator)).toBe(0);
  });
});
