import type { KubernetesObject, V1Deployment } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { HOSTS_ANNOTATION, LABEL } from '../../api/tenant.js';
import type { ClassExpose, ClassPolicy } from '../../api/tenantclass.js';
import { perTenant, testConfig, validTenant } from '../../testing/policy.js';
import { desiredState } from '../facets/engine.js';
import type { Tenant } from '../../api/tenant.js';
import { HostClaims, hostHolders, type HostHolders } from './claims.js';
import { hostsCondition } from './condition.js';
import { claimedHosts, exposureOf } from './exposure.js';
import { ForeignRoutes } from './foreign-routes.js';
import { templatedNames } from './templates.js';
import { EXPOSE_NAMES } from './objects.js';

const INGRESS: ClassExpose = { port: 8080, host: '{name}.apps.example.com', ingressClassName: 'nginx' };
const GATEWAY: ClassExpose = {
  port: 8080,
  host: '{name}.apps.example.com',
  gateway: { namespace: 'gateways', name: 'public', sectionName: 'https' },
  tls: {},
};

function exposing(expose: ClassExpose | undefined, tweaks: Partial<ClassPolicy> = {}): Partial<ClassPolicy> {
  return { ...perTenant(), name: 'web', allowedDomains: ['apps.example.com'], expose, ...tweaks };
}

function wanted(tenantClass: Partial<ClassPolicy>, state?: 'suspended' | 'archived', gatewayApi = true) {
  const tenant = validTenant();
  if (state !== undefined) tenant.spec = { ...tenant.spec, state };
  return desiredState(tenant, testConfig({ tenantClass, gatewayApi }));
}

function manifests(result: ReturnType<typeof wanted>): KubernetesObject[] {
  if (!result.ok) throw new Error(`refused: ${result.refusal.message}`);
  return result.children.map((c) => c.manifest);
}

const find = (list: KubernetesObject[], kind: string): KubernetesObject | undefined =>
  list.find((o) => o.kind === kind);

describe('exposureOf', () => {
  it.each([
    ['a class without expose exposes nothing', exposing(undefined), true, undefined],
    [
      'a Shared class may not expose',
      { ...exposing(INGRESS), mode: 'Shared' as const },
      true,
      'ExposeNotAllowed',
    ],
    ['a gateway class needs HTTPRoutes served', exposing(GATEWAY), false, 'GatewayApiMissing'],
    ['an ingress class needs no Gateway API', exposing(INGRESS), false, undefined],
    [
      'a template outside allowedDomains',
      exposing({ ...INGRESS, host: '{name}.example.net' }),
      true,
      'HostNotAllowed',
    ],
    ['a wildcard template', exposing({ ...INGRESS, host: '*.apps.example.com' }), true, 'InvalidHost'],
    ['no allowedDomains at all', exposing(INGRESS, { allowedDomains: [] }), true, 'HostNotAllowed'],
  ])('%s', (_what, tenantClass, gatewayApi, reason) => {
    const config = testConfig({ tenantClass });
    const result = exposureOf(validTenant(), config.tenantClass, { gatewayApi });
    expect(result.ok ? undefined : result.refusal.reason).toBe(reason);
  });

  it('gives the templated host, and an https URL when the class sets tls', () => {
    const result = exposureOf(validTenant(), testConfig({ tenantClass: exposing(GATEWAY) }).tenantClass);
    expect(result.ok && result.exposed).toMatchObject({
      host: 'acme.apps.example.com',
      hosts: ['acme.apps.example.com'],
      url: 'https://acme.apps.example.com',
    });
  });
});

describe('desiredState with expose', () => {
  it('adds a Service selecting the label forced onto the pods, and an Ingress for the host', () => {
    const result = wanted(exposing(INGRESS));
    const list = manifests(result);
    expect(result.ok && result.status.url).toBe('http://acme.apps.example.com');
    const service = find(list, 'Service') as { spec: Record<string, unknown> } & KubernetesObject;
    expect(service.metadata?.name).toBe(EXPOSE_NAMES.service);
    expect(service.metadata?.namespace).toBe('acme');
    expect(service.spec).toEqual({
      type: 'ClusterIP',
      selector: { [LABEL.exposed]: 'app' },
      ports: [{ name: 'http', protocol: 'TCP', port: 80, targetPort: 8080 }],
    });
    const deployment = find(list, 'Deployment') as V1Deployment;
    expect(deployment.spec?.template.metadata?.labels?.[LABEL.exposed]).toBe('app');
    expect(find(list, 'Ingress')).toMatchObject({
      spec: {
        ingressClassName: 'nginx',
        rules: [
          {
            host: 'acme.apps.example.com',
            http: {
              paths: [
                {
                  path: '/',
                  pathType: 'Prefix',
                  backend: { service: { name: EXPOSE_NAMES.service, port: { number: 80 } } },
                },
              ],
            },
          },
        ],
      },
    });
    expect(find(list, 'HTTPRoute')).toBeUndefined();
    expect(find(list, 'Namespace')?.metadata?.annotations?.[HOSTS_ANNOTATION]).toBe('acme.apps.example.com');
  });

  it('makes the Service headless when the class says so, leaving the route as it is', () => {
    const plain = manifests(wanted(exposing(INGRESS)));
    const list = manifests(wanted(exposing(INGRESS, { services: { headless: true } })));
    expect((find(list, 'Service') as { spec: Record<string, unknown> }).spec).toEqual({
      type: 'ClusterIP',
      clusterIP: 'None',
      selector: { [LABEL.exposed]: 'app' },
      ports: [{ name: 'http', protocol: 'TCP', port: 80, targetPort: 8080 }],
    });
    expect(find(list, 'Ingress')).toEqual(find(plain, 'Ingress'));
  });

  it('adds an HTTPRoute attached to the gateway instead, with hostnames and the Service as backend', () => {
    const list = manifests(wanted(exposing(GATEWAY)));
    expect(find(list, 'Ingress')).toBeUndefined();
    expect(find(list, 'HTTPRoute')).toMatchObject({
      apiVersion: 'gateway.networking.k8s.io/v1',
      spec: {
        parentRefs: [{ namespace: 'gateways', name: 'public', sectionName: 'https' }],
        hostnames: ['acme.apps.example.com'],
        rules: [{ backendRefs: [{ name: EXPOSE_NAMES.service, port: 80 }] }],
      },
    });
  });

  it("puts tls on the Ingress when the class sets it: the tenant's own Secret", () => {
    const tls = { secretName: 'tenant-tls', perTenant: true };
    const list = manifests(wanted(exposing({ ...INGRESS, tls })));
    expect(find(list, 'Ingress')).toMatchObject({
      spec: { tls: [{ hosts: ['acme.apps.example.com'], secretName: 'tenant-tls' }] },
    });
  });

  it('names no Secret on the HTTPRoute: the Gateway terminates TLS, and the URL is https', () => {
    const result = wanted(exposing({ ...GATEWAY, tls: { secretName: 'ignored' } }));
    const route = find(manifests(result), 'HTTPRoute');
    expect(JSON.stringify(route)).not.toContain('ignored');
    expect(result.ok && result.status.url).toBe('https://acme.apps.example.com');
  });

  it('keeps the Service and route while suspended, and drops them (and the hosts) when archived', () => {
    expect(manifests(wanted(exposing(INGRESS), 'suspended')).map((o) => o.kind)).toContain('Ingress');
    const archived = wanted(exposing(INGRESS), 'archived');
    const list = manifests(archived);
    expect(list.map((o) => o.kind)).not.toContain('Service');
    expect(list.map((o) => o.kind)).not.toContain('Ingress');
    expect(archived.ok && archived.status.url).toBeUndefined();
    expect(find(list, 'Namespace')?.metadata?.annotations?.[HOSTS_ANNOTATION]).toBeUndefined();
  });

  it('never lets a class set the hosts annotation itself', () => {
    const forged = exposing(undefined, {
      namespace: { ...perTenant().namespace!, annotations: { [HOSTS_ANNOTATION]: 'bank.example.com' } },
    });
    const list = manifests(wanted(forged));
    expect(find(list, 'Namespace')?.metadata?.annotations?.[HOSTS_ANNOTATION]).toBeUndefined();
  });

  it('changes nothing for a class without expose: no Service, no pod label', () => {
    const list = manifests(wanted(exposing(undefined)));
    expect(find(list, 'Service')).toBeUndefined();
    const deployment = find(list, 'Deployment') as V1Deployment;
    expect(deployment.spec?.template.metadata?.labels?.[LABEL.exposed]).toBeUndefined();
  });

  it('refuses every state of a Tenant whose class cannot be carried out, archived too', () => {
    const result = wanted({ ...exposing(INGRESS), mode: 'Shared' }, 'archived');
    expect(result.ok ? undefined : result.refusal.reason).toBe('ExposeNotAllowed');
  });
});

describe("the row's hosts", () => {
  const tenantClass = testConfig({
    tenantClass: exposing(INGRESS, { allowedDomains: ['apps.example.com', 'example.org'] }),
  }).tenantClass;
  const withHosts = (hosts: string[], name = 'acme', created = '2026-01-01T00:00:00Z') => {
    const tenant = validTenant();
    tenant.metadata.name = name;
    tenant.metadata.creationTimestamp = created as unknown as Date;
    tenant.spec = { ...tenant.spec, hosts };
    return tenant;
  };

  it.each([
    [['shop.example.org'], undefined],
    [['*.example.org'], 'InvalidHost'],
    [['10.1.2.3'], 'InvalidHost'],
    [['shop.example.net'], 'HostNotAllowed'],
  ])('%j: %s', (hosts, reason) => {
    const result = exposureOf(withHosts(hosts), tenantClass);
    expect(result.ok ? undefined : result.refusal.reason).toBe(reason);
  });

  it('are routed beside the templated host, sorted', () => {
    const result = exposureOf(withHosts(['shop.example.org', 'a.example.org']), tenantClass);
    expect(result.ok && result.exposed?.hosts).toEqual([
      'a.example.org',
      'acme.apps.example.com',
      'shop.example.org',
    ]);
  });

  /** Who holds what among these Tenants, as the cluster indexes would say (one class's template). */
  const holdersOf = (tenants: Tenant[], templates = [INGRESS.host]): HostHolders => {
    const claims = new HostClaims();
    const templated = (host: string): string[] => templatedNames(host, templates);
    for (const t of tenants)
      claims.set(
        t.metadata.name!,
        String(t.metadata.creationTimestamp),
        claimedHosts(t, tenantClass, templated),
      );
    const foreign = new ForeignRoutes();
    return hostHolders({
      claims,
      foreign,
      templatedNames: templated,
      namespaceOf: () => undefined,
      isTenantNamespace: () => false,
    });
  };
  const exposedOf = (result: ReturnType<typeof exposureOf>) => {
    if (!result.ok || result.exposed === undefined) throw new Error('not exposed');
    return result.exposed;
  };

  it('a custom host held by an earlier Tenant is withheld on its own: the tenant routes the rest', () => {
    const older = withHosts(['shop.example.org'], 'older', '2026-01-01T00:00:00Z');
    const newer = withHosts(['shop.example.org', 'www.example.org'], 'newer', '2026-02-01T00:00:00Z');
    const holders = holdersOf([older, newer]);
    expect(exposedOf(exposureOf(older, tenantClass, { holders })).withheld).toEqual([]);
    const exposed = exposedOf(exposureOf(newer, tenantClass, { holders }));
    expect(exposed.hosts).toEqual(['newer.apps.example.com', 'www.example.org']);
    expect(exposed.withheld).toEqual([
      { host: 'shop.example.org', reason: 'HostConflict', holder: 'Tenant older' },
    ]);
    expect(hostsCondition(exposed)).toMatchObject({
      type: 'HostsReady',
      status: 'False',
      reason: 'HostConflict',
    });
    expect(hostsCondition(exposed).message).toContain(
      '"shop.example.org" is withheld: Tenant older holds it',
    );
    // The holder lets go: the other routes it.
    const freed = holdersOf([withHosts([], 'older', '2026-01-01T00:00:00Z'), newer]);
    expect(exposedOf(exposureOf(newer, tenantClass, { holders: freed })).withheld).toEqual([]);
  });

  it('a row may not take a templated host, whether or not its tenant exists: HostTemplated, and no claim', () => {
    const squatter = withHosts(['victim.apps.example.com'], 'squatter', '2026-01-01T00:00:00Z');
    // The victim has not signed up yet: the host is still its name's.
    const alone = holdersOf([squatter]);
    expect(claimedHosts(squatter, tenantClass, (h) => alone.templatedNames(h))).toEqual([
      'squatter.apps.example.com',
    ]);
    const exposed = exposedOf(exposureOf(squatter, tenantClass, { holders: alone }));
    expect(exposed.hosts).toEqual(['squatter.apps.example.com']);
    expect(exposed.withheld).toEqual([
      { host: 'victim.apps.example.com', reason: 'HostTemplated', holder: 'tenant victim' },
    ]);
    // Offline (landlord validate), the tenant's own class's template is enough to say so.
    expect(exposedOf(exposureOf(squatter, tenantClass)).withheld[0]?.reason).toBe('HostTemplated');
    // The victim signs up later, under another class with the same template: it holds its host.
    const victim = withHosts([], 'victim', '2026-03-01T00:00:00Z');
    const both = holdersOf([squatter, victim]);
    expect(exposedOf(exposureOf(victim, tenantClass, { holders: both })).hosts).toEqual([
      'victim.apps.example.com',
    ]);
  });

  it("another class's template counts too; a tenant's own name under it is its own", () => {
    const templates = [INGRESS.host, '{name}.example.org'];
    const acme = withHosts(['acme.example.org', 'globex.example.org', 'www.acme.example.org'], 'acme');
    const exposed = exposedOf(exposureOf(acme, tenantClass, { holders: holdersOf([acme], templates) }));
    expect(exposed.hosts).toEqual(['acme.apps.example.com', 'acme.example.org', 'www.acme.example.org']);
    expect(exposed.withheld.map((w) => [w.host, w.reason])).toEqual([
      ['globex.example.org', 'HostTemplated'],
    ]);
  });

  it("a route outside tenant namespaces holds its host first; a hand-made one in the tenant's namespace is a stray", () => {
    const claims = new HostClaims();
    const foreign = new ForeignRoutes();
    const route = (namespace: string, hosts: string[]) => ({
      metadata: { name: 'hand', namespace },
      spec: { hosts },
    });
    foreign.changed('Ingress', route('platform', ['shop.example.org']), false);
    foreign.changed('Ingress', route('acme', ['old.example.org', 'acme.apps.example.com']), false);
    const holders = hostHolders({
      claims,
      foreign,
      templatedNames: () => [],
      namespaceOf: () => 'acme',
      isTenantNamespace: (ns) => ns === 'acme',
    });
    const exposed = exposedOf(
      exposureOf(withHosts(['shop.example.org']), tenantClass, { holders, namespace: 'acme' }),
    );
    expect(exposed.withheld).toEqual([
      {
        host: 'shop.example.org',
        reason: 'HostConflict',
        holder: 'Ingress platform/hand (not made by landlord)',
      },
    ]);
    expect(exposed.strays).toEqual([{ route: 'Ingress acme/hand', hosts: ['old.example.org'] }]);
    // The hand-made route in acme's namespace holds nothing for another tenant.
    const other = exposedOf(exposureOf(withHosts(['old.example.org'], 'other'), tenantClass, { holders }));
    expect(other.hosts).toContain('old.example.org');
    expect(
      hostsCondition(exposedOf(exposureOf(withHosts([]), tenantClass, { holders, namespace: 'acme' }))),
    ).toMatchObject({
      status: 'False',
      reason: 'StrayRoute',
    });
  });
});
