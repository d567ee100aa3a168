// Which Tenants a change of a source Secret concerns: those under a class with a `from` entry that
// names it. A shared source ("sendgrid") concerns every Tenant of the class; a templated one
// ("{name}-db") only the Tenant whose name fills it in. Pure.
import type { Tenant } from '../../api/tenant.js';
import { resolvedClass, type TenantClass } from '../../api/tenantclass.js';

const TEMPLATE = '{name}';

/** The tenant names a `from.name` template would give `name`: all of them for one without "{name}". */
function matches(template: string, name: string): ((tenant: string) => boolean) | undefined {
  if (!template.includes(TEMPLATE)) return template === name ? () => true : undefined;
  const [before, ...rest] = template.split(TEMPLATE);
  const after = rest.join(TEMPLATE);
  if (!name.startsWith(before ?? '') || !name.endsWith(after)) return undefined;
  // Checked per tenant: a template with two "{name}"s, or a name like "a-db-db", fills in exactly.
  return (tenant) => template.split(TEMPLATE).join(tenant) === name;
}

/** The Tenants to reconcile after the source Secret namespace/name changed, sorted. */
export function tenantsOfSource(
  tenants: readonly Tenant[],
  classes: readonly TenantClass[],
  source: { namespace: string; name: string },
): string[] {
  const concerned = new Set<string>();
  for (const tc of classes) {
    const className = tc.metadata.name ?? '';
    const policy = resolvedClass(className, 0, tc.spec);
    const tests = policy.secrets.flatMap((entry) => {
      if (entry.from?.namespace !== source.namespace) return [];
      const test = matches(entry.from.name, source.name);
      return test === undefined ? [] : [test];
    });
    if (tests.length === 0) continue;
    for (const tenant of tenants) {
      const name = tenant.metadata.name ?? '';
      const under = tenant.status?.class === className || tenant.spec?.class === className;
      if (under && tests.some((test) => test(name))) concerned.add(name);
    }
  }
  return [...concerned].sort();
}
