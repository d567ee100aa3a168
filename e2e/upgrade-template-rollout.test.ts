// An upgrade that changes what the operator adds to every tenant's pod template rolls out under a
// budget, not all at once (issue 57). 40 Tenants converge under an operator that writes the first
// template revision, as 0.1.0 did (LANDLORD_OPERATOR_TEMPLATE_REVISION=1: the previous release
// has no budget to test, so "old" is this build told to write what 0.1.0 wrote); then operators
// of the newest revision with a budget of 5 take over, the first killed halfway so that a new
// leader must count the slots again from the cluster. A sampler lists the Deployments all along:
// never more than 5 are rolling out for the upgrade at once; every Deployment ends with the new pod
// label after exactly one rollout; a Tenant whose spec changed meanwhile rolls at once with its own
// change; nothing is deleted; a Tenant waiting for a slot says so and stays Ready.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { V1Deployment } from '@kubernetes/client-node';
import { CONDITION, LABEL, type Tenant } from '../api/tenant.js';
import { waitUntil } from '../harness/wait.js';
import { rolloutGap } from '../operator/rollout.js';
import { clients } from './support/env.js';
import { componentEnv, metricValue, startLandlord, type LandlordProcess } from './support/landlord.js';
import { createSuite, createSuiteTenants, removeSuite, setImage, type Suite } from './support/suite.js';
import { condition, readyTenants } from './support/tenants.js';

const { apps, core, custom } = clients();
const TENANTS = 40;
const BUDGET = 5;
/** The Tenant whose row changes while the upgrade waits: its rollout was asked for. */
const EDITED_INDEX = TENANTS - 1;
const NEW_IMAGE = 'nginx:1.28';
/** The Deployment controller's count of rollouts (one per pod template it has run). */
const DEPLOYMENT_REVISION = 'deployment.kubernetes.io/revision';

let suite: Suite;
let names: string[];
let edited: string;
const started: LandlordProcess[] = [];

function operator(revision: number): LandlordProcess {
  const child = startLandlord(
    'operator',
    componentEnv({
      LANDLORD_LOG_LEVEL: 'info',
      LANDLORD_OPERATOR_TEMPLATE_REVISION: String(revision),
      LANDLORD_OPERATOR_UPGRADE_ROLLOUTS: String(BUDGET),
    }),
  );
  started.push(child);
  return child;
}

const deployments = async (): Promise<V1Deployment[]> =>
  (await apps.listNamespacedDeployment({ namespace: suite.namespace })).items;

/** Written at the new revision: its pods carry the tenant label. */
const labelled = (d: V1Deployment): boolean =>
  d.spec?.template.metadata?.labels?.[LABEL.tenant] !== undefined;

const tenantOf = (d: V1Deployment): string => d.metadata?.labels?.[LABEL.tenant] ?? '';

/** What the sampler saw of the upgrade: most Deployments rolling it out at once, and the waiting. */
interface Sampled {
  maxRolling: number;
  samples: number;
  /** The most Tenants seen waiting for a slot at once, and any of them not Ready. */
  maxPending: number;
  pendingNotReady: string[];
}

/** Lists the Deployments and Tenants continuously until stopped. */
function sampler(): { sampled: Sampled; stop: () => Promise<void> } {
  const sampled: Sampled = { maxRolling: 0, samples: 0, maxPending: 0, pendingNotReady: [] };
  let running = true;
  const loop = (async (): Promise<void> => {
    while (running) {
      const rolling = (await deployments()).filter(
        (d) => tenantOf(d) !== edited && labelled(d) && rolloutGap(d) !== undefined,
      );
      sampled.maxRolling = Math.max(sampled.maxRolling, rolling.length);
      const tenants = await suiteTenants();
      const pending = tenants.filter(
        (t) => condition(t, CONDITION.templateUpgradePending)?.status === 'True',
      );
      sampled.maxPending = Math.max(sampled.maxPending, pending.length);
      for (const t of pending)
        if (condition(t, CONDITION.ready)?.status !== 'True') sampled.pendingNotReady.push(t.metadata.name!);
      sampled.samples += 1;
    }
  })();
  return {
    sampled,
    stop: async () => {
      running = false;
      await loop;
    },
  };
}

async function suiteTenants(): Promise<Tenant[]> {
  const list = (await custom.listClusterCustomObject({
    group: 'landlord.dev',
    version: 'v1alpha1',
    plural: 'tenants',
    labelSelector: suite.selector,
  })) as { items: Tenant[] };
  return list.items;
}

/** Every object of the suite's namespace by kind/name → uid: what must survive the upgrade. */
async function uids(): Promise<Map<string, string>> {
  const byKey = new Map<string, string>();
  for (const d of await deployments()) byKey.set(`Deployment/${d.metadata!.name}`, d.metadata!.uid!);
  const configMaps = await core.listNamespacedConfigMap({ namespace: suite.namespace });
  for (const c of configMaps.items)
    if (c.metadata?.labels?.[LABEL.tenant] !== undefined)
      byKey.set(`ConfigMap/${c.metadata.name}`, c.metadata.uid!);
  return byKey;
}

async function podUids(): Promise<string[]> {
  const pods = await core.listNamespacedPod({ namespace: suite.namespace });
  return pods.items.map((p) => p.metadata!.uid!);
}

const allReady = (): Promise<true> =>
  waitUntil(
    `all ${TENANTS} Tenants Ready`,
    async () => (await readyTenants(custom, suite.selector)).length === TENANTS || undefined,
    { timeoutMs: 300_000, intervalMs: 1_000 },
  );

beforeAll(async () => {
  suite = await createSuite('tplroll');
  names = Array.from({ length: TENANTS }, (_, i) => `${suite.id}-${String(i).padStart(2, '0')}`);
  edited = names[EDITED_INDEX]!;
  const old = operator(1);
  await old.ready();
  await createSuiteTenants(suite, names);
  await allReady();
  expect(await old.stop()).toBe(0);
}, 400_000);

afterAll(async () => {
  started.forEach((p) => p.kill('SIGKILL'));
  await Promise.all(started.map((p) => p.exited));
  await removeSuite(suite);
}, 120_000);

describe(`an upgrade that labels every tenant pod, ${TENANTS} Tenants, a budget of ${BUDGET}`, () => {
  it('rolls at most the budget at once, each Deployment once, deletes nothing, and survives a leader change', async () => {
    const before = await deployments();
    expect(before.filter(labelled)).toEqual([]);
    expect(before.map((d) => d.metadata?.annotations?.[DEPLOYMENT_REVISION])).toEqual(names.map(() => '1'));
    const objects = await uids();
    const podsBefore = await podUids();
    // The row of one Tenant changes while no operator runs: its rollout is its own, not the budget's.
    await setImage(suite, [edited], NEW_IMAGE);

    const sampling = sampler();
    const began = Date.now();
    const first = operator(2);
    await first.ready();
    // Halfway through, the leader dies; the next one counts the rollouts under way from the cluster.
    await waitUntil(
      'a third of the Deployments rolled out',
      async () =>
        (await deployments()).filter((d) => labelled(d) && rolloutGap(d) === undefined).length >=
          TENANTS / 3 || undefined,
      { timeoutMs: 120_000, intervalMs: 200, abortIf: first.assertRunning },
    );
    const firstGauge = metricValue(await first.metrics(), 'landlord_template_upgrade_deployments', {
      state: 'pending',
    });
    first.kill('SIGKILL');
    await first.exited;
    const second = operator(2);
    await second.ready();
    await waitUntil(
      'every Deployment rolled out with the tenant label',
      async () => {
        const all = await deployments();
        return (
          (all.length === TENANTS && all.every((d) => labelled(d) && rolloutGap(d) === undefined)) ||
          undefined
        );
      },
      { timeoutMs: 240_000, intervalMs: 500, abortIf: second.assertRunning },
    );
    const rolledIn = (Date.now() - began) / 1000;
    await waitUntil(
      'no Tenant waiting for a slot any more, all Ready',
      async () => {
        const tenants = await suiteTenants();
        const waiting = tenants.some((t) => condition(t, CONDITION.templateUpgradePending) !== undefined);
        return (!waiting && (await readyTenants(custom, suite.selector)).length === TENANTS) || undefined;
      },
      { timeoutMs: 60_000, intervalMs: 500 },
    );
    await sampling.stop();
    const { sampled } = sampling;
    const after = await deployments();
    console.log(
      `upgrade-template-rollout: ${TENANTS} Deployments rolled in ${rolledIn.toFixed(1)} s with a budget of ${BUDGET}; ` +
        `at most ${sampled.maxRolling} rolling at once over ${sampled.samples} samples; ` +
        `at most ${sampled.maxPending} Tenants waiting; first leader's pending gauge ${firstGauge} when killed`,
    );
    expect(sampled.maxRolling).toBeLessThanOrEqual(BUDGET);
    expect(sampled.maxRolling).toBeGreaterThan(0);
    expect(sampled.maxPending).toBeGreaterThan(0);
    expect(sampled.pendingNotReady).toEqual([]);
    // One rollout each: the Deployment controller ran two pod templates, the first and the new one.
    expect(after.map((d) => d.metadata?.annotations?.[DEPLOYMENT_REVISION])).toEqual(names.map(() => '2'));
    const editedDeployment = after.find((d) => tenantOf(d) === edited)!;
    expect(editedDeployment.spec?.template.spec?.containers[0]?.image).toBe(NEW_IMAGE);
    // Nothing deleted or replaced; every pod replaced once, and each new one labelled for its tenant.
    expect(await uids()).toEqual(objects);
    await waitUntil(
      `${TENANTS} pods, none of before`,
      async () => {
        const pods = await core.listNamespacedPod({ namespace: suite.namespace });
        const live = pods.items.filter((p) => p.metadata?.deletionTimestamp === undefined);
        return (
          (live.length === TENANTS &&
            live.every((p) => !podsBefore.includes(p.metadata!.uid!)) &&
            live.every((p) => p.metadata?.labels?.[LABEL.tenant] !== undefined)) ||
          undefined
        );
      },
      { timeoutMs: 60_000, intervalMs: 500 },
    );
  });
});
