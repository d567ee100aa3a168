// Ingresses and HTTPRoutes that landlord did not make. Outside tenant namespaces (the platform's
// own) one that serves a host holds it, and no Tenant may take it over. Inside a tenant namespace
// one holds nothing: its team made it while the tenant held the host (the admission policies allow
// no other), and once the tenant lets the host go it must not keep the host from every Tenant; the
// tenant reports it (HostsReady) and landlord never deletes it. Watched cluster-wide, but only their
// metadata and hosts are cached (keepHostsOf). Pure bookkeeping, fed by the watch, or by
// `landlord plan`'s listing in the same shape (host-index.ts, ROUTE_WATCHES).
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

/** The hosts a cached route serves (kept by keepHostsOf). */
function cachedHosts(object: KubernetesObject): string[] {
  const spec: unknown = (object as { spec?: unknown }).spec;
  const hosts = isRecord(spec) ? spec.hosts : undefined;
  return Array.isArray(hosts) ? hosts.filter((h): h is string => typeof h === 'string') : [];
}

/** Made by the operator for a Tenant: its own routes are claims (claims.ts), not foreign ones. */
export const isLandlords = (object: KubernetesObject): boolean =>
  object.metadata?.labels?.[LABEL.managedBy] === MANAGED_BY.operator &&
  object.metadata.labels[LABEL.tenant] !== undefined;

const sameHosts = (a: readonly string[], b: readonly string[]): boolean =>
  a.length === b.length && a.every((h, i) => h === b[i]);

interface Route {
  namespace: string;
  hosts: readonly string[];
}

/** A route landlord did not make, as a tenant reports it. */
export interface HandMadeRoute {
  /** "Ingress namespace/name" */
  route: string;
  hosts: readonly string[];
}

/** What a route event changed: the namespace it is in and every host it served before or serves now. */
export interface RouteChange {
  namespace: string;
  hosts: string[];
}

export class ForeignRoutes {
  /** host → "Kind namespace/name" of the routes that serve it */
  private readonly byHost = new Map<string, Set<string>>();
  private readonly byRoute = new Map<string, Route>();
  /** namespace → the routes in it that serve a host */
  private readonly byNamespace = new Map<string, Set<string>>();

  /** Keeps the index current with a watch event; undefined when the hosts it serves did not change. */
  changed(kind: RouteKind, object: KubernetesObject, deleted: boolean): RouteChange | undefined {
    const { namespace = '', name = '' } = object.metadata ?? {};
    const key = `${kind} ${namespace}/${name}`;
    const hosts = deleted || isLandlords(object) ? [] : cachedHosts(object);
    const before = this.byRoute.get(key)?.hosts ?? [];
    if (sameHosts(before, hosts)) return undefined;
    this.remove(key);
    if (hosts.length > 0) this.add(key, { namespace, hosts });
    return { namespace, hosts: [...new Set([...before, ...hosts])] };
  }

  /**
   * A route outside every tenant namespace that serves the host, described; undefined: none. One in
   * a tenant namespace holds nothing, whatever it serves.
   */
  platformHolder(host: string, isTenantNamespace: (namespace: string) => boolean): string | undefined {
    for (const key of [...(this.byHost.get(host) ?? [])].sort()) {
      const namespace = this.byRoute.get(key)?.namespace ?? '';
      if (!isTenantNamespace(namespace)) return `${key} (not made by landlord)`;
    }
    return undefined;
  }

  /** The routes in `namespace`, sorted by name. */
  inNamespace(namespace: string): HandMadeRoute[] {
    return [...(this.byNamespace.get(namespace) ?? [])]
      .sort()
      .map((key) => ({ route: key, hosts: this.byRoute.get(key)?.hosts ?? [] }));
  }

  private add(key: string, route: Route): void {
    this.byRoute.set(key, route);
    this.byNamespace.set(
      route.namespace,
      (this.byNamespace.get(route.namespace) ?? new Set<string>()).add(key),
    );
    for (const host of route.hosts)
      this.byHost.set(host, (this.byHost.get(host) ?? new Set<string>()).add(key));
  }

  private remove(key: string): void {
    const route = this.byRoute.get(key);
    const inNamespace = route === undefined ? undefined : this.byNamespace.get(route.namespace);
    inNamespace?.delete(key);
    if (inNamespace?.size === 0) this.byNamespace.delete(route!.namespace);
    for (const host of route?.hosts ?? []) {
      const routes = this.byHost.get(host);
      routes?.delete(key);
      if (routes?.size === 0) this.byHost.delete(host);
    }
    this.byRoute.delete(key);
  }
}
