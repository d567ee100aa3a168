// What the host escape tests (e2e/escape-host-*.test.ts) share: the scene they play in (a class
// that exposes its tenants, and one operator), and what they read and wait for: the hosts a
// tenant's route serves and its namespace announces, its HostsReady condition, and a hand-made Ingress.
import { NetworkingV1Api, type V1Ingress } from '@kubernetes/client-node';
import { afterAll, beforeAll, expect } from 'vitest';
import { HOSTS_ANNOTATION } from '../../api/exposure.js';
import { CONDITION, type Tenant } from '../../api/tenant.js';
import { waitUntil } from '../../harness/wait.js';
import { EXPOSE_NAMES } from '../../operator/exposure/objects.js';
import { clients, uniqueName } from './env.js';
import { createClass, deleteClass, tenantOf } from './escape.js';
import { componentEnv, startLandlord, type LandlordProcess } from './landlord.js';
import { condition, deleteTenant, readTenant, setSpec, waitForCondition } from './tenants.js';

const { core, custom, kc } = clients();
const networking = kc.makeApiClient(NetworkingV1Api);

/** One host test file's class, names and hosts. */
export interface HostScene {
  /** A Tenant name of this file's own (`<id>-<role>`); the scene deletes every one it gave. */
  tenantName: (role: string) => string;
  /** The host the class's expose.host gives a tenant: `<name>.<id>.example.com`. */
  templated: (name: string) => string;
  /** A custom host under the class's second allowed domain: `<label>.<id>.example.org`. */
  customHost: (label: string) => string;
  /** A Tenant of the class whose row lists these hosts. */
  exposedTenant: (name: string, hosts: string[]) => Tenant;
}

/**
 * Sets up the file's scene around its tests (beforeAll and afterAll): a PerTenant class exposing
 * `{name}` under one domain and allowing a second for custom hosts, and one operator with no
 * periodic resync within the test, so every change the tests see is event-driven.
 */
export function hostScene(prefix: string): HostScene {
  const id = uniqueName(prefix);
  const className = `${id}-web`;
  const domain = `${id}.example.com`;
  const customDomain = `${id}.example.org`;
  const named: string[] = [];
  let operator: LandlordProcess;
  beforeAll(async () => {
    await createClass(custom, className, {
      namespace: { mode: 'PerTenant', nameTemplate: '{name}' },
      networkIsolation: 'None',
      expose: { port: 8080, host: `{name}.${domain}`, ingressClassName: 'nginx' },
      allowedDomains: [domain, customDomain],
    });
    operator = startLandlord('operator', componentEnv({ LANDLORD_OPERATOR_RESYNC_SECONDS: '3600' }));
    await operator.ready();
  });
  afterAll(async () => {
    for (const name of named) await deleteTenant(custom, name).catch(() => undefined);
    expect(await operator.stop()).toBe(0);
    await deleteClass(custom, className);
  });
  return {
    tenantName: (role) => {
      const name = `${id}-${role}`;
      named.push(name);
      return name;
    },
    templated: (name) => `${name}.${domain}`,
    customHost: (label) => `${label}.${customDomain}`,
    exposedTenant: (name, hosts) => {
      const tenant = tenantOf(name, className);
      tenant.spec = { ...tenant.spec, hosts };
      return tenant;
    },
  };
}

/** The hosts landlord's route in the namespace serves, sorted; [] when it has none. */
export async function routedHosts(namespace: string): Promise<string[]> {
  const ingress = await networking
    .readNamespacedIngress({ name: EXPOSE_NAMES.route, namespace })
    .catch(() => undefined);
  return (ingress?.spec?.rules ?? []).map((r) => r.host ?? '').sort();
}

/** The hosts the namespace announces to the admission policies (landlord.dev/hosts). */
export async function announcedHosts(namespace: string): Promise<string[]> {
  const annotations = (await core.readNamespace({ name: namespace })).metadata?.annotations;
  return (annotations?.[HOSTS_ANNOTATION] ?? '').split(',').filter((h) => h !== '');
}

/** Waits until the tenant's route and namespace both say exactly these hosts. */
export async function holdsExactly(
  namespace: string,
  hosts: readonly string[],
  timeoutMs = 60_000,
): Promise<void> {
  const wanted = [...hosts].sort().join(',');
  await waitUntil(
    `namespace ${namespace} to route and announce exactly ${wanted}`,
    async () =>
      (await routedHosts(namespace)).join(',') === wanted &&
      (await announcedHosts(namespace)).join(',') === wanted,
    { timeoutMs, intervalMs: 250 },
  );
}

/** Waits for HostsReady with this status and reason, for the Tenant's current generation; its message. */
export async function hostsReady(name: string, status: 'True' | 'False', reason: string): Promise<string> {
  const tenant = await waitForCondition(custom, name, { type: CONDITION.hostsReady, status, reason }, 90_000);
  return condition(tenant, CONDITION.hostsReady)?.message ?? '';
}

/** Changes the Tenant's spec as a row edit would (sync replaces the spec). */
export async function editSpec(
  name: string,
  edit: (spec: NonNullable<Tenant['spec']>) => void,
): Promise<void> {
  const tenant = await readTenant(custom, name);
  const spec = structuredClone(tenant.spec!);
  edit(spec);
  await setSpec(custom, name, spec);
}

/** An Ingress made by hand (not by landlord) for `host` in `namespace`, as a tenant team would. */
export async function handMadeIngress(namespace: string, name: string, host: string): Promise<V1Ingress> {
  const backend = { service: { name: EXPOSE_NAMES.service, port: { number: 80 } } };
  return networking.createNamespacedIngress({
    namespace,
    body: {
      metadata: { name },
      spec: {
        ingressClassName: 'nginx',
        rules: [{ host, http: { paths: [{ path: '/', pathType: 'Prefix', backend }] } }],
      },
    },
  });
}

export async function readIngress(namespace: string, name: string): Promise<V1Ingress> {
  return networking.readNamespacedIngress({ namespace, name });
}
