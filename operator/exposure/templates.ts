// Which tenant names a host belongs to by the classes' `expose.host` templates: a templated host is
// its name's whether or not a Tenant of that name exists yet, so no row may take it ahead of the
// tenant that will sign up under that name (docs/exposure.md#a-host-squatted-before-its-tenant-signs-up).
// Pure: the template is read backwards by the one rule every template landlord fills follows
// (namespaces/template-match.ts).
import { NAME_PLACEHOLDER } from '../../api/tenantclass.js';
import { isDns1123Label } from '../../util/names.js';
import { placeholderValue } from '../namespaces/template-match.js';

/** The name `template` gives `host` to, when it does: every `{name}` filled with that one label. */
function nameBy(template: string, host: string): string | undefined {
  // A template without {name} gives every tenant of its class one host: the class's own problem.
  if (!template.includes(NAME_PLACEHOLDER)) return undefined;
  const name = placeholderValue(template, NAME_PLACEHOLDER, host);
  return name !== undefined && isDns1123Label(name) ? name : undefined;
}

/** Every tenant name some template gives `host` to, sorted; none: the host is outside every templated space. */
export function templatedNames(host: string, templates: readonly string[]): string[] {
  const names = new Set<string>();
  for (const template of templates) {
    const name = nameBy(template, host);
    if (name !== undefined) names.add(name);
  }
  return [...names].sort();
}
