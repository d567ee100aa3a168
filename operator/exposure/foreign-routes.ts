// Ingresses and HTTPRoutes that landlord did not make: one that serves a host already holds it, and
// no Tenant may take it over (a hand-made route is never replaced; the admission policies keep
// tenant teams from making one for a host that is not theirs). Watched cluster-wide, but only their
// metadata and hosts are cached (keepHostsOf), and a Tenant's own namespace is left out: what its
// team routes there is its own business. Pure bookkeeping, fed by the watch, or by `landlord plan`'s
// listing in the same shape (listedRoute).
import type { KubernetesObject } from '@kubernetes/client-node';
import { LABEL, MANAGED_BY } from '../../api/tenant.js';
import { isRecord } from '../policy/json.js';

export type RouteKind = 'Ingress' | 'HTTPRoute';

/** The part of a route's spec that names hosts: an Ingress's rules' hosts, an HTTPRoute's hostnames. */
export function keepHostsOf(kind: RouteKind): (spec: unknown) => unknown {
  return (spec) => ({ hosts: specHosts(kind, spec) });
}

function specHosts(kind: RouteKind, spec: unknown): string[] {
  if (!isRecord(spec)) return [];
  const listed: unknown[] =
    kind === 'Ingress'
      ? (Array.isArray(spec.rules) ? spec.rules : []).map((rule) => (isRecord(rule) ? rule.host : undefined))
      : Array.isArray(spec.hostnames)
        ? spec.hostnames
        : [];
  return listed.filter((h): h is string => typeof h === 'string' && h !== '');
}

/** A route as listed, in the shape its watch caches it (keepHostsOf): for an index filled from a listing. */
export function listedRoute(kind: RouteKind, object: KubernetesObject): KubernetesObject {
  const spec: unknown = (object as { spec?: unknown }).spec;
  return { ...object, spec: keepHostsOf(kind)(spec) } as KubernetesObject;
}

/** The hosts a cached route serves (kept by keepHostsOf). */
function cachedHosts(object: KubernetesObject): string[] {
  const spec: unknown = (object as { spec?: unknown }).spec;
  const hosts = isRecord(spec) ? spec.hosts : undefined;
  return Array.isArray(hosts) ? hosts.filter((h): h is string => typeof h === 'string') : [];
}

/** Made by the operator for a Tenant: its own routes are claims (claims.ts), not foreign ones. */
const isLandlords = (object: KubernetesObject): boolean =>
  object.metadata?.labels?.[LABEL.managedBy] === MANAGED_BY.operator &&
  object.metadata.labels[LABEL.tenant] !== undefined;

const sameHosts = (a: readonly string[], b: readonly string[]): boolean =>
  a.length === b.length && a.every((h, i) => h === b[i]);

interface Route {
  namespace: string;
  hosts: readonly string[];
}

export class ForeignRoutes {
  /** host → "Kind namespace/name" of the routes that serve it */
  private readonly byHost = new Map<string, Set<string>>();
  private readonly byRoute = new Map<string, Route>();

  /** Keeps the index current with a watch event; true when the hosts some route serves changed. */
  changed(kind: RouteKind, object: KubernetesObject, deleted: boolean): boolean {
    const { namespace = '', name = '' } = object.metadata ?? {};
    const key = `${kind} ${namespace}/${name}`;
    const hosts = deleted || isLandlords(object) ? [] : cachedHosts(object);
    if (sameHosts(this.byRoute.get(key)?.hosts ?? [], hosts)) return false;
    this.remove(key);
    if (hosts.length > 0) this.byRoute.set(key, { namespace, hosts });
    for (const host of hosts) this.byHost.set(host, (this.byHost.get(host) ?? new Set<string>()).add(key));
    return true;
  }

  /** A route outside `namespace` (the tenant's own) that serves the host, described; undefined: none. */
  holderOutside(host: string, namespace: string | undefined): string | undefined {
    for (const key of this.byHost.get(host) ?? []) {
      if (this.byRoute.get(key)?.namespace !== namespace) return `${key} (not made by landlord)`;
    }
    return undefined;
  }

  private remove(key: string): void {
    for (const host of this.byRoute.get(key)?.hosts ?? []) {
      const routes = this.byHost.get(host);
      routes?.delete(key);
      if (routes?.size === 0) this.byHost.delete(host);
    }
    this.byRoute.delete(key);
  }
}
