// What the exposure facet says where people look: the HostsReady condition's reasons and messages,
// part of landlord's API (people and alerts match on them). Named by the rule every reasons.ts
// follows (<OWNER>_REASON, _MESSAGE; docs/architecture.md) and kept in the facet's folder.
/** The HostsReady condition's reasons (operator/exposure/): which of its hosts an exposed tenant routes. */
export const EXPOSURE_REASON = {
  /** True: the tenant routes every host its class and row give it. */
  ready: 'HostsHeld',
  /**
   * False: a custom host of the row is held by another (an earlier Tenant, or a route outside tenant
   * namespaces that landlord did not make); only that host is withheld, the tenant runs and routes
   * the rest.
   */
  hostConflict: 'HostConflict',
  /** False: a custom host of the row is one a class's expose.host gives another tenant name: withheld. */
  hostTemplated: 'HostTemplated',
  /**
   * False: a route not made by landlord in the tenant's namespace serves a host the tenant does not
   * hold; it holds nothing for it, and landlord never deletes it.
   */
  strayRoute: 'StrayRoute',
} as const;

/** What HostsReady says. Fixed texts, hosts sorted, so an unchanged situation never rewrites status. */
export const EXPOSURE_MESSAGE = {
  held: (hosts: readonly string[]): string => `routes every host it was given: ${hosts.join(', ')}`,
  conflict: (host: string, holder: string): string =>
    `host ${JSON.stringify(host)} is withheld: ${holder} holds it (a route outside tenant namespaces not made by landlord always does; among Tenants, the one created earlier, or as early and named first); it is routed here once the holder lets it go`,
  templated: (host: string, owners: string): string =>
    `host ${JSON.stringify(host)} is withheld: a TenantClass's expose.host gives it to ${owners}, whether or not that tenant exists; a row's hosts may name only hosts outside every class's templated space`,
  stray: (route: string, hosts: readonly string[]): string =>
    `${route} was not made by landlord and serves ${hosts.join(', ')}, which this tenant does not hold: it holds nothing for it and landlord does not delete it; delete it or drop those hosts from it`,
  rest: (hosts: readonly string[]): string => `this tenant routes ${hosts.join(', ')}`,
} as const;
