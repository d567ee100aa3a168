// Issue 55, host class 2: a host kept after its holder came back. A Tenant that took a custom host
// while its holder was archived kept routing it once the holder was active again (two routes for
// one host), and its namespace still announced it in landlord.dev/hosts, so its team could keep
// making routes for it. Now a change of one Tenant's hosts wakes every other Tenant that claims one
// of them, and a Tenant that loses a host loses its route and its announcement at once. On the real
// control plane, one operator with no periodic resync within the test (so nothing is left to a
// resync): the honest path (the holder routes its host, the newer Tenant has it withheld and runs),
// the holder archived (the newer one takes it), the holder back (it takes the host back and the
// newer one drops it from its route and namespace, HostsReady naming the holder); and a templated
// host, which no row may take even while its tenant is archived.
import { describe, expect, it } from 'vitest';
import { CONDITION } from '../api/tenant.js';
import { clients } from './support/env.js';
import { ready } from './support/escape.js';
import { editSpec, holdsExactly, hostScene, hostsReady, routedHosts } from './support/hosts.js';
import { condition, createTenant, readTenant, waitForCondition } from './support/tenants.js';

const { custom } = clients();
const { tenantName, templated, customHost, exposedTenant } = hostScene('kept');
const HOLDER = tenantName('holder');
const TAKER = tenantName('taker');
const SHOP = customHost('shop');
/** How long "at once" may take on a loaded two-core machine: far below any resync. */
const AT_ONCE_MS = 30_000;

const setState = (name: string, state: 'active' | 'archived'): Promise<void> =>
  editSpec(name, (spec) => {
    spec.state = state;
  });

/** Archives the Tenant, as its row would, and waits until it says so. */
async function archive(name: string): Promise<void> {
  await setState(name, 'archived');
  await waitForCondition(
    custom,
    name,
    { type: CONDITION.ready, status: 'False', reason: 'Archived' },
    90_000,
  );
}

describe('a custom host its holder takes back', () => {
  it('honest path: the older Tenant routes the host; the newer one has it withheld and runs', async () => {
    await createTenant(custom, exposedTenant(HOLDER, [SHOP]));
    await ready(custom, HOLDER);
    await holdsExactly(HOLDER, [templated(HOLDER), SHOP]);
    await createTenant(custom, exposedTenant(TAKER, [SHOP]));
    await ready(custom, TAKER);
    expect(await hostsReady(TAKER, 'False', 'HostConflict')).toContain(`Tenant ${HOLDER} holds it`);
    await holdsExactly(TAKER, [templated(TAKER)]);
  });

  it('the holder is archived: it lets the host go and the newer Tenant takes it', async () => {
    await archive(HOLDER);
    await holdsExactly(TAKER, [templated(TAKER), SHOP], AT_ONCE_MS);
    await hostsReady(TAKER, 'True', 'HostsHeld');
    expect(await routedHosts(HOLDER)).toEqual([]);
  });

  it('the holder comes back: it takes the host back, and the newer Tenant loses route and announcement at once', async () => {
    await setState(HOLDER, 'active');
    await ready(custom, HOLDER);
    await holdsExactly(HOLDER, [templated(HOLDER), SHOP], AT_ONCE_MS);
    // No resync runs within the test: the loss comes from the holder's own change.
    await holdsExactly(TAKER, [templated(TAKER)], AT_ONCE_MS);
    expect(await hostsReady(TAKER, 'False', 'HostConflict')).toContain(`Tenant ${HOLDER} holds it`);
    expect(condition(await readTenant(custom, TAKER), CONDITION.ready)?.status).toBe('True');
  });

  it('a templated host is never taken, even while its tenant is archived', async () => {
    await archive(HOLDER);
    await editSpec(TAKER, (spec) => {
      spec.hosts = [templated(HOLDER)];
    });
    expect(await hostsReady(TAKER, 'False', 'HostTemplated')).toContain(`tenant ${HOLDER}`);
    await holdsExactly(TAKER, [templated(TAKER)]);
    await setState(HOLDER, 'active');
    await ready(custom, HOLDER);
    await holdsExactly(HOLDER, [templated(HOLDER), SHOP]);
  });
});
