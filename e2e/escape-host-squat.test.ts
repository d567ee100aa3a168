// Issue 55, host class 1: a host squatted before its tenant signs up. A row used to be able to list
// in its hosts the templated host of a tenant that did not exist yet (victim.apps…): when the victim
// came it got HostConflict, nothing was applied for it, and the squatter served its URL; and since
// one conflicting host refused the whole tenant, an older row naming a newer tenant's host froze it.
// A templated host now belongs to its name whether or not the tenant exists, and a conflict among
// custom hosts withholds only that host. On the real control plane, one operator: the honest path
// (a templated host and a custom one, routed and announced, HostsReady=True); then the squat (the
// host is withheld with HostTemplated and a Warning Event, the squatter runs and routes the rest,
// the victim signs up and holds its host); then a custom host another holds (only it is withheld,
// Ready stays True, and the tenant keeps taking row edits).
import { describe, expect, it } from 'vitest';
import { CONDITION } from '../api/tenant.js';
import { waitUntil } from '../harness/wait.js';
import { clients } from './support/env.js';
import { ready } from './support/escape.js';
import {
  announcedHosts,
  editSpec,
  holdsExactly,
  hostScene,
  hostsReady,
  routedHosts,
} from './support/hosts.js';
import { eventsWritten } from './support/sync.js';
import { condition, createTenant, readTenant } from './support/tenants.js';

const { apps, custom } = clients();
const { tenantName, templated, customHost, exposedTenant } = hostScene('squat');
const HONEST = tenantName('honest');
const SQUATTER = tenantName('squatter');
const VICTIM = tenantName('victim');
const SHOP = customHost('shop');
const WWW = customHost('www');

describe('a templated host squatted before its tenant signs up', () => {
  it('honest path: the templated host and a custom one are routed and announced; HostsReady=True', async () => {
    await createTenant(custom, exposedTenant(HONEST, [SHOP]));
    await ready(custom, HONEST);
    await holdsExactly(HONEST, [templated(HONEST), SHOP]);
    expect(await hostsReady(HONEST, 'True', 'HostsHeld')).toContain(SHOP);
  });

  it("the squat: a row listing a not-yet tenant's templated host runs, but that host is withheld (HostTemplated)", async () => {
    await createTenant(custom, exposedTenant(SQUATTER, [templated(VICTIM), WWW]));
    const squatter = await ready(custom, SQUATTER);
    expect(condition(squatter, CONDITION.applied)?.status).toBe('True');
    const message = await hostsReady(SQUATTER, 'False', 'HostTemplated');
    expect(message).toContain(`"${templated(VICTIM)}" is withheld`);
    expect(message).toContain(`tenant ${VICTIM}`);
    await holdsExactly(SQUATTER, [templated(SQUATTER), WWW]);
    const events = await eventsWritten(SQUATTER, 'HostTemplated');
    expect(events.map((e) => e.type)).toContain('Warning');
  });

  it('the victim signs up later and holds its own host; the squatter never routes it', async () => {
    await createTenant(custom, exposedTenant(VICTIM, []));
    await ready(custom, VICTIM);
    await holdsExactly(VICTIM, [templated(VICTIM)]);
    expect(await hostsReady(VICTIM, 'True', 'HostsHeld')).toContain(templated(VICTIM));
    expect(await routedHosts(SQUATTER)).not.toContain(templated(VICTIM));
    expect(await announcedHosts(SQUATTER)).not.toContain(templated(VICTIM));
  });

  it("an older tenant naming a newer tenant's host gets it withheld, and freezes nobody", async () => {
    await editSpec(HONEST, (spec) => {
      spec.hosts = [templated(VICTIM), SHOP];
    });
    await hostsReady(HONEST, 'False', 'HostTemplated');
    await holdsExactly(HONEST, [templated(HONEST), SHOP]);
    // The victim keeps its host and its Ready.
    expect(await routedHosts(VICTIM)).toEqual([templated(VICTIM)]);
    expect(condition(await readTenant(custom, VICTIM), CONDITION.ready)?.status).toBe('True');
  });

  it('a custom host another holds is withheld on its own: the tenant stays Ready and takes row edits', async () => {
    // The squatter (newer) asks for the honest tenant's custom host too.
    await editSpec(SQUATTER, (spec) => {
      spec.hosts = [SHOP, WWW];
    });
    const message = await hostsReady(SQUATTER, 'False', 'HostConflict');
    expect(message).toContain(`"${SHOP}" is withheld: Tenant ${HONEST} holds it`);
    await holdsExactly(SQUATTER, [templated(SQUATTER), WWW]);
    expect(condition(await readTenant(custom, SQUATTER), CONDITION.ready)?.status).toBe('True');
    // A row edit still rolls out while the host stays withheld.
    await editSpec(SQUATTER, (spec) => {
      const deployment = spec.deployment as { spec: { replicas?: number } };
      deployment.spec.replicas = 2;
    });
    await waitUntil(
      'the edit to reach the Deployment',
      async () =>
        (await apps.readNamespacedDeployment({ name: `${SQUATTER}-app`, namespace: SQUATTER })).spec
          ?.replicas === 2,
      { timeoutMs: 60_000, intervalMs: 250 },
    );
    await hostsReady(SQUATTER, 'False', 'HostConflict');
    expect(await routedHosts(HONEST)).toContain(SHOP);
  });
});
