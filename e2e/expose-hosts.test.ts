// A row's `hosts` (issue 40), from the table through sync to the tenant's route, on the real control
// plane: custom domains join the templated host in the Ingress and the namespace's
// landlord.dev/hosts; two rows asking for one host: the older Tenant holds it and the newer runs
// with that host withheld (HostsReady=False, HostConflict naming the holder), until the older's row
// drops it and the newer gets it. A hand-made Ingress outside tenant namespaces holds its host
// (never touched) until it is deleted. A wildcard, an IP and a host outside
// allowedDomains are refused with their reasons. One sync and one operator.
import type { V1Ingress } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOSTS_ANNOTATION } from '../api/tenant.js';
import { waitUntil } from '../harness/wait.js';
import { EXPOSE_NAMES } from '../operator/exposure/objects.js';
import { clients, uniqueName } from './support/env.js';
import { createClass, deleteClass, ready, refusedWith } from './support/escape.js';
import { hostsReady } from './support/hosts.js';
import { readTenant } from './support/tenants.js';
import { componentEnv, startLandlord, type LandlordProcess } from './support/landlord.js';
import { createTable, deleteSyncedTenants, putRow, row, startSync, updateRow } from './support/sync.js';

const { core, custom, kc } = clients();
const id = uniqueName('hosts');
const CLASS = `${id}-web`;
const table = `${id}-table`;
const older = `${id}-a`;
const newer = `${id}-b`;
const SHOP = `shop-${id}.example.org`;
let operator: LandlordProcess;
let sync: LandlordProcess;

const rowOf = (name: string, hosts: unknown): Record<string, unknown> => ({
  ...row(name),
  class: CLASS,
  hosts,
});

async function ingressHosts(namespace: string): Promise<string[]> {
  const { NetworkingV1Api } = await import('@kubernetes/client-node');
  const ingress: V1Ingress = await kc
    .makeApiClient(NetworkingV1Api)
    .readNamespacedIngress({ name: EXPOSE_NAMES.route, namespace });
  return (ingress.spec?.rules ?? []).map((r) => r.host ?? '');
}

const announced = async (namespace: string): Promise<string | undefined> =>
  (await core.readNamespace({ name: namespace })).metadata?.annotations?.[HOSTS_ANNOTATION];

beforeAll(async () => {
  await createClass(custom, CLASS, {
    namespace: { mode: 'PerTenant', nameTemplate: '{name}' },
    expose: { port: 8080, host: '{name}.apps.example.com', ingressClassName: 'nginx' },
    allowedDomains: ['apps.example.com', 'example.org'],
  });
  operator = startLandlord(
    'operator',
    componentEnv({ LANDLORD_LOG_LEVEL: 'info', LANDLORD_OPERATOR_RESYNC_SECONDS: '10' }),
  );
  await operator.ready();
  await createTable(table);
  // An L of S, as the DocumentClient writes a list of strings.
  await putRow(table, rowOf(older, [SHOP]));
  sync = startSync(table, { LANDLORD_SYNC_RESYNC_SECONDS: '5' });
  await ready(custom, older);
});

afterAll(async () => {
  await sync?.stop();
  await deleteSyncedTenants(table).catch(() => undefined);
  if ((operator as LandlordProcess | undefined) !== undefined) expect(await operator.stop()).toBe(0);
  await deleteClass(custom, CLASS);
});

describe("a row's hosts", () => {
  it('are routed beside the templated host and announced on the namespace, sorted', async () => {
    const expected = [`${older}.apps.example.com`, SHOP].sort();
    expect((await readTenant(custom, older)).spec?.hosts).toEqual([SHOP]);
    expect(await ingressHosts(older)).toEqual(expected);
    expect(await announced(older)).toBe(expected.join(','));
  });

  it('a second row asking for the same host (as JSON text) runs with that host withheld, naming the holder', async () => {
    await putRow(table, rowOf(newer, JSON.stringify([SHOP])));
    await ready(custom, newer);
    const message = await hostsReady(newer, 'False', 'HostConflict');
    expect(message).toContain(`"${SHOP}" is withheld: Tenant ${older} holds it`);
    expect(await ingressHosts(newer)).toEqual([`${newer}.apps.example.com`]);
    expect(await ingressHosts(older)).toContain(SHOP);
  });

  it('the holder drops it: the other Tenant gets it, and only it routes it', async () => {
    await updateRow(table, older, { hosts: [] });
    await hostsReady(newer, 'True', 'HostsHeld');
    await waitUntil(
      'the older Ingress to drop the host',
      async () => !(await ingressHosts(older)).includes(SHOP),
      {
        timeoutMs: 60_000,
        intervalMs: 500,
      },
    );
    expect(await ingressHosts(newer)).toEqual([`${newer}.apps.example.com`, SHOP].sort());
    expect(await announced(older)).toBe(`${older}.apps.example.com`);
    expect(await announced(newer)).toBe([`${newer}.apps.example.com`, SHOP].sort().join(','));
  });

  it('a hand-made Ingress that serves a host holds it: the row is refused naming it, and the Ingress is never touched', async () => {
    const { NetworkingV1Api } = await import('@kubernetes/client-node');
    const networking = kc.makeApiClient(NetworkingV1Api);
    const hand = `hand-${id}.example.org`;
    const made = await networking.createNamespacedIngress({
      namespace: 'default',
      body: {
        metadata: { name: `${id}-hand` },
        spec: {
          ingressClassName: 'nginx',
          rules: [
            {
              host: hand,
              http: {
                paths: [
                  {
                    path: '/',
                    pathType: 'Prefix',
                    backend: { service: { name: 'x', port: { number: 80 } } },
                  },
                ],
              },
            },
          ],
        },
      },
    });
    const claimant = `${id}-c`;
    await putRow(table, rowOf(claimant, [hand]));
    const message = await hostsReady(claimant, 'False', 'HostConflict');
    expect(message).toContain(
      `"${hand}" is withheld: Ingress default/${id}-hand (not made by landlord) holds it`,
    );
    const after = await networking.readNamespacedIngress({ name: `${id}-hand`, namespace: 'default' });
    expect(after.metadata?.resourceVersion).toBe(made.metadata?.resourceVersion);
    // Its owner lets it go: the Tenant gets the host.
    await networking.deleteNamespacedIngress({ name: `${id}-hand`, namespace: 'default' });
    await hostsReady(claimant, 'True', 'HostsHeld');
    expect(await ingressHosts(claimant)).toEqual([`${claimant}.apps.example.com`, hand].sort());
  });

  it.each([
    ['a wildcard', `*.${id}.example.org`, 'InvalidHost', 'is a wildcard'],
    ['an IP address', '10.1.2.3', 'InvalidHost', 'is an IP address'],
    [
      'a host outside allowedDomains',
      `shop-${id}.example.net`,
      'HostNotAllowed',
      "is not under the class's allowedDomains: apps.example.com, example.org",
    ],
  ])('%s is refused with %s', async (_what, host, reason, text) => {
    const name = `${id}-${reason.toLowerCase()}-${host.startsWith('*') ? 'w' : host.startsWith('1') ? 'ip' : 'out'}`;
    await putRow(table, rowOf(name, [host]));
    const message = await refusedWith(custom, name, reason);
    expect(message).toContain(`the row's hosts[0] ${JSON.stringify(host)} ${text}`);
  });
});
