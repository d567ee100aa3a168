// Two replicas of each component, as deployed: one leader each through its Lease. Only the leaders
// write, however many rows are created and edited; when both leaders are killed at once the
// standbys take over, and what changed meanwhile converges with nothing lost. (leader-election.test.ts
// covers the operator's Lease itself: takeover timing, hand-back on SIGTERM.)
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { managedSelector, tableIdentity } from '../sync/identity.js';
import { waitUntil } from '../harness/wait.js';
import { waitConverged, type Expectation } from './support/converged.js';
import { lostSince, ofTenants, snapshot } from './support/snapshot.js';
import { clients, uniqueName } from './support/env.js';
import { componentEnv, metricValue, startLandlord, type LandlordProcess } from './support/landlord.js';
import { deploymentManifest } from './support/tenants.js';
import { tenantsLost, tenantUids, waitSynced } from './support/sync-converged.js';
import { createTable, deleteSyncedTenants, putRow, startSync, updateRow } from './support/sync.js';

const { core } = clients();
const home = uniqueName('ha-home');
const ns = uniqueName('ha');
const table = uniqueName('ha');
const rows = new Map<string, string>();
const processes: LandlordProcess[] = [];

const LEASE = {
  POD_NAMESPACE: home,
  LANDLORD_LEADER_ELECTION: 'true',
  LANDLORD_LEASE_DURATION_SECONDS: '4',
  LANDLORD_RENEW_DEADLINE_SECONDS: '3',
  LANDLORD_RETRY_PERIOD_SECONDS: '1',
  LANDLORD_INSTALL_CRD: 'false',
  LANDLORD_LOG_LEVEL: 'info',
};

function replica(component: 'operator' | 'sync'): LandlordProcess {
  const env = { ...LEASE, LANDLORD_IDENTITY: uniqueName(`${component}-replica`) };
  const p =
    component === 'sync'
      ? startSync(table, { ...env, LANDLORD_SYNC_RESYNC_SECONDS: '5' })
      : startLandlord('operator', componentEnv(env));
  processes.push(p);
  return p;
}

/** A row whose Deployment lives in this test's namespace. */
function rowFor(name: string, image: string): Record<string, unknown> {
  const deployment = deploymentManifest(`${name}-app`, ns, image);
  return { name, spec: JSON.stringify(deployment), customizations: '[]', deleted: false };
}

async function put(names: string[], image = 'nginx:1.27'): Promise<void> {
  for (const name of names) {
    await putRow(table, rowFor(name, image));
    rows.set(name, image);
  }
}

async function edit(names: string[], image: string): Promise<void> {
  for (const name of names) {
    await updateRow(table, name, { spec: String(rowFor(name, image).spec) });
    rows.set(name, image);
  }
}

const scope = (): Expectation => ({
  tenants: [...rows.keys()],
  selector: managedSelector(tableIdentity(table)),
  namespaces: [ns],
});

/** Both components converged: every row's Tenant Synced with its content, and Ready with its children. */
async function converged(): Promise<string> {
  const started = Date.now();
  await waitSynced(table, rows, 120_000);
  await waitConverged(scope(), 180_000);
  return `${((Date.now() - started) / 1000).toFixed(1)} s`;
}

/** Writes to the API server other than the Lease, from the replica's own request metrics. */
async function writes(p: LandlordProcess): Promise<number> {
  const text = await p.metrics();
  return text
    .split('\n')
    .filter((line) => line.startsWith('landlord_api_requests_total{'))
    .filter(
      (line) => /verb="(create|update|patch|apply|delete)"/.test(line) && !line.includes('resource="leases"'),
    )
    .reduce((sum, line) => sum + Number(line.slice(line.lastIndexOf(' ') + 1)), 0);
}

const isLeader = async (p: LandlordProcess): Promise<boolean> =>
  metricValue(await p.metrics(), 'landlord_leader') === 1;

/** The pair as [leader, standby], once one of them leads. */
async function leaderOf(pair: LandlordProcess[]): Promise<[LandlordProcess, LandlordProcess]> {
  const leader = await waitUntil(
    'one replica of the pair to lead',
    async () => {
      for (const p of pair) if (await isLeader(p)) return p;
      return undefined;
    },
    { timeoutMs: 60_000, intervalMs: 500 },
  );
  return [leader, pair.find((p) => p !== leader)!];
}

beforeAll(async () => {
  await core.createNamespace({ body: { metadata: { name: home } } });
  await core.createNamespace({ body: { metadata: { name: ns } } });
  await createTable(table);
});

afterAll(async () => {
  for (const p of processes) p.kill('SIGKILL');
  await Promise.all(processes.map((p) => p.exited));
  await deleteSyncedTenants(table);
  await core.deleteNamespace({ name: ns });
  await core.deleteNamespace({ name: home });
});

describe('two replicas of sync and of the operator', () => {
  let syncs: [LandlordProcess, LandlordProcess];
  let operators: [LandlordProcess, LandlordProcess];

  it('only the leaders write while Tenants are created and edited', async () => {
    const pairs = [
      [replica('sync'), replica('sync')],
      [replica('operator'), replica('operator')],
    ];
    await Promise.all(pairs.flat().map((p) => p.ready()));
    syncs = await leaderOf(pairs[0]!);
    operators = await leaderOf(pairs[1]!);
    const names = Array.from({ length: 20 }, (_, i) => `${table}-${String(i).padStart(2, '0')}`);
    await put(names);
    await edit(names.slice(0, 5), 'nginx:1.28');
    console.log(`faults-leader: 20 rows converged in ${await converged()}`);
    expect(await writes(syncs[0])).toBeGreaterThan(0);
    expect(await writes(operators[0])).toBeGreaterThan(0);
    expect(await writes(syncs[1])).toBe(0);
    expect(await writes(operators[1])).toBe(0);
  });

  it('killing both leaders at once hands over to the standbys, which alone write, and nothing is lost', async () => {
    const before = await snapshot(scope());
    const uids = await tenantUids(table);
    syncs[0].kill('SIGKILL');
    operators[0].kill('SIGKILL');
    const killedAt = Date.now();
    // Changes while no one leads: new rows, edits, and two rows deleted on purpose.
    const added = Array.from({ length: 10 }, (_, i) => `${table}-n${i}`);
    await put(added);
    await edit([...rows.keys()].slice(5, 10), 'nginx:1.29');
    const removed = [...rows.keys()].slice(10, 12);
    for (const name of removed) {
      await updateRow(table, name, { deleted: true });
      rows.delete(name);
    }
    await Promise.all(
      [syncs[1], operators[1]].map((p) => p.waitForLog((l) => l.msg === 'became leader', 60_000)),
    );
    console.log(`faults-leader: both standbys led ${Date.now() - killedAt} ms after SIGKILL`);
    console.log(`faults-leader: converged ${await converged()} after the standbys took over`);
    expect(await tenantsLost(table, uids, new Set(removed))).toEqual([]);
    expect(await lostSince(before, scope(), ofTenants(removed))).toEqual([]);
    // New standbys join; the new leaders keep all the writing.
    const standbys = [replica('sync'), replica('operator')];
    await Promise.all(standbys.map((p) => p.ready()));
    await edit([...rows.keys()].slice(0, 5), 'nginx:1.30');
    await converged();
    for (const p of standbys) expect(await writes(p)).toBe(0);
    expect(await writes(syncs[1])).toBeGreaterThan(0);
    expect(await writes(operators[1])).toBeGreaterThan(0);
  });
});
