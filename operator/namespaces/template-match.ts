// A class's name templates read backwards: which value of a placeholder ("{name}", "{id}") makes a
// template give a text. One rule for every template landlord fills: which tenant a namespace would
// be for (another class's template, rules.ts), which id a pooled namespace holds (ids.ts), which
// tenant a per-tenant Secret source ("{name}-db") serves (secrets/source-routing.ts), which tenant a
// templated host belongs to (exposure/templates.ts). Pure.

/**
 * The value that, put for every `placeholder` in `template`, gives `text`; '' when the template has
 * no placeholder and is the text itself (every value gives it); undefined when no value does. Every
 * placeholder takes the same value, so the text's length fixes it: there is one answer at most, and
 * "a-db-db" fills "{name}-db" with "a-db" only.
 */
export function placeholderValue(template: string, placeholder: string, text: string): string | undefined {
  const fixed = template.split(placeholder);
  const slots = fixed.length - 1;
  if (slots === 0) return template === text ? '' : undefined;
  const free = text.length - fixed.join('').length;
  if (free <= 0 || free % slots !== 0) return undefined;
  const first = fixed[0] ?? '';
  const value = text.slice(first.length, first.length + free / slots);
  return fixed.join(value) === text ? value : undefined;
}
