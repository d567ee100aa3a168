// Leader election with two real operator processes: only the Lease holder acts; when it dies the
// standby takes over once the Lease expires; a leader stopped by SIGTERM hands the Lease back and
// exits 0. Short Lease timings keep the test quick; nothing here depends on how quick.
import { CoordinationV1Api, type V1Lease } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONDITION } from '../api/tenant.js';
import { waitUntil } from '../harness/wait.js';
import { clients, uniqueName } from './support/env.js';
import {
  allWrites,
  componentEnv,
  metricValue,
  startLandlord,
  writeRequests,
  type LandlordProcess,
} from './support/landlord.js';
import { createTenant, deleteTenant, tenantManifest, waitForCondition } from './support/tenants.js';

const { core, custom, kc } = clients();
const coordination = kc.makeApiClient(CoordinationV1Api);

// The replicas' own namespace (their Lease lives here), apart from landlord-system so that no other
// test's operator competes for it, and the namespace their tenants' children go to.
const home = uniqueName('leader');
const tenantsNs = uniqueName('leader-tenants');
const started: LandlordProcess[] = [];
const tenants: string[] = [];

function replica(name: string): LandlordProcess {
  const child = startLandlord(
    'operator',
    componentEnv({
      POD_NAMESPACE: home,
      LANDLORD_IDENTITY: uniqueName(name),
      LANDLORD_LEADER_ELECTION: 'true',
      LANDLORD_LEASE_DURATION_SECONDS: '4',
      LANDLORD_RENEW_DEADLINE_SECONDS: '3',
      LANDLORD_RETRY_PERIOD_SECONDS: '1',
      // The CRD is installed already; installing it would count as an apply by the standby too.
      LANDLORD_INSTALL_CRD: 'false',
    }),
  );
  started.push(child);
  return child;
}

const readLease = (): Promise<V1Lease> =>
  coordination.readNamespacedLease({ name: 'landlord-operator', namespace: home });
const becameLeader = (p: LandlordProcess): boolean => p.logs.some((l) => l.msg === 'became leader');
/** Writes other than the Lease's: children are created by POST and changed by apply, status applied. */
const applies = async (p: LandlordProcess): Promise<number> =>
  (await allWrites(p)) - (await writeRequests(p, ['leases']));
const leaderGauge = async (p: LandlordProcess): Promise<number> =>
  metricValue(await p.metrics(), 'landlord_leader');

/** Creates a Tenant and waits until it is Ready, which only a leader can bring about. */
async function reconciledTenant(): Promise<void> {
  const name = uniqueName('leader');
  tenants.push(name);
  await createTenant(custom, tenantManifest(name, tenantsNs));
  await waitForCondition(custom, name, { type: CONDITION.ready, status: 'True' });
}

beforeAll(async () => {
  await core.createNamespace({ body: { metadata: { name: home } } });
  await core.createNamespace({ body: { metadata: { name: tenantsNs } } });
});

afterAll(async () => {
  started.forEach((p) => p.kill('SIGKILL'));
  await Promise.all(started.map((p) => p.exited));
  for (const name of tenants) await deleteTenant(custom, name).catch(() => undefined);
  await core.deleteNamespace({ name: home });
  await core.deleteNamespace({ name: tenantsNs });
});

describe('two operator replicas', () => {
  let leader: LandlordProcess;
  let standby: LandlordProcess;

  it('elect one leader, which alone acts; the other stands by, ready', async () => {
    const [a, b] = [replica('replica-a'), replica('replica-b')];
    await Promise.all([a.ready(), b.ready()]);
    const holder = await waitUntil(
      'a replica to hold the Lease',
      async () => (await readLease()).spec?.holderIdentity || undefined,
      { timeoutMs: 30_000 },
    );
    [leader, standby] = holder === a.identity ? [a, b] : [b, a];
    expect(holder).toBe(leader.identity);
    await leader.waitForLog((l) => l.msg === 'became leader');
    await reconciledTenant();
    expect(becameLeader(standby)).toBe(false);
    expect(await leaderGauge(leader)).toBe(1);
    expect(await leaderGauge(standby)).toBe(0);
    expect(await applies(leader)).toBeGreaterThan(0);
    expect(await applies(standby)).toBe(0);
  });

  it('when the leader is killed, the standby takes over once the Lease expires, and acts', async () => {
    const before = (await readLease()).spec!;
    leader.kill('SIGKILL');
    await leader.exited;
    const killedAt = Date.now();
    await standby.waitForLog((l) => l.msg === 'became leader');
    // For the record, not asserted: expected about the Lease duration plus a retry period.
    console.log(`leader election: the standby took over ${Date.now() - killedAt} ms after SIGKILL`);
    const after = (await readLease()).spec!;
    expect(after.holderIdentity).toBe(standby.identity);
    expect(after.leaseTransitions).toBe((before.leaseTransitions ?? 0) + 1);
    expect(await leaderGauge(standby)).toBe(1);
    await reconciledTenant();
    expect(await applies(standby)).toBeGreaterThan(0);
  });

  it('a leader stopped by SIGTERM hands the Lease back and exits 0; a new replica takes the free Lease', async () => {
    expect(await standby.stop()).toBe(0);
    expect(standby.logs.some((l) => l.msg === 'released the leader lease')).toBe(true);
    expect((await readLease()).spec?.holderIdentity ?? '').toBe('');
    // A released Lease has no holder: a new replica acquires it without waiting for it to expire.
    const next = replica('replica-c');
    await next.waitForLog((l) => l.msg === 'became leader');
    expect((await readLease()).spec?.holderIdentity).toBe(next.identity);
    await reconciledTenant();
    expect(await next.stop()).toBe(0);
  });
});
