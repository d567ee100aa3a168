// An upgrade from the previous version (issue 57), on the real control plane and DynamoDB: the
// newest release in CHANGELOG.md is built from its commit (harness/previous-version.ts), its sync
// and operator run two replicas each, as the chart does, and converge tenants of every kind a user
// has (Shared; PerTenant with quota, limits, network policy and RoleBindings; copied secrets; an
// Ingress; a warm pool; history, sync's revisions). Then the chart's rolling update: one new
// replica starts and is ready beside the old ones (they share the Lease), an old one stops, and so
// on until only new ones run. Watches opened before the upgrade count what it did. This release
// announces one change to running tenants (CHANGELOG.md 0.2.0): every tenant pod but a "{id}"
// class's is labelled landlord.dev/tenant, a rollout of each such Deployment, paced by the upgrade
// budget (operator/rollout-budget.ts; 5% of the Tenants, so 1 at a time here). So: exactly those
// Deployments roll out, once each and never more than the budget at once (sampled all along),
// and nothing else happens: no other pod restarts, nothing is deleted but the replaced pods, no
// other Tenant's Ready flaps (a rolled one reads RolloutInProgress while its own pods are
// replaced), no other tenant child is written, another Tenant is written at most once. Then the
// same roll back to the previous release, which must be quiet: the previous release sees the
// labelled Deployments as its own (the spec hash leaves the operator's additions out) and writes
// nothing. The figures are printed for the release notes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANNOTATION, CONDITION, LABEL, type Tenant } from '../api/tenant.js';
import type { TenantClassSpec } from '../api/tenantclass.js';
import type { V1Deployment } from '@kubernetes/client-node';
import { previousVersion, type PreviousVersion } from '../harness/previous-version.js';
import { rolloutGap } from '../operator/rollout.js';
import { rolloutLimit } from '../operator/rollout-budget.js';
import { waitUntil } from '../harness/wait.js';
import { clients, uniqueName } from './support/env.js';
import { createClass, deleteClass } from './support/escape.js';
import { componentEnv, metricValue, startLandlord, type LandlordProcess } from './support/landlord.js';
import { createTable, deleteSyncedTenants, putRow, readTenant, syncedTenants } from './support/sync.js';
import { configMapManifest, deploymentManifest } from './support/tenants.js';
import {
  kindOfKey,
  recordUpgrade,
  WATCHED,
  writesPerObject,
  type Recorder,
  type UpgradeRecord,
  type Write,
} from './support/upgrade.js';
import { members, POOL_APP, pooledClass, readyMembers } from './support/warm-pool.js';

const { apps, core, custom } = clients();
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
/** The announced change: the Tenants whose pods get the landlord.dev/tenant label ("{id}" classes' do not). */
const RELABELLED = KINDS.filter((k) => k !== 'pooled').flatMap(tenantsOf);
/**
 * The status writes a rolled Tenant may see: TemplateUpgradePending set and cleared, then Ready as
 * its rollout goes (RolloutInProgress with each step's message, then True), as any rollout of a
 * generation already reported.
 */
const ROLLED_TENANT_WRITES = 8;
/** The upgrade budget at its default, 5% of the Tenants (at least 1). */
const BUDGET = rolloutLimit('5%', ALL.length);

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
  // With a quota, as pools usually have one: its members wait for it to be enforced.
  pooled: { ...pooledClass(POOL_SIZE, `${id}-pool-{id}`), resourceQuota: { hard: { pods: '10' } } },
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
type Version = 'previous' | 'tree';
/** The replicas running now, by version and component; every one ever started, to kill at the end. */
const running: Record<Version, Record<Component, LandlordProcess[]>> = {
  previous: { sync: [], operator: [] },
  tree: { sync: [], operator: [] },
};
const started: LandlordProcess[] = [];

/** One replica of a component, the previous version's or this tree's, as the chart's pod runs it. */
function replica(component: Component, version: Version): LandlordProcess {
  const env = componentEnv({
    ...LEASE,
    ...OWN_ENV[component],
    POD_NAMESPACE: home,
    LANDLORD_LOG_LEVEL: 'info',
    LANDLORD_IDENTITY: uniqueName(`${version}-${component}`),
    // The tree's CRDs store v1beta1 (ADR 0011): the API server refuses the previous release's own,
    // v1alpha1 only, so its replicas run against the CRDs installed, as the upgrade notes say.
    ...(version === 'previous' ? { LANDLORD_INSTALL_CRD: 'false' } : {}),
  });
  const child = startLandlord(component, env, version === 'previous' ? previous.cli : undefined);
  running[version][component].push(child);
  started.push(child);
  return child;
}

const leads = (p: LandlordProcess): boolean => p.logs.some((l) => l.msg === 'became leader');
const leader = (version: Version, component: Component): LandlordProcess | undefined =>
  running[version][component].find(leads);
const allRunning = (version: Version) => (): void =>
  Object.values(running[version])
    .flat()
    .forEach((p) => p.assertRunning());

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

/** Each pod by namespace/name: its uid, its template hash, and its Deployment's namespace/name. */
async function pods(): Promise<Map<string, { uid: string; hash: string; deployment: string }>> {
  const list = await core.listPodForAllNamespaces();
  const mine = list.items.filter((p) => inScope('Pod', p));
  return new Map(
    mine.map((p) => [
      `${p.metadata!.namespace}/${p.metadata!.name}`,
      {
        uid: p.metadata!.uid!,
        hash: p.metadata!.labels?.['pod-template-hash'] ?? '',
        deployment: `${p.metadata!.namespace}/${p.metadata!.labels?.app ?? ''}`,
      },
    ]),
  );
}

/** This test's Deployments by namespace/name. */
async function deployments(): Promise<Map<string, V1Deployment>> {
  const list = await apps.listDeploymentForAllNamespaces();
  const mine = list.items.filter((d) => inScope('Deployment', d));
  return new Map(mine.map((d) => [`${d.metadata!.namespace}/${d.metadata!.name}`, d]));
}

const relabelled = (d: V1Deployment | undefined): boolean =>
  d?.spec?.template.metadata?.labels?.[LABEL.tenant] !== undefined;

/**
 * Lists the Deployments until stopped: the most rolling out at once with the new label, which is
 * what the upgrade budget bounds.
 */
function rolloutSampler(): { max: () => number; stop: () => Promise<void> } {
  let max = 0;
  let running = true;
  const loop = (async (): Promise<void> => {
    while (running) {
      const rolling = [...(await deployments()).values()].filter(
        (d) => relabelled(d) && rolloutGap(d) !== undefined,
      );
      max = Math.max(max, rolling.length);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  })();
  return {
    max: () => max,
    stop: async () => {
      running = false;
      await loop;
    },
  };
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

/**
 * Proves the recorder sees what it must: a ConfigMap made and changed in this test's namespace is
 * recorded as made, written and deleted (then forgotten). A recorder that saw nothing would pass
 * every check below.
 */
async function probe(recorder: Recorder): Promise<void> {
  const name = uniqueName('probe');
  await core.createNamespacedConfigMap({ namespace: home, body: { metadata: { name }, data: { a: '1' } } });
  await core.replaceNamespacedConfigMap({
    namespace: home,
    name,
    body: { metadata: { name }, data: { a: '2' } },
  });
  const key = `ConfigMap/${home}/${name}`;
  await waitUntil(
    'the recorder to see the probe made and written',
    () =>
      Promise.resolve(
        (recorder.record.created.includes(key) &&
          recorder.record.writes.some((w) => w.key === key && w.fields.includes('data.a'))) ||
          undefined,
      ),
    { timeoutMs: 30_000 },
  );
  await core.deleteNamespacedConfigMap({ namespace: home, name });
  await waitUntil(
    'the recorder to see the probe deleted',
    () => Promise.resolve(recorder.record.deleted.includes(key) || undefined),
    { timeoutMs: 30_000 },
  );
}

/** The chart's rolling update of one component: maxSurge 1, maxUnavailable 0. */
async function roll(component: Component, from: Version, to: Version): Promise<(number | string)[]> {
  const exits: (number | string)[] = [];
  for (const stale of [...running[from][component]]) {
    await replica(component, to).ready();
    exits.push(await stale.stop());
    running[from][component] = running[from][component].filter((p) => p !== stale);
  }
  return exits;
}

/** When a replica of `to` first led each component, polled while the roll runs. */
function leaderTimes(to: Version): { at: Partial<Record<Component, number>>; stop(): void } {
  const at: Partial<Record<Component, number>> = {};
  const timer = setInterval(() => {
    for (const c of ['sync', 'operator'] as const)
      if (at[c] === undefined && leader(to, c) !== undefined) at[c] = Date.now();
  }, 100);
  return { at, stop: () => clearInterval(timer) };
}

/** The new leaders have gone over everything: the operator reconciled every Tenant, sync scanned. */
async function leadersCaughtUp(to: Version): Promise<void> {
  const abortIf = allRunning(to);
  const operator = await waitUntil('a leading operator', () => Promise.resolve(leader(to, 'operator')), {
    timeoutMs: 60_000,
    abortIf,
  });
  const sync = await waitUntil('a leading sync', () => Promise.resolve(leader(to, 'sync')), {
    timeoutMs: 60_000,
    abortIf,
  });
  await waitUntil(
    `the new operator to reconcile all ${ALL.length} Tenants`,
    async () => metricValue(await operator.metrics(), 'landlord_reconcile_total') >= ALL.length || undefined,
    { timeoutMs: 120_000, abortIf },
  );
  await sync.waitForLog((l) => l.msg === 'scan complete', 60_000);
  await allReady(abortIf);
  await readyMembers(classOf('pooled'), POOL_SIZE, { abortIf });
}

interface Outcome {
  record: UpgradeRecord;
  /** Deployments (namespace/name) whose pods gained the tenant label: the announced rollout. */
  rolled: string[];
  /** The most Deployments seen rolling it out at once. */
  maxRolling: number;
  /** What the tenants had when the roll began, by kind. */
  objects: Map<string, number>;
  restarted: string[];
  rehashed: string[];
  exits: (number | string)[];
  tenantWrites: [string, number][];
  childWrites: Write[];
  figures: [string, string | number][];
}

/** Rolls both components from one version to the other and says what it did to the tenants. */
async function measuredRoll(from: Version, to: Version): Promise<Outcome> {
  const recorder = await recordUpgrade(inScope);
  await probe(recorder);
  await quiet(recorder, allRunning(from));
  const before = await pods();
  const deploymentsBefore = await deployments();
  const objects = recorder.objects();
  recorder.reset();
  const sampler = rolloutSampler();
  const begun = Date.now();
  const seconds = (at: number | undefined): string =>
    at === undefined ? '-' : `${((at - begun) / 1000).toFixed(1)} s`;
  const leaders = leaderTimes(to);
  const exits = (await Promise.all([roll('sync', from, to), roll('operator', from, to)])).flat();
  const rolledAt = Date.now();
  await leadersCaughtUp(to);
  const caughtUpAt = Date.now();
  leaders.stop();
  const lastChange = await quiet(recorder, allRunning(to));
  const record = recorder.stop();
  await sampler.stop();
  const after = await pods();
  const rolled = [...(await deployments())]
    .filter(([key, d]) => relabelled(d) && !relabelled(deploymentsBefore.get(key)))
    .map(([key]) => key)
    .sort();
  const restarted = [...before].filter(([key, p]) => after.get(key)?.uid !== p.uid).map(([key]) => key);
  const rehashed = [...before].filter(([key, p]) => after.get(key)?.hash !== p.hash).map(([key]) => key);
  const tenantWrites = [...writesPerObject(record.writes)].filter(([key]) => kindOfKey(key) === 'Tenant');
  const childWrites = record.writes.filter((w) => kindOfKey(w.key) !== 'Tenant');
  const figures: [string, string | number][] = [
    ['objects watched', [...objects].map(([kind, n]) => `${n} ${kind}`).join(', ')],
    [
      'Deployments rolled for the new pod label',
      `${rolled.length}, at most ${sampler.max()} at once (budget ${BUDGET})`,
    ],
    ['pods restarted', `${restarted.length} of ${before.size}`],
    ['pod-template-hash changed', `${rehashed.length} of ${before.size} pods`],
    ['objects deleted', record.deleted.length],
    ['objects created', record.created.length],
    ['writes to children and classes', childWrites.length],
    [
      'writes to Tenants',
      `${tenantWrites.reduce((n, [, w]) => n + w, 0)} (at most ${Math.max(0, ...tenantWrites.map(([, w]) => w))} per Tenant)`,
    ],
    ['Tenants whose Ready flapped', new Set(record.notReady.map((r) => r.split(':')[0])).size],
    ['replaced replicas exited with', exits.join(', ')],
    ['new leader: sync, operator', `${seconds(leaders.at.sync)}, ${seconds(leaders.at.operator)}`],
    ['rolling update done', seconds(rolledAt)],
    ['steady (new leaders caught up)', seconds(caughtUpAt)],
    ['last change to a tenant object', lastChange >= begun ? seconds(lastChange) : 'none'],
  ];
  return {
    record,
    rolled,
    maxRolling: sampler.max(),
    objects,
    restarted,
    rehashed,
    exits,
    tenantWrites,
    childWrites,
    figures,
  };
}

function report(title: string, outcome: Outcome): void {
  const width = Math.max(...outcome.figures.map(([k]) => k.length));
  const lines = outcome.figures.map(([k, v]) => `  ${k.padEnd(width)}  ${v}`);
  const { record } = outcome;
  const writes = record.writes.slice(0, 30).map((w) => `  ${w.key}: ${w.fields.slice(0, 6).join(', ')}`);
  console.log(
    [
      title,
      ...lines,
      ...(writes.length > 0 ? ['writes:', ...writes] : []),
      ...(record.deleted.length > 0 ? [`deleted: ${record.deleted.join(', ')}`] : []),
      ...(record.created.length > 0 ? [`created: ${record.created.join(', ')}`] : []),
      ...(record.notReady.length > 0 ? [`not Ready: ${record.notReady.slice(0, 20).join('; ')}`] : []),
    ].join('\n'),
  );
}

/** The Deployments of the announced rollout, by namespace/name: each relabelled Tenant's one. */
async function announcedDeployments(): Promise<string[]> {
  const tenants = await syncedTenants(table);
  return tenants
    .filter((t) => RELABELLED.includes(t.metadata.name!))
    .map((t) => t.status?.deployment ?? '')
    .sort();
}

/**
 * What the upgrade may do: the announced rollout, paced by the budget, and nothing else. Each
 * relabelled Deployment rolls once (a ReplicaSet and a pod made, the old pod deleted, the
 * Deployment, its ReplicaSets and pods written), its Tenant reads RolloutInProgress meanwhile and
 * may say TemplateUpgradePending before. Everything else as expectUnnoticed.
 */
async function expectAnnounced(outcome: Outcome, before: Map<string, string>): Promise<void> {
  const announced = await announcedDeployments();
  expect(outcome.rolled).toEqual(announced);
  expect(outcome.maxRolling).toBeGreaterThan(0);
  expect(outcome.maxRolling).toBeLessThanOrEqual(BUDGET);
  const inRollout = (namespace: string, name: string): boolean =>
    announced.some((d) => d === `${namespace}/${name}` || `${namespace}/${name}`.startsWith(`${d}-`));
  const ofRollout = (key: string): boolean => {
    const [, namespace = '', name = ''] = key.split('/');
    return inRollout(namespace, name);
  };
  // Every pod of a relabelled Deployment, and no other, was replaced.
  const expectedRestarts = [...before].filter(([, d]) => announced.includes(d)).map(([key]) => key);
  expect(outcome.restarted.sort()).toEqual(expectedRestarts.sort());
  expect(outcome.rehashed.sort()).toEqual(expectedRestarts.sort());
  expect(outcome.record.deleted.sort()).toEqual(expectedRestarts.map((k) => `Pod/${k}`).sort());
  expect(
    outcome.record.created.filter((k) => !['Pod', 'ReplicaSet'].includes(kindOfKey(k)) || !ofRollout(k)),
  ).toEqual([]);
  expect(outcome.record.created.filter((k) => kindOfKey(k) === 'ReplicaSet').length).toBe(announced.length);
  expect(
    outcome.childWrites.filter(
      (w) => !['Deployment', 'ReplicaSet', 'Pod'].includes(kindOfKey(w.key)) || !ofRollout(w.key),
    ),
  ).toEqual([]);
  const rolledTenant = (name: string): boolean => RELABELLED.includes(name);
  const flapped = outcome.record.notReady.filter(
    (r) => !(rolledTenant(r.split(':')[0]!) && r.endsWith('RolloutInProgress')),
  );
  expect(flapped).toEqual([]);
  for (const [key, count] of outcome.tenantWrites) {
    const limit = rolledTenant(key.split('/')[2]!) ? ROLLED_TENANT_WRITES : 1;
    expect({ key, count }).toEqual({ key, count: Math.min(count, limit) });
  }
  expect(outcome.exits).toEqual([0, 0, 0, 0]);
}

/** What a rollback (or an upgrade that announces nothing) may do to running tenants: nothing they would notice. */
function expectUnnoticed(outcome: Outcome): void {
  expect(outcome.rolled).toEqual([]);
  expect(outcome.restarted).toEqual([]);
  expect(outcome.rehashed).toEqual([]);
  expect(outcome.record.deleted).toEqual([]);
  expect(outcome.record.notReady).toEqual([]);
  expect(outcome.childWrites).toEqual([]);
  for (const [key, count] of outcome.tenantWrites)
    expect({ key, count }).toEqual({ key, count: Math.min(count, 1) });
  expect(outcome.exits).toEqual([0, 0, 0, 0]);
}

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
  for (const component of ['sync', 'operator', 'sync', 'operator'] as const) replica(component, 'previous');
  await Promise.all(started.map((p) => p.ready()));
  await leadersCaughtUp('previous');
  await bindPerTenantSources();
}, 600_000);

/**
 * What 0.2.0's upgrade notes ask of a platform before it upgrades: each per-tenant source carries
 * the uid of the Tenant it is for (docs/secrets.md). The previous version ignores the annotation,
 * and the copies' hashes cover only the values, so binding writes nothing a tenant has.
 */
async function bindPerTenantSources(): Promise<void> {
  for (const name of tenantsOf('secrets')) {
    const tenant = await readTenant(name);
    const source = await core.readNamespacedSecret({ name: `${name}-db`, namespace: sources });
    source.metadata!.annotations = {
      ...source.metadata!.annotations,
      [ANNOTATION.tenantUid]: tenant!.metadata.uid!,
    };
    await core.replaceNamespacedSecret({ name: `${name}-db`, namespace: sources, body: source });
  }
}

afterAll(async () => {
  started.forEach((p) => p.kill('SIGKILL'));
  await Promise.all(started.map((p) => p.exited));
  await deleteSyncedTenants(table);
  for (const kind of KINDS) await deleteClass(custom, classOf(kind));
  const pool = (await members(classOf('pooled'))).map((m) => m.ns.metadata!.name!);
  for (const namespace of [home, sharedNamespace, sources, ...pool])
    await core.deleteNamespace({ name: namespace }).catch(() => undefined);
}, 300_000);

describe('an upgrade from the previous release to this tree, as the chart rolls it', () => {
  it('rolls out the announced pod label under the budget, and does nothing else', async () => {
    const podsBefore = new Map([...(await pods())].map(([key, p]) => [key, p.deployment]));
    const outcome = await measuredRoll('previous', 'tree');
    const from = `${previous.version} (${previous.commit.slice(0, 7)})`;
    report(
      `upgrade ${from} → this tree: ${ALL.length} Tenants (${PER_KIND} each: ${KINDS.join(', ')}), ` +
        `${POOL_SIZE} pool members`,
      outcome,
    );
    await expectAnnounced(outcome, podsBefore);
    // Every kind a tenant has was there to be left alone (sync's revisions included).
    const absent = WATCHED.map((w) => w.kind).filter((kind) => (outcome.objects.get(kind) ?? 0) === 0);
    expect(absent).toEqual([]);
    // Every PerTenant tenant still in its one namespace, labelled for it.
    const labelled = await core.listNamespace({ labelSelector: LABEL.tenant });
    expect(labelled.items.filter((ns) => inScope('Namespace', ns)).length).toBe(ALL.length - PER_KIND);
  });

  it('and a rollback to the previous release does the same', async () => {
    const outcome = await measuredRoll('tree', 'previous');
    report(`rollback: this tree → ${previous.version} (${previous.commit.slice(0, 7)})`, outcome);
    expectUnnoticed(outcome);
  });
});
