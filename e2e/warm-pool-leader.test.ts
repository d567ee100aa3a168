// Warm-pool claims across a leader change (issue 41): two operator replicas with leader election,
// a pool of 4, a burst of 10 new Tenants; the leader is SIGKILLed right after it logs a claim, and
// the standby takes over once the Lease expires. However the claims fell on either side of the
// change, no member goes to two Tenants, every Tenant is Ready in exactly one namespace of its own,
// no namespace is left without a Tenant or a pool, and the pool is back to 4. Short Lease timings
// keep the test quick; nothing here depends on how quick.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONDITION, LABEL, type Tenant } from '../api/tenant.js';
import { waitUntil } from '../harness/wait.js';
import { clients, uniqueName } from './support/env.js';
import { componentEnv, startLandlord, type LandlordProcess } from './support/landlord.js';
import { createTenant, deleteTenant, waitForCondition } from './support/tenants.js';
import {
  CLASSES,
  createClass,
  members,
  orphanNamespaces,
  pooledClass,
  pooledTenant,
  readyMembers,
} from './support/warm-pool.js';

const { core, custom } = clients();
const id = uniqueName('wpl');
/** The replicas' own namespace: their Lease lives here, apart from any other test's operator. */
const home = `home-${id}`;
const className = `${id}-pool`;
const burst = Array.from({ length: 10 }, (_, i) => `${id}-t${i}`);
const replicas: LandlordProcess[] = [];

function replica(): LandlordProcess {
  const child = startLandlord(
    'operator',
    componentEnv({
      POD_NAMESPACE: home,
      LANDLORD_IDENTITY: uniqueName('replica'),
      LANDLORD_LEADER_ELECTION: 'true',
      LANDLORD_LEASE_DURATION_SECONDS: '4',
      LANDLORD_RENEW_DEADLINE_SECONDS: '3',
      LANDLORD_RETRY_PERIOD_SECONDS: '1',
      LANDLORD_INSTALL_CRD: 'false',
      LANDLORD_LOG_LEVEL: 'info',
    }),
  );
  replicas.push(child);
  return child;
}

const leads = (p: LandlordProcess): boolean => p.logs.some((l) => l.msg === 'became leader');

beforeAll(async () => {
  await core.createNamespace({ body: { metadata: { name: home } } });
  await createClass(className, pooledClass(4, `${id}-{id}`));
});

afterAll(async () => {
  replicas.forEach((p) => p.kill('SIGKILL'));
  await Promise.all(replicas.map((p) => p.exited));
  await Promise.all(burst.map((name) => deleteTenant(custom, name).catch(() => undefined)));
  await custom.deleteClusterCustomObject({ ...CLASSES, name: className }).catch(() => undefined);
  await core.deleteNamespace({ name: home }).catch(() => undefined);
});

describe('claims across a leader change', () => {
  it('give no member to two Tenants: each Tenant Ready in one namespace of its own, the pool back to 4', async () => {
    const [a, b] = [replica(), replica()];
    await Promise.all([a.ready(), b.ready()]);
    const leader = await waitUntil('a leader', () => Promise.resolve([a, b].find(leads)), {
      timeoutMs: 30_000,
    });
    const standby = leader === a ? b : a;
    const memberNames = await readyMembers(className, 4);
    const from = leader.logs.length;
    const creating = Promise.all(burst.map((name) => createTenant(custom, pooledTenant(name, className))));
    await waitUntil(
      'the leader to claim a member',
      () =>
        Promise.resolve(
          leader.logs.slice(from).some((l) => l.msg === 'claimed warm pool member') || undefined,
        ),
      { timeoutMs: 60_000, intervalMs: 5 },
    );
    leader.kill('SIGKILL');
    expect(await leader.exited).toBe('SIGKILL');
    await creating;
    await waitUntil('the standby to lead', () => Promise.resolve(leads(standby) || undefined), {
      timeoutMs: 60_000,
    });
    const done: Tenant[] = await Promise.all(
      burst.map((name) => waitForCondition(custom, name, { type: CONDITION.ready, status: 'True' }, 180_000)),
    );
    const namespaces = done.map((t) => t.status!.namespace!);
    expect(new Set(namespaces).size).toBe(burst.length);
    for (const t of done) {
      // Exactly one namespace carries the Tenant's label, and the Tenant alone controls it.
      const held = await core.listNamespace({ labelSelector: `${LABEL.tenant}=${t.metadata.name}` });
      expect(held.items.map((ns) => ns.metadata!.name)).toEqual([t.status!.namespace]);
      expect(held.items[0]!.metadata?.ownerReferences?.map((o) => o.uid)).toEqual([t.metadata.uid]);
    }
    // Each member of the full pool is either one Tenant's now or still a member.
    const stillMembers = (await members(className)).map((m) => m.ns.metadata!.name!);
    for (const member of memberNames) {
      const holders = namespaces.filter((ns) => ns === member).length;
      expect(holders + (stillMembers.includes(member) ? 1 : 0)).toBe(1);
    }
    const claimed = memberNames.filter((m) => namespaces.includes(m)).length;
    const byLeader = leader.logs.slice(from).filter((l) => l.msg === 'claimed warm pool member').length;
    console.log(
      `leader change: ${claimed} of 4 members claimed (${byLeader} logged by the killed leader), the rest of ${burst.length} cold`,
    );
    await readyMembers(className, 4, { abortIf: standby.assertRunning });
    expect(await orphanNamespaces(`${id}-`)).toEqual([]);
  });
});
