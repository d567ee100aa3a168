// Whether and how a tenant is exposed under its class: the class's expose block judged for this
// tenant (a PerTenant class, a route kind the cluster serves, a templated host the tenant may
// hold), which of its row's hosts it holds and which are withheld (docs/exposure.md#who-holds-a-host),
// and the objects that follow. One answer that the reconcile, `landlord plan` and `landlord validate`
// all take (lifecycle.ts). Pure.
import type { Tenant } from '../../api/tenant.js';
import { fillName, type ClassExpose, type ClassPolicy, type ClassServices } from '../../api/tenantclass.js';
import type { ChildKind } from '../child-ref.js';
import { withOwnership, type DesiredChild } from '../desired.js';
import { refusal, type Refusal } from '../policy/refusals.js';
import { createdAt, type Self } from '../policy/neighbours.js';
import { EXPOSURE_REASON } from './reasons.js';
import { NO_HOST_HOLDERS, type HostHolders } from './claims.js';
import { hostProblem } from './hosts.js';
import { route, service, tenantUrl } from './objects.js';
import { templatedNames } from './templates.js';

/** A custom host the tenant asked for and does not route, and why. */
export interface WithheldHost {
  host: string;
  reason: WithheldReason;
  /** Who holds it ("Tenant b", "Ingress ns/x (not made by landlord)"), or whose templated host it is. */
  holder: string;
}

type WithheldReason = typeof EXPOSURE_REASON.hostConflict | typeof EXPOSURE_REASON.hostTemplated;

/** A route landlord did not make in the tenant's namespace, serving hosts the tenant does not hold. */
export interface StrayRoute {
  route: string;
  hosts: string[];
}

/** A tenant its class exposes: the hosts it holds (sorted) and where it is reached. */
export interface Exposed {
  expose: ClassExpose;
  /** The class's templated host for this tenant: the one status.url names. */
  host: string;
  /** Every host the tenant holds: its templated host and the custom ones it was granted. */
  hosts: string[];
  url: string;
  /** The row's hosts it does not hold, each on its own: the tenant runs and routes the rest. */
  withheld: WithheldHost[];
  /** Hand-made routes in its namespace for hosts it does not hold: reported, never deleted. */
  strays: StrayRoute[];
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
  /** The tenant's own namespace: routes made by hand there for hosts it does not hold are reported. */
  namespace?: string;
}

/**
 * The class's expose block for this tenant, or why it cannot be carried out: the class itself
 * (Shared, a route kind the cluster lacks, a templated host the tenant may not hold), then the row's
 * hosts (each a DNS name under allowedDomains), then the templated host held before it (a platform
 * route, or a Tenant of a class whose template overlaps). A custom host held by another, or that a
 * class's template gives another tenant name, is withheld on its own. A row's hosts under a class
 * without expose route nothing, and are not judged.
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
  const host = fillName(expose.host, tenant.metadata.name ?? '');
  const problem = hostProblem(host, tenantClass.allowedDomains);
  if (problem !== undefined)
    return { ok: false, refusal: refusal.host(problem.reason, tenantClass.name, host, problem.text) };
  const rowHosts = rowHostsOf(tenant);
  const rowProblem = rowHostRefusal(rowHosts, tenantClass);
  if (rowProblem !== undefined) return { ok: false, refusal: rowProblem };
  const holders = context.holders ?? NO_HOST_HOLDERS;
  const self = selfOf(tenant);
  const holder = holders.holderBefore(host, self);
  if (holder !== undefined) return { ok: false, refusal: refusal.hostConflict(host, holder) };
  const custom = customHosts(rowHosts, host, { expose, holders, self });
  const hosts = [host, ...custom.held].sort();
  const strays = strayRoutes(hosts, holders, context.namespace);
  const exposed = { expose, host, hosts, url: tenantUrl(expose, host), withheld: custom.withheld, strays };
  return { ok: true, exposed };
}

const selfOf = (tenant: Tenant): Self => ({
  tenant: tenant.metadata.name ?? '',
  createdAt: createdAt(tenant.metadata.creationTimestamp),
});

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

interface CustomScope {
  expose: ClassExpose;
  holders: HostHolders;
  self: Self;
}

/**
 * The tenant names a host belongs to by template other than the tenant's own: every class's
 * templates as the cluster knows them, and its own class's (all `landlord validate` knows).
 */
function otherNames(host: string, scope: CustomScope): string[] {
  const names = new Set([
    ...scope.holders.templatedNames(host),
    ...templatedNames(host, [scope.expose.host]),
  ]);
  names.delete(scope.self.tenant);
  return [...names].sort();
}

/** Why the tenant may not route a custom host; undefined: it holds it. */
function withheldOf(host: string, scope: CustomScope): WithheldHost | undefined {
  const names = otherNames(host, scope);
  if (names.length > 0) {
    const holder = names.map((n) => `tenant ${n}`).join(', ');
    return { host, reason: EXPOSURE_REASON.hostTemplated, holder };
  }
  const holder = scope.holders.holderBefore(host, scope.self);
  return holder === undefined ? undefined : { host, reason: EXPOSURE_REASON.hostConflict, holder };
}

/** The row's hosts (but the templated one) split into those the tenant holds and those withheld. */
function customHosts(
  rowHosts: readonly string[],
  host: string,
  scope: CustomScope,
): { held: string[]; withheld: WithheldHost[] } {
  const held: string[] = [];
  const withheld: WithheldHost[] = [];
  for (const custom of new Set(rowHosts)) {
    if (custom === host) continue;
    const why = withheldOf(custom, scope);
    if (why === undefined) held.push(custom);
    else withheld.push(why);
  }
  return { held, withheld };
}

/** The hand-made routes in the tenant's namespace that serve a host it does not hold, and those hosts. */
function strayRoutes(
  hosts: readonly string[],
  holders: HostHolders,
  namespace: string | undefined,
): StrayRoute[] {
  if (namespace === undefined) return [];
  return holders.handMadeIn(namespace).flatMap(({ route, hosts: served }) => {
    const stray = served.filter((h) => !hosts.includes(h));
    return stray.length === 0 ? [] : [{ route, hosts: stray }];
  });
}

/**
 * The hosts the Tenant claims under its class, for the cluster-wide index (claims.ts): its
 * templated host and its row's hosts, those that are hosts a tenant of the class may hold and that
 * no class's template gives another tenant name (`templated`: every class's, as the index knows
 * them). The caller leaves out Tenants whose state keeps no route.
 */
export function claimedHosts(
  tenant: Tenant,
  tenantClass: ClassPolicy,
  templated: (host: string) => string[],
): string[] {
  const { expose } = tenantClass;
  if (expose === undefined || tenantClass.mode !== 'PerTenant') return [];
  const name = tenant.metadata.name ?? '';
  const host = fillName(expose.host, name);
  const theirs = (h: string): boolean =>
    h !== host && [...templated(h), ...templatedNames(h, [expose.host])].some((n) => n !== name);
  const hosts = [host, ...rowHostsOf(tenant)];
  return [...new Set(hosts)]
    .filter((h) => hostProblem(h, tenantClass.allowedDomains) === undefined && !theirs(h))
    .sort();
}

/** The Service and the route, owned by the Tenant like the namespace's other objects. */
export function exposureObjects(
  tenant: Tenant,
  exposed: Exposed,
  { namespace, services }: { namespace: string; services: ClassServices },
): DesiredChild[] {
  const routeKind: ChildKind = exposed.expose.gateway === undefined ? 'Ingress' : 'HTTPRoute';
  return [
    withOwnership(service(exposed.expose, namespace, services), tenant, 'Service'),
    withOwnership(route(exposed.expose, namespace, exposed.hosts), tenant, routeKind),
  ];
}
