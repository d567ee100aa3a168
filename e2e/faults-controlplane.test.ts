// The operator while the control plane fails under it, mid-rollout: kube-apiserver restarted, etcd
// frozen, and a watch that can only resume with 410 Gone. The operator runs as in production
// (leader election on, with a renew deadline longer than the outages), its process never exits,
// and every time the Tenants converge with nothing lost.
import { apiPath } from '../runtime/kube/paths.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_VERSION, CONDITION, KIND } from '../api/tenant.js';
import { waitConverged } from './support/converged.js';
import { lostSince, ofTenants, snapshot, type Snapshot } from './support/snapshot.js';
import { clients, uniqueName } from './support/env.js';
import { faults, waitControlPlaneSettled } from './support/faults.js';
import { componentEnv, metricValue, startLandlord, type LandlordProcess } from './support/landlord.js';
import {
  createSuite,
  createSuiteTenants,
  deleteSuiteTenants,
  expectation,
  names,
  removeSuite,
  setImage,
  sleep,
  SOAK,
  type Suite,
} from './support/suite.js';
import { listResourceVersion, watchFromWhenServed } from './support/watch.js';

const { core } = clients();
const home = uniqueName('cp-home');
let suite: Suite;
let operator: LandlordProcess;
const wanted = new Set<string>();
let before: Snapshot;

const READY_TIMEOUT_MS = 480_000;
/** Each test waits for Applied, then for Ready: more than vitest's default per-test timeout. */
const TEST_TIMEOUT_MS = 600_000;
const scope = () => expectation(suite, [...wanted]);
const running = async (p: LandlordProcess): Promise<boolean> =>
  (await Promise.race([p.exited, sleep(100).then(() => 'running')])) === 'running';
const lists = async (p: LandlordProcess, resource: string): Promise<number> =>
  metricValue(await p.metrics(), 'landlord_api_requests_total', { verb: 'list', resource });
const tenantLists = (p: LandlordProcess): Promise<number> => lists(p, 'tenants');
const watchFailures = (p: LandlordProcess): number =>
  p.logs.filter((l) => l.msg === 'watch failed; restarting').length;

function startOperator(extra: Record<string, string> = {}): LandlordProcess {
  return startLandlord(
    'operator',
    componentEnv({
      // LANDLORD_E2E_LOG_LEVEL=debug (with LANDLORD_E2E_KEEP=1) keeps a fuller operator log to read after a failure.
      LANDLORD_LOG_LEVEL: process.env.LANDLORD_E2E_LOG_LEVEL ?? 'info',
      POD_NAMESPACE: home,
      LANDLORD_LEADER_ELECTION: 'true',
      // Longer than any outage here: the leader keeps its Lease through them instead of stepping down.
      LANDLORD_LEASE_DURATION_SECONDS: '60',
      LANDLORD_RENEW_DEADLINE_SECONDS: '45',
      LANDLORD_RETRY_PERIOD_SECONDS: '2',
      ...extra,
    }),
  );
}

async function create(batch: string[]): Promise<void> {
  await createSuiteTenants(suite, batch);
  batch.forEach((name) => wanted.add(name));
}

/**
 * Converged, and nothing wanted before the fault was deleted or replaced. Says how long the
 * operator's part took (every Tenant Applied for its generation) and how long until all were Ready
 * (which also waits for kube-controller-manager, itself recovering from the same fault).
 */
async function convergedSince(previous: Snapshot, removed: readonly string[] = []): Promise<string> {
  const started = Date.now();
  const appliedMs = await waitConverged(scope(), 240_000, CONDITION.applied);
  // kube-controller-manager's ReplicaSet controller sometimes stalls for minutes after an API
  // server restart ("read version … is not as new as written version"): Ready waits it out.
  await waitConverged(scope(), READY_TIMEOUT_MS);
  const readyMs = Date.now() - started;
  expect(await lostSince(previous, scope(), ofTenants(removed))).toEqual([]);
  expect(await running(operator)).toBe(true);
  return `all Applied in ${(appliedMs / 1000).toFixed(1)} s, all Ready in ${(readyMs / 1000).toFixed(1)} s`;
}

beforeAll(async () => {
  suite = await createSuite('cp');
  await core.createNamespace({ body: { metadata: { name: home } } });
  operator = startOperator();
  await operator.ready();
  await operator.waitForLog((l) => l.msg === 'work loop running');
});

afterAll(async () => {
  await faults.resumeEtcd();
  operator.kill('SIGCONT');
  expect(await operator.stop()).toBe(0);
  await removeSuite(suite);
  await core.deleteNamespace({ name: home });
  const ms = await waitControlPlaneSettled();
  console.log(
    `faults-controlplane: the control plane rolled out a Deployment again ${ms} ms after the tests`,
  );
});

describe('kube-apiserver restarted mid-rollout', () => {
  it(
    'the watches recover, the operator stays up, and the Tenants converge',
    async () => {
      const [first, second] = [names(`${suite.id}-a`, 30), names(`${suite.id}-b`, 20)];
      before = await snapshot(scope());
      await create(first);
      const failuresBefore = watchFailures(operator);
      await faults.restartApiServer(3_000);
      await create(second);
      await setImage(suite, first.slice(0, 10), 'nginx:1.28');
      console.log(`faults-controlplane: after kube-apiserver came back: ${await convergedSince(before)}`);
      expect(watchFailures(operator)).toBeGreaterThan(failuresBefore);
    },
    TEST_TIMEOUT_MS,
  );
});

describe('etcd frozen mid-rollout', () => {
  it(
    'nothing is lost while the API server cannot reach its store, and all converges after',
    async () => {
      before = await snapshot(scope());
      const third = names(`${suite.id}-c`, 20);
      await create(third);
      await setImage(suite, names(`${suite.id}-b`, 20).slice(0, 10), 'nginx:1.28');
      await faults.pauseEtcd();
      try {
        await sleep(15_000);
        expect(await running(operator)).toBe(true);
      } finally {
        await faults.resumeEtcd();
      }
      console.log(`faults-controlplane: after etcd resumed: ${await convergedSince(before)}`);
    },
    TEST_TIMEOUT_MS,
  );
});

describe('a watch that can only resume with 410 Gone', () => {
  it(
    'the operator, frozen across an API server restart and missed writes, relists and converges',
    async () => {
      before = await snapshot(scope());
      const listsBefore = await tenantLists(operator);
      const deploymentListsBefore = await lists(operator, 'deployments');
      const rv = await listResourceVersion(apiPath({ apiVersion: API_VERSION, kind: KIND }));
      operator.kill('SIGSTOP');
      const fourth = names(`${suite.id}-d`, 10);
      const removed = names(`${suite.id}-c`, 20).slice(0, 5);
      try {
        await create(fourth);
        await setImage(suite, names(`${suite.id}-a`, 30).slice(10, 20), 'nginx:1.29');
        await deleteSuiteTenants(removed);
        removed.forEach((name) => wanted.delete(name));
        await faults.restartApiServer(0);
        // Whoever resumes from before these writes (the operator's resourceVersion is no newer) is told 410.
        expect(await watchFromWhenServed(apiPath({ apiVersion: API_VERSION, kind: KIND }), rv)).toBe('gone');
      } finally {
        operator.kill('SIGCONT');
      }
      console.log(`faults-controlplane: after SIGCONT: ${await convergedSince(before, removed)}`);
      expect(await tenantLists(operator)).toBeGreaterThan(listsBefore);
      // The Deployment caches, which keep stubs of what landlord did not make, relist after 410 too.
      expect(await lists(operator, 'deployments')).toBeGreaterThan(deploymentListsBefore);
    },
    TEST_TIMEOUT_MS,
  );

  it.runIf(SOAK)(
    '(soak) frozen for longer than the 5-minute etcd compaction interval, without a restart',
    async () => {
      // Leader election off: a leader frozen past its renew deadline must step down by design.
      expect(await operator.stop()).toBe(0);
      operator = startOperator({ LANDLORD_LEADER_ELECTION: 'false' });
      await operator.ready();
      before = await snapshot(scope());
      const listsBefore = await tenantLists(operator);
      const rv = await listResourceVersion(apiPath({ apiVersion: API_VERSION, kind: KIND }));
      operator.kill('SIGSTOP');
      const batches = Array.from({ length: 11 }, (_, i) => names(`${suite.id}-s${i}`, 3));
      try {
        for (const batch of batches) {
          await create(batch);
          await sleep(30_000);
        }
        const answer = await watchFromWhenServed(apiPath({ apiVersion: API_VERSION, kind: KIND }), rv);
        console.log(`faults-controlplane (soak): a watch from before the freeze now gets: ${answer}`);
      } finally {
        operator.kill('SIGCONT');
      }
      console.log(`faults-controlplane (soak): after SIGCONT: ${await convergedSince(before)}`);
      console.log(`faults-controlplane (soak): tenant lists ${listsBefore} → ${await tenantLists(operator)}`);
    },
    330_000 + TEST_TIMEOUT_MS,
  );
});
