// Which tenant names a host belongs to by the classes' `expose.host` templates: a templated host is
// its name's whether or not a Tenant of that name exists yet, so no row may take it ahead of the
// tenant that will sign up under that name (docs/exposure.md#a-host-squatted-before-its-tenant-signs-up).
// Pure; a template's matcher is built once and kept by its text.
import { isDns1123Label } from '../../util/names.js';

const NAME = '{name}';

/** A tenant name as a template may spell it: one DNS label, checked again by isDns1123Label. */
const NAME_PATTERN = '([a-z0-9](?:[-a-z0-9]{0,61}[a-z0-9])?)';

const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const matchers = new Map<string, RegExp | undefined>();
/** Templates are few (one per class); an admin editing them for months must not grow the map. */
const MATCHERS_KEPT = 256;

/** The template as a pattern whose groups are its `{name}`s; undefined: it names no tenant. */
function matcherOf(template: string): RegExp | undefined {
  if (matchers.has(template)) return matchers.get(template);
  const parts = template.split(NAME);
  // A template without {name} gives every tenant of its class one host: the class's own problem.
  // The first {name} captures the label; every later one must spell the same (a back-reference).
  const body = parts.map(escape).reduce((at, part, i) => `${at}${i === 1 ? NAME_PATTERN : '\\1'}${part}`);
  const matcher = parts.length < 2 ? undefined : new RegExp(`^${body}$`);
  if (matchers.size >= MATCHERS_KEPT) matchers.clear();
  matchers.set(template, matcher);
  return matcher;
}

/** The name `template` gives `host` to, when it does: every `{name}` filled with that one label. */
function nameBy(template: string, host: string): string | undefined {
  const name = matcherOf(template)?.exec(host)?.[1];
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
