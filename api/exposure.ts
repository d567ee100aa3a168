// How a tenant is reached from outside, as the API server's admission rules see it (config/admission,
// docs/exposure.md). The rules read their parameters from the tenant's namespace, which tenant
// teams (bound with `edit`) cannot change: its `landlord.dev/tenant` label (LABEL.tenant) says the
// namespace is a tenant's, and this annotation lists the hosts the tenant holds.

/**
 * On a PerTenant namespace, written by the operator: the hosts the tenant currently holds, sorted and
 * comma-separated; absent when it holds none. An Ingress or route in the namespace may name only
 * these; a namespace without it may name no host at all.
 */
export const HOSTS_ANNOTATION = 'landlord.dev/hosts';
