// Whether and how a tenant is exposed under its class: the class's expose block judged for this
// tenant (a PerTenant class, a route kind the cluster serves, a templated host the tenant may
// hold), and the objects that follow from it. One answer that the reconcile, `landlord plan` and
// `landlord validate` all take (lifecycle.ts). Pure.
import type { Tenant } from '../../api/tenant.js';
import { fillName, type ClassExpose, type ClassPolicy } from '../../api/tenantclass.js';
import type { ChildKind } from '../child-ref.js';
import { withOwnership, type DesiredChild } from '../desired.js';
import { refusal, type Refusal } from '../policy/refusals.js';
import { createdAt } from '../policy/neighbours.js';
import { NO_HOST_HOLDERS, type HostHolders } from './claims.js';
import { hostProblem } from './hosts.js';
import { route, service, tenantUrl } from './objects.js';

/** A tenant its class exposes: the hosts it holds (sorted) and where it is reached. */
export interface Exposed {
  expose: ClassExpose;
  /** The class's templated host for this tenant: the one status.url names. */
  host: string;
  /** Every host the tenant holds: its templated host and the custom ones it was granted. */
  hosts: string[];
  url: string;
}

export type Exposure =
  /** `exposed` undefined: the class exposes nothing. */
  { ok: true; exposed?: Exposed } | { ok: false; refusal: Refusal };

/** What judging a tenant's exposure needs besides the tenant and its class. */
export interface ExposureContext {
  /** Whether the cluster serves HTTPRoutes (the operator asks at start-up); absent: assumed. */
  gatewayApi?: boolean;
  /** Who holds each host cluster-wide (claims.ts); none: `landlord validate`, judging one row. */
  holders?: HostHolders;
  /** The tenant's own namespace: routes made by hand there are its team's, and hold nothing. */
  namespace?: string;
}

/**
 * The class's expose block for this tenant, or why it cannot be carried out: the class itself
 * (Shared, a route kind the cluster lacks, a templated host the tenant may not hold), then the row's
 * hosts (each a DNS name under allowedDomains), then every host held by an earlier Tenant. A row's
 * hosts under a class without expose route nothing, and are not judged.
 */
export function exposureOf(
  tenant: Tenant,
  tenantClass: ClassPolicy,
  context: ExposureContext = {},
): Exposure {
  const { expose } = tenantClass;
  if (expose === undefined) return { ok: true };
  if (tenantClass.mode !== 'PerTenant')
    return { ok: false, refusal: refusal.exposeNotAllowed(tenantClass.name) };
  if (expose.gateway !== undefined && context.gatewayApi === false)
    return { ok: false, refusal: refusal.gatewayApiMissing(tenantClass.name) };
  const name = tenant.metadata.name ?? '';
  const host = fillName(expose.host, name);
  const problem = hostProblem(host, tenantClass.allowedDomains);
  if (problem !== undefined)
    return { ok: false, refusal: refusal.host(problem.reason, tenantClass.name, host, problem.text) };
  const rowHosts = rowHostsOf(tenant);
  const rowProblem = rowHostRefusal(rowHosts, tenantClass);
  if (rowProblem !== undefined) return { ok: false, refusal: rowProblem };
  const hosts = [...new Set([host, ...rowHosts])].sort();
  const conflict = conflictOf(tenant, hosts, context);
  if (conflict !== undefined) return { ok: false, refusal: conflict };
  return { ok: true, exposed: { expose, host, hosts, url: tenantUrl(expose, host) } };
}

/** The row's hosts as the Tenant carries them (sync sorted them); anything but strings is dropped. */
function rowHostsOf(tenant: Tenant): string[] {
  const hosts: unknown = tenant.spec?.hosts;
  return Array.isArray(hosts) ? hosts.filter((h): h is string => typeof h === 'string') : [];
}

function rowHostRefusal(hosts: readonly string[], tenantClass: ClassPolicy): Refusal | undefined {
  for (const [i, host] of hosts.entries()) {
    const problem = hostProblem(host, tenantClass.allowedDomains);
    if (problem !== undefined) return refusal.rowHost(problem.reason, i, host, problem.text);
  }
  return undefined;
}

function conflictOf(tenant: Tenant, hosts: readonly string[], context: ExposureContext): Refusal | undefined {
  const self = {
    tenant: tenant.metadata.name ?? '',
    createdAt: createdAt(tenant.metadata.creationTimestamp),
  };
  const holders = context.holders ?? NO_HOST_HOLDERS;
  for (const host of hosts) {
    const holder = holders.holderBefore(host, self, context.namespace);
    if (holder !== undefined) return refusal.hostConflict(host, holder);
  }
  return undefined;
}

/**
 * The hosts the Tenant claims under its class, for the cluster-wide index (claims.ts): its
 * templated host and its row's hosts, those that are hosts a tenant of the class may hold. The
 * caller leaves out Tenants whose state keeps no route.
 */
export function claimedHosts(tenant: Tenant, tenantClass: ClassPolicy): string[] {
  const { expose } = tenantClass;
  if (expose === undefined || tenantClass.mode !== 'PerTenant') return [];
  const hosts = [fillName(expose.host, tenant.metadata.name ?? ''), ...rowHostsOf(tenant)];
  return [...new Set(hosts)].filter((h) => hostProblem(h, tenantClass.allowedDomains) === undefined).sort();
}

/** The Service and the route, owned by the Tenant like the namespace's other objects. */
export function exposureObjects(tenant: Tenant, exposed: Exposed, namespace: string): DesiredChild[] {
  const routeKind: ChildKind = exposed.expose.gateway === undefined ? 'Ingress' : 'HTTPRoute';
  return [
    withOwnership(service(exposed.expose, namespace), tenant, 'Service'),
    withOwnership(route(exposed.expose, namespace, exposed.hosts), tenant, routeKind),
  ];
}
