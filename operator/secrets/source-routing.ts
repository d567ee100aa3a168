// Which Tenants a change of a source Secret concerns: those under a class with a `from` entry that
// names it. A shared source ("sendgrid") concerns every Tenant of the class; a templated one
// ("{name}-db") only the Tenant whose name fills it in. Pure.
import type { Tenant } from '../../api/tenant.js';
import { isDefaultClass, NAME_PLACEHOLDER, resolvedClass, type TenantClass } from '../../api/tenantclass.js';
import { placeholderValue } from '../namespaces/template-match.js';
import { tenantsUnder } from '../tenancy/resolve-class.js';

/** The Tenants to reconcile after the source Secret namespace/name changed, sorted. */
export function tenantsOfSource(
  tenants: readonly Tenant[],
  classes: readonly TenantClass[],
  source: { namespace: string; name: string },
): string[] {
  const concerned = new Set<string>();
  for (const tc of classes) {
    const className = tc.metadata.name ?? '';
    const served = servedNames(tc, className, source);
    if (served.length === 0) continue;
    for (const tenant of tenantsUnder(tenants, className, isDefaultClass(tc))) {
      const name = tenant.metadata.name ?? '';
      if (served.some((s) => s === '' || s === name)) concerned.add(name);
    }
  }
  return [...concerned].sort();
}

/**
 * Whom the class's `from` entries make this source for: a tenant's name, or '' for every tenant of
 * the class (an entry without "{name}").
 */
function servedNames(
  tc: TenantClass,
  className: string,
  source: { namespace: string; name: string },
): string[] {
  return resolvedClass(className, 0, tc.spec).secrets.flatMap((entry) => {
    if (entry.from?.namespace !== source.namespace) return [];
    const name = placeholderValue(entry.from.name, NAME_PLACEHOLDER, source.name);
    return name === undefined ? [] : [name];
  });
}
