// Kubernetes label selectors, read as the API server and NetworkPolicy read them. Pure.
import type { V1LabelSelector, V1LabelSelectorRequirement } from '@kubernetes/client-node';

/** Kubernetes label selector semantics: every matchLabels pair and every expression must hold. */
export function matches(selector: V1LabelSelector, labels: Readonly<Record<string, string>>): boolean {
  const pairs = Object.entries(selector.matchLabels ?? {});
  return (
    pairs.every(([key, value]) => labels[key] === value) &&
    (selector.matchExpressions ?? []).every((e) => holds(e, labels))
  );
}

function holds(requirement: V1LabelSelectorRequirement, labels: Readonly<Record<string, string>>): boolean {
  const has = Object.hasOwn(labels, requirement.key);
  const value = labels[requirement.key] ?? '';
  const values = requirement.values ?? [];
  switch (requirement.operator) {
    case 'In':
      return has && values.includes(value);
    case 'NotIn':
      return !has || !values.includes(value);
    case 'Exists':
      return has;
    case 'DoesNotExist':
      return !has;
    default:
      return false;
  }
}

/** A selector that selects something: an empty one would pick every namespace, so it adds nothing. */
export function selects(selector: V1LabelSelector | undefined): selector is V1LabelSelector {
  if (selector === undefined) return false;
  return Object.keys(selector.matchLabels ?? {}).length + (selector.matchExpressions ?? []).length > 0;
}
