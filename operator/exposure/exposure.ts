// Whether and how a tenant is exposed under its class: the class's expose block judged for this
// tenant (a PerTenant class, a route kind the cluster serves, a templated host the tenant may
// hold), and the objects that follow from it. One answer that the reconcile, `landlord plan` and
// `landlord validate` all take (lifecycle.ts). Pure.
import type { Tenant } from '../../api/tenant.js';
import { fillName, type ClassExpose, type ClassPolicy } from '../../api/tenantclass.js';
import type { ExposeKind } from '../child-ref.js';
import { withOwnership, type DesiredChild } from '../desired.js';
import { refusal, type Refusal } from '../policy/refusals.js';
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

/**
 * The class's expose block for this tenant, or why it cannot be carried out. `gatewayApi`: whether
 * the cluster serves HTTPRoutes (the operator asks the API server at start-up; absent: assumed).
 */
export function exposureOf(tenant: string, tenantClass: ClassPolicy, gatewayApi = true): Exposure {
  const { expose } = tenantClass;
  if (expose === undefined) return { ok: true };
  if (tenantClass.mode !== 'PerTenant')
    return { ok: false, refusal: refusal.exposeNotAllowed(tenantClass.name) };
  if (expose.gateway !== undefined && !gatewayApi)
    return { ok: false, refusal: refusal.gatewayApiMissing(tenantClass.name) };
  const host = fillName(expose.host, tenant);
  const problem = hostProblem(host, tenantClass.allowedDomains);
  if (problem !== undefined)
    return { ok: false, refusal: refusal.host(problem.reason, tenantClass.name, host, problem.text) };
  return { ok: true, exposed: { expose, host, hosts: [host], url: tenantUrl(expose, host) } };
}

/** The Service and the route, owned by the Tenant like the namespace's other objects. */
export function exposureObjects(tenant: Tenant, exposed: Exposed, namespace: string): DesiredChild[] {
  const name = tenant.metadata.name!;
  const routeKind: ExposeKind = exposed.expose.gateway === undefined ? 'Ingress' : 'HTTPRoute';
  return [
    withOwnership(service(exposed.expose, name, namespace), tenant, 'Service'),
    withOwnership(route(exposed.expose, namespace, exposed.hosts), tenant, routeKind),
  ];
}
