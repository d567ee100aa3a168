// Children live only in namespaces the operator may manage: never a Kubernetes system namespace,
// never the operator's own (its Lease and its own pods live there), and only those the config allows.
import { allChildren, placeIn, type ValidChildren } from './children.js';
import type { PolicyConfig } from './config.js';
import { quote } from './json.js';
import { refusal, type Refusal } from './refusals.js';

/** Namespaces no tenant may use; the operator's own namespace (from its config) joins them. */
export const FORBIDDEN_NAMESPACES: readonly string[] = Object.freeze([
  'kube-system',
  'kube-public',
  'kube-node-lease',
]);

/** Past this many, the allowed list is summarised: a message must stay readable. */
const LISTED_MAX = 10;

export function checkNamespaces(children: ValidChildren, config: PolicyConfig): Refusal | undefined {
  for (const child of allChildren(children)) {
    const namespace = child.value.metadata?.namespace ?? '';
    const why = namespaceProblem(namespace, config);
    if (why !== undefined) {
      const at = placeIn(child, `${child.path}.metadata.namespace`);
      return refusal.namespaceNotAllowed(at, quote(namespace), why, describeAllowed(config));
    }
  }
  return undefined;
}

/** Whether children may live in this namespace under this config. */
export function isNamespaceAllowed(namespace: string, config: PolicyConfig): boolean {
  return namespaceProblem(namespace, config) === undefined;
}

const SYSTEM_NAMESPACE = 'is a Kubernetes system namespace, which landlord never manages';
const OPERATOR_NAMESPACE = "is the operator's own namespace, which tenants may not use";
const NOT_CONFIGURED = 'is not one landlord is configured to manage';

function namespaceProblem(namespace: string, config: PolicyConfig): string | undefined {
  if (FORBIDDEN_NAMESPACES.includes(namespace)) return SYSTEM_NAMESPACE;
  if (namespace === config.operatorNamespace) return OPERATOR_NAMESPACE;
  return isAllowedByConfig(namespace, config) ? undefined : NOT_CONFIGURED;
}

function isAllowedByConfig(namespace: string, config: PolicyConfig): boolean {
  const pattern = config.allowedNamespacePattern;
  if (config.allowedNamespaces.length === 0 && pattern === undefined) return true;
  // search() starts at 0 and leaves lastIndex as it was, so a /g pattern gives the same answer every time.
  return (
    config.allowedNamespaces.includes(namespace) || (pattern !== undefined && namespace.search(pattern) >= 0)
  );
}

function describeAllowed(config: PolicyConfig): string {
  const forbidden = [...FORBIDDEN_NAMESPACES, config.operatorNamespace];
  const options = [...listed(config.allowedNamespaces)];
  if (config.allowedNamespacePattern !== undefined) {
    options.push(`a namespace matching ${String(config.allowedNamespacePattern)}`);
  }
  if (options.length === 0) return `use any namespace except ${joinOr(forbidden, 'and')}`;
  return `use ${joinOr(options, 'or')} (never ${joinOr(forbidden, 'or')})`;
}

function listed(names: readonly string[]): string[] {
  if (names.length <= LISTED_MAX) return [...names];
  return [...names.slice(0, LISTED_MAX), `${names.length - LISTED_MAX} more listed namespaces`];
}

function joinOr(items: readonly string[], word: 'and' | 'or'): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} ${word} ${items.at(-1) ?? ''}`;
}
