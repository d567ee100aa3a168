// An upgrade from the previous version (issue 57), on the real control plane and DynamoDB: the
// newest release in CHANGELOG.md is built from its commit (harness/previous-version.ts), its sync
// and operator run two replicas each, as the chart does, and converge tenants of every kind a user
// has (Shared; PerTenant with quota, limits, network policy and RoleBindings; copied secrets; an
// Ingress; a warm pool; history, sync's revisions). Then the chart's rolling update: one new
// replica starts and is ready beside the old ones (they share the Lease), an old one stops, and so
// on until only new ones run. Watches opened before the upgrade count what it did: no pod
// restarts, nothing is deleted, no Tenant's Ready flaps, no tenant child is written, and a Tenant
// is written at most once. The figures are printed for the release notes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONDITION, LABEL, type Tenant } from '../api/tenant.js';
import type { TenantClassSpec } from '../api/tenantclass.js';
import { previousVersion, type PreviousVersion } from '../harness/previous-version.js';
import { waitUntil } from '../harness/wait.js';
import { clients, uniqueName } from './support/env.js';
import { createClass, deleteClass } from './support/escape.js';
import { componentEnv, metricValue, startLandlord, type LandlordProcess } from './support/landlord.js';
import { createTable, deleteSyncedTenants, putRow, syncedTenants } from './support/sync.js';
import { configMapManifest, deploymentManifest } from './support/tenants.js';
import {
  kindOfKey,
  recordUpgrade,
  WATCHED,
  writesPerObject,
  type Recorder,
  type Write,
} from './support/upgrade.js';
import { members, POOL_APP, pooledClass, readyMembers } from './support/warm-pool.js';

const { core, custom } = clients();
const id = uniqueName('upg');
const table = id;
/** The replicas' namespace: their Leases, and sync's revisions. */
const home = `${id}-home`;
const sharedNamespace = `${id}-shared`;
const sources = `${id}-src`;
const PER_KIND = 5;
const POOL_SIZE = 3;
const DOMAIN = 'apps.example.com';
const QUIET_MS = 15_000;

type Kind = 'shared' | 'fenced' | 'secrets' | 'exposed' | 'pooled';
const KINDS: readonly Kind[] = ['shared', 'fenced', 'secrets', 'exposed', 'pooled'];
const classOf = (kind: Kind): string => `${id}-${kind}`;
const tenantsOf = (kind: Kind): string[] => Array.from({ length: PER_KIND }, (_, i) => `${id}-${kind}-${i}`);
const ALL = KINDS.flatMap(tenantsOf);

const perTenant = (extra: TenantClassSpec): TenantClassSpec => ({
  namespace: { mode: 'PerTenant', nameTemplate: '{name}', labels: { 'example.com/tenant': '{name}' } },
  podSecurity: 'baseline',
  ...extra,
});

const CLASSES: Record<Kind, TenantClassSpec> = {
  shared: { namespace: { mode: 'Shared' } },
  fenced: perTenant({
    resourceQuota: { hard: { pods: '5', 'requests.cpu': '2', 'requests.memory': '2Gi' } },
    limitRange: {
      limits: [
        {
          type: 'Container',
          default: { cpu: '200m', memory: '128Mi' },
          defaultRequest: { cpu: '100m', memory: '64Mi' },
        },
      ],
    },
    networkIsolation: 'Isolated',
    rbac: [{ group: '{name}-devs', clusterRole: 'edit' }],
  }),
  secrets: perTenant({
    secrets: [
      { name: 'shared', from: { namespace: sources, name: 'shared' } },
      { name: 'db', from: { namespace: sources, name: '{name}-db' } },
    ],
  }),
  exposed: perTenant({
    expose: { port: 8080, host: `{name}.${DOMAIN}`, ingressClassName: 'nginx' },
    allowedDomains: [DOMAIN],
  }),
  pooled: pooledClass(POOL_SIZE, `${id}-pool-{id}`),
};

/** The row users write for a tenant of the kind: seed format plus its class and a change note. */
function rowOf(name: string, kind: Kind): Record<string, unknown> {
  const namespace = kind === 'shared' ? sharedNamespace : 'default';
  const deployment = kind === 'pooled' ? POOL_APP : deploymentManifest(`${name}-app`, namespace);
  return {
    name,
    spec: JSON.stringify(deployment),
    customizations: JSON.stringify([configMapManifest(`${name}-config`, namespace)]),
    class: classOf(kind),
    changedBy: 'upgrade-test',
    deleted: false,
  };
}

const LEASE = {
  LANDLORD_LEADER_ELECTION: 'true',
  LANDLORD_LEASE_DURATION_SECONDS: '4',
  LANDLORD_RENEW_DEADLINE_SECONDS: '3',
  LANDLORD_RETRY_PERIOD_SECONDS: '1',
};
const OWN_ENV = {
  sync: { DYNAMODB_TABLE: table, LANDLORD_SYNC_RESYNC_SECONDS: '10' },
  operator: { LANDLORD_SECRET_SOURCE_NAMESPACES: sources, LANDLORD_OPERATOR_RESYNC_SECONDS: '10' },
};
type Component = keyof typeof OWN_ENV;

let previous: PreviousVersion;
const replicas: Record<'old' | 'new', Record<Component, LandlordProcess[]>> = {
  old: { sync: [], operator: [] },
  new: { sync: [], operator: [] },
};

/** One replica of a component, the previous version's or this tree's, as the chart's pod runs it. */
function replica(component: Component, version: 'old' | 'new'): LandlordProcess {
  const env = componentEnv({
    ...LEASE,
    ...OWN_ENV[component],
    POD_NAMESPACE: home,
    LANDLORD_LOG_LEVEL: 'info',
    LANDLORD_IDENTITY: uniqueName(`${version}-${component}`),
  });
  const started = startLandlord(component, env, version === 'old' ? previous.cli : undefined);
  replicas[version][component].push(started);
  return started;
}

const leads = (p: LandlordProcess): boolean => p.logs.some((l) => l.msg === 'became leader');
const leader = (version: 'old' | 'new', component: Component): LandlordProcess | undefined =>
  replicas[version][component].find(leads);

/** This test's objects: its namespaces and what is in them, its Tenants. */
function inScope(_kind: string, obj: { metadata?: { name?: string; namespace?: string } }): boolean {
  const namespace = obj.metadata?.namespace;
  return (namespace ?? obj.metadata?.name ?? '').startsWith(`${id}-`);
}

async function readyTenantCount(): Promise<number> {
  const tenants = await syncedTenants(table);
  const ready = (t: Tenant): boolean => {
    const c = t.status?.conditions?.find((x) => x.type === CONDITION.ready);
    return c?.status === 'True' && c.observedGeneration === t.metadata.generation;
  };
  return tenants.filter(ready).length;
}

function allReady(abortIf: () => void): Promise<true> {
  return waitUntil(
    `all ${ALL.length} Tenants Ready`,
    async () => (await readyTenantCount()) === ALL.length || undefined,
    { timeoutMs: 240_000, intervalMs: 1_000, abortIf },
  );
}

/** Each pod by namespace/name: its uid and its template hash. */
async function pods(): Promise<Map<string, { uid: string; hash: string }>> {
  const list = await core.listPodForAllNamespaces();
  const mine = list.items.filter((p) => inScope('Pod', p));
  return new Map(
    mine.map((p) => [
      `${p.metadata!.namespace}/${p.metadata!.name}`,
      { uid: p.metadata!.uid!, hash: p.metadata!.labels?.['pod-template-hash'] ?? '' },
    ]),
  );
}

/** Waits until nothing in scope has changed for QUIET_MS; returns when the last change came. */
function quiet(recorder: Recorder, abortIf: () => void): Promise<number> {
  return waitUntil(
    `${QUIET_MS / 1000} s without a change to this test's objects`,
    () =>
      Promise.resolve(
        Date.now() - recorder.record.lastEventAt >= QUIET_MS ? recorder.record.lastEventAt : undefined,
      ),
    { timeoutMs: 180_000, intervalMs: 500, abortIf },
  );
}

/** The chart's rolling update of one component: maxSurge 1, maxUnavailable 0. */
async function roll(component: Component): Promise<(number | string)[]> {
  const exits: (number | string)[] = [];
  for (const stale of [...replicas.old[component]]) {
    await replica(component, 'new').ready();
    exits.push(await stale.stop());
  }
  return exits;
}

const newRunning = (): void =>
  Object.values(replicas.new)
    .flat()
    .forEach((p) => p.assertRunning());
const oldRunning = (): void =>
  Object.values(replicas.old)
    .flat()
    .forEach((p) => p.assertRunning());

beforeAll(async () => {
  previous = await previousVersion((line) => console.log(`[upgrade] ${line}`));
  for (const namespace of [home, sharedNamespace, sources])
    await core.createNamespace({ body: { metadata: { name: namespace } } });
  await core.createNamespacedSecret({
    namespace: sources,
    body: { metadata: { name: 'shared' }, stringData: { token: 'shared-value' } },
  });
  for (const name of tenantsOf('secrets'))
    await core.createNamespacedSecret({
      namespace: sources,
      body: { metadata: { name: `${name}-db` }, stringData: { password: `${name}-value` } },
    });
  for (const kind of KINDS) await createClass(custom, classOf(kind), CLASSES[kind]);
  await createTable(table);
  for (const kind of KINDS) for (const name of tenantsOf(kind)) await putRow(table, rowOf(name, kind));
  for (const component of ['sync', 'operator', 'sync', 'operator'] as const) replica(component, 'old');
  await Promise.all(
    Object.values(replicas.old)
      .flat()
      .map((p) => p.ready()),
  );
  await allReady(oldRunning);
  await readyMembers(classOf('pooled'), POOL_SIZE, { timeoutMs: 120_000, abortIf: oldRunning });
}, 600_000);

afterAll(async () => {
  const all = [...Object.values(replicas.old), ...Object.values(replicas.new)].flat();
  all.forEach((p) => p.kill('SIGKILL'));
  await Promise.all(all.map((p) => p.exited));
  await deleteSyncedTenants(table);
  for (const kind of KINDS) await deleteClass(custom, classOf(kind));
  const pool = (await members(classOf('pooled'))).map((m) => m.ns.metadata!.name!);
  for (const namespace of [home, sharedNamespace, sources, ...pool])
    await core.deleteNamespace({ name: namespace }).catch(() => undefined);
}, 300_000);

function figures(rows: [string, string | number][]): string {
  const width = Math.max(...rows.map(([k]) => k.length));
  return rows.map(([k, v]) => `  ${k.padEnd(width)}  ${v}`).join('\n');
}

function describeWrites(writes: readonly Write[]): string {
  return writes
    .slice(0, 30)
    .map((w) => `  ${w.key}: ${w.fields.slice(0, 6).join(', ')}`)
    .join('\n');
}

describe(`an upgrade from the previous release to this tree`, () => {
  it('restarts no pod, deletes nothing, flaps no Ready, writes no tenant child', async () => {
    const recorder = await recordUpgrade(inScope);
    await quiet(recorder, oldRunning);
    const podsBefore = await pods();
    recorder.reset();
    const started = Date.now();
    const seconds = (at: number): string => `${((at - started) / 1000).toFixed(1)} s`;

    const leaderAt: Partial<Record<Component, number>> = {};
    const watchLeaders = setInterval(() => {
      for (const c of ['sync', 'operator'] as const)
        if (leaderAt[c] === undefined && leader('new', c) !== undefined) leaderAt[c] = Date.now();
    }, 100);
    const [syncExits, operatorExits] = await Promise.all([roll('sync'), roll('operator')]);
    const rolledAt = Date.now();
    await waitUntil(
      'a new leader of each component',
      () => Promise.resolve(leaderAt.sync && leaderAt.operator),
      {
        timeoutMs: 60_000,
        abortIf: newRunning,
      },
    );
    clearInterval(watchLeaders);
    // The new leaders have gone over everything: the operator reconciled every Tenant, sync scanned.
    const operatorLeader = leader('new', 'operator')!;
    await waitUntil(
      `the new operator to reconcile all ${ALL.length} Tenants`,
      async () =>
        metricValue(await operatorLeader.metrics(), 'landlord_reconcile_total') >= ALL.length || undefined,
      { timeoutMs: 120_000, abortIf: newRunning },
    );
    await leader('new', 'sync')!.waitForLog((l) => l.msg === 'scan complete', 60_000);
    await allReady(newRunning);
    await readyMembers(classOf('pooled'), POOL_SIZE, { abortIf: newRunning });
    const lastChange = await quiet(recorder, newRunning);
    const record = recorder.stop();
    const podsAfter = await pods();

    const restarted = [...podsBefore]
      .filter(([key, p]) => podsAfter.get(key)?.uid !== p.uid)
      .map(([key]) => key);
    const rehashed = [...podsBefore]
      .filter(([key, p]) => podsAfter.get(key)?.hash !== p.hash)
      .map(([key]) => key);
    const perObject = writesPerObject(record.writes);
    const tenantWrites = [...perObject].filter(([key]) => kindOfKey(key) === 'Tenant');
    const childWrites = record.writes.filter((w) => kindOfKey(w.key) !== 'Tenant');
    const steady = Math.max(lastChange, rolledAt);
    console.log(
      `upgrade ${previous.version} (${previous.commit.slice(0, 7)}) → this tree: ` +
        `${ALL.length} Tenants (${PER_KIND} each: ${KINDS.join(', ')}) + ${POOL_SIZE} pool members\n` +
        figures([
          ['kinds watched', WATCHED.map((w) => w.kind).join(', ')],
          ['pods restarted', `${restarted.length} of ${podsBefore.size}`],
          ['pod-template-hash changed', `${rehashed.length} of ${podsBefore.size} pods`],
          ['objects deleted', record.deleted.length],
          ['objects created', record.created.length],
          ['writes to tenant children', childWrites.length],
          [
            'writes to Tenants',
            `${tenantWrites.reduce((n, [, w]) => n + w, 0)} (at most ${Math.max(0, ...tenantWrites.map(([, w]) => w))} per Tenant)`,
          ],
          ['Tenants whose Ready flapped', new Set(record.notReady.map((r) => r.split(':')[0])).size],
          ['old replicas exited with', [...syncExits, ...operatorExits].join(', ')],
          ['new leader: sync, operator', `${seconds(leaderAt.sync!)}, ${seconds(leaderAt.operator!)}`],
          ['rolling update done', seconds(rolledAt)],
          ['steady state (last change)', seconds(steady)],
        ]) +
        (record.writes.length > 0 ? `\nwrites:\n${describeWrites(record.writes)}` : '') +
        (record.deleted.length + record.created.length > 0
          ? `\ndeleted: ${record.deleted.join(', ')}\ncreated: ${record.created.join(', ')}`
          : '') +
        (record.notReady.length > 0 ? `\nnot Ready: ${record.notReady.slice(0, 20).join('; ')}` : ''),
    );

    expect(restarted).toEqual([]);
    expect(rehashed).toEqual([]);
    expect(record.deleted).toEqual([]);
    expect(record.notReady).toEqual([]);
    expect(childWrites).toEqual([]);
    for (const [key, count] of tenantWrites)
      expect({ key, count }).toEqual({ key, count: Math.min(count, 1) });
    expect([...syncExits, ...operatorExits]).toEqual([0, 0, 0, 0]);
    // Exactly the children the old version made, still labelled for their Tenant.
    const labelled = await core.listNamespace({ labelSelector: LABEL.tenant });
    expect(labelled.items.filter((ns) => inScope('Namespace', ns)).length).toBe(ALL.length - PER_KIND);
  });
});
