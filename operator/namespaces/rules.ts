// The operator's namespace rules, in one place: which namespaces are Kubernetes' own, which is
// landlord's, which ones the operator is configured to manage, and what a PerTenant tenant's
// namespace is called (its class's name template, "{name}" filled in). Two uses ask them:
// - `children`: a Shared class's children go into a namespace that exists and is shared, so they
//   may use `default` or a listed namespace, never a system one or landlord's own;
// - `tenant`: a PerTenant tenant gets the namespace for itself, so it must be a valid name that
//   nobody else has a claim on: neither `default` (where everything lands that names no namespace)
//   nor any `kube-` name.
// policy/ and tenancy/ both read this module and it reads neither, so neither needs the other. Pure.
import { fillName } from '../../api/tenantclass.js';
import { DNS1123_LABEL_RULE, isDns1123Label } from '../../util/names.js';

/** Namespaces Kubernetes itself keeps: never managed, whatever the config lists. */
export const SYSTEM_NAMESPACES: readonly string[] = Object.freeze([
  'kube-system',
  'kube-public',
  'kube-node-lease',
]);

/** Where an object that names no namespace lands: shared by everyone, so never one tenant's own. */
const DEFAULT_NAMESPACE = 'default';
/** Kubernetes reserves the prefix: a tenant must not take a name it may use next. */
const RESERVED_PREFIX = 'kube-';

/** Where the operator may put children: its own namespace is never among them. */
export interface NamespaceScope {
  /**
   * Namespaces children may live in, by exact name. A namespace is allowed when it is listed here or
   * matches `allowedNamespacePattern`; with neither, every namespace that is not forbidden is allowed.
   */
  allowedNamespaces: string[];
  /** Tested as written (not anchored for you): write `^team-` to mean "starts with team-". */
  allowedNamespacePattern?: RegExp;
  /** The operator's own namespace: always forbidden, like the Kubernetes system namespaces. */
  operatorNamespace: string;
}

/** `children`: a Shared class's children, in a namespace others share. `tenant`: a tenant's own. */
export type NamespaceUse = 'children' | 'tenant';

const SAYS: Record<NamespaceUse, { system: string; landlords: string }> = {
  children: {
    system: 'is a Kubernetes system namespace, which landlord never manages',
    landlords: "is the operator's own namespace, which tenants may not use",
  },
  tenant: {
    system: 'is a Kubernetes system namespace, which no tenant may have for itself',
    landlords: "is landlord's own namespace",
  },
};
const NOT_A_NAME = `is not a namespace name (${DNS1123_LABEL_RULE})`;
const NOT_CONFIGURED = 'is not one landlord is configured to manage';

/**
 * Why this namespace may not be used so, as the end of a sentence that starts with the namespace;
 * undefined when it may. A tenant's own namespace is not held to the allow-list, which is for
 * Shared children: the tenant's class chose it.
 */
export function namespaceProblem(
  namespace: string,
  use: NamespaceUse,
  scope: NamespaceScope,
): string | undefined {
  if (use === 'tenant' && !isDns1123Label(namespace)) return NOT_A_NAME;
  if (isSystemNamespace(namespace, use)) return SAYS[use].system;
  if (namespace === scope.operatorNamespace) return SAYS[use].landlords;
  if (use === 'children' && !isAllowedByScope(namespace, scope)) return NOT_CONFIGURED;
  return undefined;
}

/** Whether a Shared class's children may live in this namespace. */
export function isNamespaceAllowed(namespace: string, scope: NamespaceScope): boolean {
  return namespaceProblem(namespace, 'children', scope) === undefined;
}

function isSystemNamespace(namespace: string, use: NamespaceUse): boolean {
  if (SYSTEM_NAMESPACES.includes(namespace)) return true;
  return use === 'tenant' && (namespace === DEFAULT_NAMESPACE || namespace.startsWith(RESERVED_PREFIX));
}

function isAllowedByScope(namespace: string, scope: NamespaceScope): boolean {
  const pattern = scope.allowedNamespacePattern;
  if (scope.allowedNamespaces.length === 0 && pattern === undefined) return true;
  // search() starts at 0 and leaves lastIndex as it was, so a /g pattern gives the same answer every time.
  return (
    scope.allowedNamespaces.includes(namespace) || (pattern !== undefined && namespace.search(pattern) >= 0)
  );
}

export type NamedNamespace =
  | { ok: true; namespace: string }
  /** `problem` as namespaceProblem says it, for the caller's refusal. */
  | { ok: false; namespace: string; problem: string };

/** A PerTenant tenant's namespace: the class's name template with "{name}" filled in, if it may be its own. */
export function tenantNamespaceName(
  tenant: string,
  nameTemplate: string,
  scope: NamespaceScope,
): NamedNamespace {
  const namespace = fillName(nameTemplate, tenant);
  const problem = namespaceProblem(namespace, 'tenant', scope);
  return problem === undefined ? { ok: true, namespace } : { ok: false, namespace, problem };
}

/** Past this many, the allowed list is summarised: a message must stay readable. */
const LISTED_MAX = 10;

/** What a Shared class's children may use instead, for the end of a refusal. */
export function describeAllowed(scope: NamespaceScope): string {
  const forbidden = [...SYSTEM_NAMESPACES, scope.operatorNamespace];
  const options = [...listed(scope.allowedNamespaces)];
  if (scope.allowedNamespacePattern !== undefined) {
    options.push(`a namespace matching ${String(scope.allowedNamespacePattern)}`);
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
