// Issue 55, host class 3: a hand-made route that keeps a host from everyone. An Ingress a tenant's
// team made by hand while the tenant held a host outranked every Tenant once the row dropped the
// host (a route not made by landlord always won), so nobody could ever have that host again. A
// route made by hand in a tenant namespace now holds nothing for a host that namespace does not
// hold: the Tenant whose namespace it is in reports it (HostsReady=False, StrayRoute, and a Warning
// Event), landlord never deletes it, and another Tenant may take the host. On the real control
// plane, one operator: the honest path (the team routes a host its tenant holds), then the row
// drops the host, and a second Tenant asks for it.
import { describe, expect, it } from 'vitest';
import { clients } from './support/env.js';
import { ready } from './support/escape.js';
import {
  editSpec,
  handMadeIngress,
  holdsExactly,
  hostScene,
  hostsReady,
  readIngress,
} from './support/hosts.js';
import { eventsWritten } from './support/sync.js';
import { createTenant } from './support/tenants.js';

const { custom } = clients();
const { tenantName, templated, customHost, exposedTenant } = hostScene('handmade');
const FORMER = tenantName('former');
const NEXT = tenantName('next');
const SHOP = customHost('shop');
const HAND = 'by-hand';
let madeVersion: string | undefined;

describe("a route made by hand in a tenant's namespace", () => {
  it('honest path: the team routes a host its tenant holds; nothing to report', async () => {
    await createTenant(custom, exposedTenant(FORMER, [SHOP]));
    await ready(custom, FORMER);
    await holdsExactly(FORMER, [templated(FORMER), SHOP]);
    madeVersion = (await handMadeIngress(FORMER, HAND, SHOP)).metadata?.resourceVersion;
    await hostsReady(FORMER, 'True', 'HostsHeld');
  });

  it('the row drops the host: the namespace stops announcing it, and the Tenant reports the stray route', async () => {
    await editSpec(FORMER, (spec) => {
      spec.hosts = [];
    });
    await holdsExactly(FORMER, [templated(FORMER)]);
    const message = await hostsReady(FORMER, 'False', 'StrayRoute');
    expect(message).toContain(`Ingress ${FORMER}/${HAND} was not made by landlord and serves ${SHOP}`);
    const events = await eventsWritten(FORMER, 'StrayRoute');
    expect(events.map((e) => e.type)).toContain('Warning');
  });

  it('another Tenant asks for the host and gets it: the hand-made route holds nothing, and is never touched', async () => {
    await createTenant(custom, exposedTenant(NEXT, [SHOP]));
    await ready(custom, NEXT);
    await holdsExactly(NEXT, [templated(NEXT), SHOP]);
    await hostsReady(NEXT, 'True', 'HostsHeld');
    expect((await readIngress(FORMER, HAND)).metadata?.resourceVersion).toBe(madeVersion);
    await hostsReady(FORMER, 'False', 'StrayRoute');
  });
});
