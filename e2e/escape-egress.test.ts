// Issue 37, class 3: an Isolated tenant's pods reach nowhere but their own namespace, DNS and what
// their class allows; never another tenant, landlord's namespace, the API server (unless the class
// says so) or the cloud metadata endpoint. kwok pods carry no traffic, so each destination is
// judged on the NetworkPolicy the API server stores (e2e/support/network-policy.ts reads it as a
// CNI plugin would). Attacks: a class entry that is the metadata endpoint (refused, EgressNotAllowed,
// nothing applied, the other tenants untouched); the running class edited to it (the last valid
// policy stays); the class opened to every address (the endpoint still fenced off).
import { NetworkingV1Api, type V1NetworkPolicy } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EgressRule } from '../api/tenantclass.js';
import { waitUntil } from '../harness/wait.js';
import { gone } from './support/deploy.js';
import { clients, envValue, uniqueName } from './support/env.js';
import { createClass, deleteClass, patchClass, ready, refusedWith, tenantOf } from './support/escape.js';
import { componentEnv, startLandlord, type LandlordProcess } from './support/landlord.js';
import { egressAllowed, type Destination } from './support/network-policy.js';
import { createTenant, deleteTenant } from './support/tenants.js';

const { core, custom, kc } = clients();
const networking = kc.makeApiClient(NetworkingV1Api);
const id = uniqueName('egress');
const open = `${id}-open`;
const imds = `${id}-imds`;
const [tenantA, tenantB, tenantC] = [`${id}-a`, `${id}-b`, `${id}-c`];
const MONITORING_LABEL = { [`${id}.example/monitoring`]: 'true' };
let operator: LandlordProcess;

const ALLOW: EgressRule[] = [
  {
    ipBlock: { cidr: '0.0.0.0/0', except: ['10.0.0.0/8', '127.0.0.0/8'] },
    ports: [{ protocol: 'TCP', port: 443 }],
  },
  { ipBlock: { cidr: '::/0' }, ports: [{ protocol: 'TCP', port: 443 }] },
  { namespaceSelector: { matchLabels: MONITORING_LABEL } },
];

const policyOf = (namespace: string): Promise<V1NetworkPolicy> =>
  networking.readNamespacedNetworkPolicy({ name: 'landlord-isolation', namespace });

/** A pod in a namespace as the API server labels it (kubernetes.io/metadata.name and its own). */
async function podIn(
  namespace: string,
  podLabels: Record<string, string> = { app: 'x' },
): Promise<Destination> {
  const labels = (await core.readNamespace({ name: namespace })).metadata?.labels ?? {};
  return { namespace: { name: namespace, labels }, podLabels, port: 8080 };
}

async function apiServerAddresses(): Promise<Destination[]> {
  const url = new URL(envValue('LANDLORD_E2E_API_SERVER'));
  const service = await core.readNamespacedService({ name: 'kubernetes', namespace: 'default' });
  return [
    { ip: url.hostname, port: Number(url.port) },
    { ip: service.spec?.clusterIP ?? '', port: 443 },
  ];
}

const METADATA: Destination[] = [
  { ip: '169.254.169.254', port: 80 },
  { ip: '169.254.169.254', port: 443 },
  { ip: 'fd00:ec2::254', port: 443 },
];

beforeAll(async () => {
  await createClass(custom, open, { namespace: { mode: 'PerTenant' }, allowEgressTo: ALLOW });
  await core.createNamespace({ body: { metadata: { name: `${id}-mon`, labels: MONITORING_LABEL } } });
  operator = startLandlord('operator', componentEnv({ LANDLORD_LOG_LEVEL: 'info' }));
  await operator.ready();
  await Promise.all([tenantA, tenantB].map((name) => createTenant(custom, tenantOf(name, open))));
  await Promise.all([tenantA, tenantB].map((name) => ready(custom, name)));
});

afterAll(async () => {
  expect(await operator.stop()).toBe(0);
  await Promise.all([tenantA, tenantB, tenantC].map((n) => deleteTenant(custom, n).catch(() => undefined)));
  await Promise.all([open, imds].map((name) => deleteClass(custom, name)));
  await core.deleteNamespace({ name: `${id}-mon` }).catch(() => undefined);
});

describe('the egress fence of an Isolated namespace, as the API server stores it', () => {
  it('lets pods reach their own namespace, DNS and what the class allows', async () => {
    const policy = await policyOf(tenantA);
    expect(policy.spec?.policyTypes).toEqual(['Ingress', 'Egress']);
    const dns = await podIn('kube-system', { 'k8s-app': 'kube-dns' });
    const allowed: Destination[] = [
      await podIn(tenantA),
      { ...dns, port: 53, protocol: 'UDP' },
      { ...dns, port: 53, protocol: 'TCP' },
      { ip: '203.0.113.10', port: 443 },
      { ip: '2001:db8::10', port: 443 },
      await podIn(`${id}-mon`),
    ];
    for (const to of allowed) expect(egressAllowed(policy, to), JSON.stringify(to)).toBe(true);
  });

  it("keeps them from other tenants, landlord's namespace, the API server and the metadata endpoint", async () => {
    const policy = await policyOf(tenantA);
    const kubeSystem = await podIn('kube-system', { component: 'kube-controller-manager' });
    const refusedTo: Destination[] = [
      await podIn(tenantB),
      {
        namespace: { name: 'landlord-system', labels: { 'kubernetes.io/metadata.name': 'landlord-system' } },
        port: 8080,
      },
      kubeSystem,
      { ...(await podIn('kube-system', { 'k8s-app': 'kube-dns' })), port: 9153 },
      ...(await apiServerAddresses()),
      ...METADATA,
      { ip: '203.0.113.10', port: 80 },
    ];
    for (const to of refusedTo) expect(egressAllowed(policy, to), JSON.stringify(to)).toBe(false);
  });
});

describe('attacks on the fence', () => {
  it('a class entry that is the metadata endpoint: EgressNotAllowed, nothing made, other tenants untouched', async () => {
    const before = await policyOf(tenantA);
    await createClass(custom, imds, { allowEgressTo: [{ ipBlock: { cidr: '169.254.169.254/32' } }] });
    await createTenant(custom, tenantOf(tenantC, imds));
    const message = await refusedWith(custom, tenantC, 'EgressNotAllowed');
    expect(message).toContain(`TenantClass ${imds}: allowEgressTo[0].ipBlock.cidr`);
    expect(await gone(core.readNamespace({ name: tenantC }))).toBe(true);
    expect((await policyOf(tenantA)).metadata?.resourceVersion).toBe(before.metadata?.resourceVersion);
    await ready(custom, tenantB);
  });

  it('the running class edited to the endpoint: refused, and the last valid policy stays', async () => {
    const before = await policyOf(tenantA);
    await patchClass(custom, open, 'allowEgressTo', [
      { ipBlock: { cidr: 'fd00:ec2::254/128' }, ports: [{ protocol: 'TCP', port: 80 }] },
    ]);
    const message = await refusedWith(custom, tenantA, 'EgressNotAllowed');
    expect(message).toContain('fd00:ec2::254/128 is the cloud metadata endpoint');
    const after = await policyOf(tenantA);
    expect(after.metadata?.resourceVersion).toBe(before.metadata?.resourceVersion);
    for (const to of METADATA) expect(egressAllowed(after, to)).toBe(false);
  });

  it('the class opened to every address: the API server is then allowed, the metadata endpoint never', async () => {
    await patchClass(custom, open, 'allowEgressTo', [
      { ipBlock: { cidr: '0.0.0.0/0' } },
      { ipBlock: { cidr: '::/0' } },
    ]);
    await ready(custom, tenantA);
    const policy = await waitUntil(
      'the opened policy',
      async () => {
        const p = await policyOf(tenantA);
        return egressAllowed(p, { ip: '203.0.113.10', port: 80 }) ? p : undefined;
      },
      { timeoutMs: 60_000 },
    );
    for (const to of METADATA) expect(egressAllowed(policy, to), JSON.stringify(to)).toBe(false);
    for (const to of await apiServerAddresses()) expect(egressAllowed(policy, to)).toBe(true);
  });
});
