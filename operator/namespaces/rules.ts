// The operator's namespace rules, in one place: which namespaces are Kubernetes' own, which is
// landlord's, which ones the operator is configured to manage, and what a PerTenant tenant's
// namespace is called (its class's name template, "{name}" filled in). Two uses ask them:
// - `children`: a Shared class's children go into a namespace that exists and is shared, so they
//   may use `default` or a listed namespace, never a system one or landlord's own;
// - `tenant`: a PerTenant tenant gets the namespace for itself, so it must be a valid name that
//   nobody else has a claim on (namespace squatting, issue 37): not `default` (where everything
//   lands that names no namespace), no name the platform uses or will use (the reserved globs:
//   `kube-*` always, and LANDLORD_OPERATOR_RESERVED_NAMESPACES), none its own class's network rules
//   trust (`allowIngressFrom`, `allowEgressTo`: a row named after the ingress controller's namespace
//   would be let into every tenant), and none another class's template makes for another tenant.
// policy/ and tenancy/ both read this module and it reads neither, so neither needs the other. Pure.
import { LABEL, MANAGED_BY } from '../../api/tenant.js';
import {
  fillId,
  fillName,
  ID_PLACEHOLDER,
  NAME_PLACEHOLDER,
  policyOf,
  type ClassPolicy,
  type TenantClass,
} from '../../api/tenantclass.js';
import { matches, selects } from '../../util/label-selector.js';
import { DNS1123_LABEL_RULE, isDns1123Label } from '../../util/names.js';
import { placeholderValue } from './template-match.js';

/** Namespaces Kubernetes itself keeps: never managed, whatever the config lists. */
export const SYSTEM_NAMESPACES: readonly string[] = Object.freeze([
  'kube-system',
  'kube-public',
  'kube-node-lease',
]);

/** Where an object that names no namespace lands: shared by everyone, so never one tenant's own. */
const DEFAULT_NAMESPACE = 'default';
/** Kubernetes reserves the prefix: whatever the setting says, a tenant never takes a name it may use next. */
const KUBERNETES_RESERVED = 'kube-*';

/**
 * What LANDLORD_OPERATOR_RESERVED_NAMESPACES holds by default: namespaces platforms make for their
 * own components, now or when they install them later. Globs: `*` stands for any run of characters.
 */
export const DEFAULT_RESERVED_NAMESPACES: readonly string[] = Object.freeze([
  'kube-*',
  '*-system',
  'openshift',
  'openshift-*',
  'istio-*',
  'ingress-*',
  'gateway-*',
  'cert-manager',
  'monitoring',
  'logging',
  'observability',
  'argocd',
  'flux-*',
  'linkerd',
  'linkerd-*',
  'calico-*',
  'tigera-*',
  'cattle-*',
  'external-secrets',
  'external-dns',
  'vault',
  'velero',
  'keda',
  'knative-*',
  'amazon-*',
  'aws-*',
  'gke-*',
  'azure-*',
  'landlord-*',
]);

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
  /** Globs of names no tenant may take for itself (besides `kube-*`); `*` is any run of characters. */
  reservedNamespaces: readonly string[];
  /**
   * The namespaces classes copy Secrets from (LANDLORD_SECRET_SOURCE_NAMESPACES), reserved whether
   * they exist yet or not: whoever held one would write what landlord copies into other tenants'
   * namespaces, and pods running there could mount every source.
   */
  secretSourceNamespaces?: readonly string[];
  /**
   * The name template of every PerTenant TenantClass, to tell when another class's template makes
   * the same name for another tenant. Absent: no other class is known (`landlord validate` alone).
   */
  classTemplates?: readonly ClassTemplate[];
  /**
   * What "{id}" in the tenant's name template stands for: the id of the namespace the tenant holds
   * or has just claimed from its class's warm pool (the caller found it by label and owner uid),
   * else the one derived from its uid (a cold namespace, ids.ts). Unused by "{name}" templates.
   */
  namespaceId?: string;
}

/** A PerTenant TenantClass's `namespace.nameTemplate`, by class. */
export interface ClassTemplate {
  className: string;
  template: string;
}

/** `children`: a Shared class's children, in a namespace others share. `tenant`: a tenant's own. */
export type NamespaceUse = 'children' | 'tenant';

const SAYS: Record<NamespaceUse, { system: string; landlords: string; source: string }> = {
  children: {
    system: 'is a Kubernetes system namespace, which landlord never manages',
    landlords: "is the operator's own namespace, which tenants may not use",
    source:
      "is a secret source namespace (LANDLORD_SECRET_SOURCE_NAMESPACES): pods there could read every tenant's copied Secrets",
  },
  tenant: {
    system: 'is a Kubernetes system namespace, which no tenant may have for itself',
    landlords: "is landlord's own namespace",
    source:
      'is a secret source namespace (LANDLORD_SECRET_SOURCE_NAMESPACES), reserved whether it exists or not: its holder would write the Secrets landlord copies to other tenants',
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
  if (use === 'children' && scope.secretSourceNamespaces?.includes(namespace) === true)
    return SAYS[use].source;
  if (use === 'children' && !isAllowedByScope(namespace, scope)) return NOT_CONFIGURED;
  return undefined;
}

/** Whether a Shared class's children may live in this namespace. */
export function isNamespaceAllowed(namespace: string, scope: NamespaceScope): boolean {
  return namespaceProblem(namespace, 'children', scope) === undefined;
}

function isSystemNamespace(namespace: string, use: NamespaceUse): boolean {
  if (SYSTEM_NAMESPACES.includes(namespace)) return true;
  return use === 'tenant' && namespace === DEFAULT_NAMESPACE;
}

function isAllowedByScope(namespace: string, scope: NamespaceScope): boolean {
  const pattern = scope.allowedNamespacePattern;
  if (scope.allowedNamespaces.length === 0 && pattern === undefined) return true;
  // search() starts at 0 and leaves lastIndex as it was, so a /g pattern gives the same answer every time.
  return (
    scope.allowedNamespaces.includes(namespace) || (pattern !== undefined && namespace.search(pattern) >= 0)
  );
}

/**
 * Why a tenant may not have a namespace, for the caller's refusal: `notAllowed` a system or
 * landlord's namespace or no name at all, `reserved` a name the platform keeps, `trusted` one its
 * class's network rules let in or out, `overlap` one another class's template makes for another tenant.
 */
export type NamespaceRefusal = 'notAllowed' | 'reserved' | 'trusted' | 'overlap' | 'poolTemplate';

export type NamedNamespace =
  | { ok: true; namespace: string }
  /** `problem` as the end of a sentence that starts with the namespace. */
  | { ok: false; namespace: string; problem: string; kind: NamespaceRefusal };

/**
 * A PerTenant tenant's namespace: the class's name template with "{name}" (and "{id}") filled in,
 * if it may be its own. The checks run from the plainest to the one that needs the other classes.
 */
export function tenantNamespaceName(
  tenant: string,
  tenantClass: Pick<
    ClassPolicy,
    | 'name'
    | 'namespace'
    | 'podSecurity'
    | 'networkIsolation'
    | 'allowIngressFrom'
    | 'allowEgressTo'
    | 'warmPool'
  >,
  scope: NamespaceScope,
): NamedNamespace {
  const template = tenantClass.namespace.nameTemplate;
  const namespace = fillId(fillName(template, tenant), scope.namespaceId ?? '');
  const refuse = (kind: NamespaceRefusal, problem: string): NamedNamespace => ({
    ok: false,
    namespace,
    problem,
    kind,
  });
  const pooled = poolTemplateProblem(tenantClass);
  if (pooled !== undefined) return refuse('poolTemplate', pooled);
  const notAllowed = namespaceProblem(namespace, 'tenant', scope);
  if (notAllowed !== undefined) return refuse('notAllowed', notAllowed);
  const glob = [KUBERNETES_RESERVED, ...scope.reservedNamespaces].find((g) => globMatches(g, namespace));
  if (glob !== undefined)
    return refuse(
      'reserved',
      `matches the reserved name ${JSON.stringify(glob)}, which the platform keeps for itself`,
    );
  if (scope.secretSourceNamespaces?.includes(namespace) === true)
    return refuse('reserved', SAYS.tenant.source);
  const trustedBy = trustingRule(tenant, tenantClass, namespace);
  if (trustedBy !== undefined)
    return refuse(
      'trusted',
      `is selected by the class's ${trustedBy}, so every tenant of the class would trust it`,
    );
  const other = overlappingClass(tenant, tenantClass, namespace, scope.classTemplates ?? []);
  if (other !== undefined) return refuse('overlap', other);
  return { ok: true, namespace };
}

/**
 * A class with a warm pool names its members before any tenant exists, and a claimed member keeps
 * its name: the template must be made of "{id}", never "{name}". Undefined when it may be.
 */
export function poolTemplateProblem(
  tenantClass: Pick<ClassPolicy, 'namespace' | 'warmPool'>,
): string | undefined {
  if (tenantClass.warmPool === undefined) return undefined;
  const template = tenantClass.namespace.nameTemplate;
  if (template.includes(ID_PLACEHOLDER) && !template.includes(NAME_PLACEHOLDER)) return undefined;
  return `is made by a class with a warm pool, whose namespace.nameTemplate ${JSON.stringify(template)} must use "{id}" and not "{name}" (a member is named before any tenant claims it), e.g. "t-{id}"`;
}

/** A glob of the setting: `*` is any run of characters, everything else stands for itself. */
export function globMatches(glob: string, name: string): boolean {
  const pattern = glob
    .split('*')
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*');
  return new RegExp(`^${pattern}$`).test(name);
}

/**
 * The labels a tenant's namespace carries: the class's (with "{name}" filled in), then the Pod
 * Security labels, which a class label cannot undo. tenancy/ writes them; the trust check reads them.
 */
export function namespaceLabels(
  tenant: string,
  tenantClass: Pick<ClassPolicy, 'namespace' | 'podSecurity'>,
): Record<string, string> {
  const labels: Record<string, string> = {};
  for (const [key, value] of Object.entries(tenantClass.namespace.labels))
    labels[key] = fillName(value, tenant);
  for (const mode of ['enforce', 'audit', 'warn']) {
    labels[`${PSA}/${mode}`] = tenantClass.podSecurity;
    labels[`${PSA}/${mode}-version`] = 'latest';
  }
  return labels;
}

const PSA = 'pod-security.kubernetes.io';
/** The label the API server sets on every namespace, which NetworkPolicies often select by. */
const NAME_LABEL = 'kubernetes.io/metadata.name';

/**
 * Which of the class's network rules would select the tenant's own namespace, judged on every label
 * it will carry (the API server's name label and landlord's too); undefined when none does.
 */
function trustingRule(
  tenant: string,
  tenantClass: Pick<
    ClassPolicy,
    'namespace' | 'podSecurity' | 'networkIsolation' | 'allowIngressFrom' | 'allowEgressTo'
  >,
  namespace: string,
): string | undefined {
  if (tenantClass.networkIsolation !== 'Isolated') return undefined;
  const labels = {
    ...namespaceLabels(tenant, tenantClass),
    [LABEL.tenant]: tenant,
    [LABEL.managedBy]: MANAGED_BY.operator,
    [NAME_LABEL]: namespace,
  };
  if (selects(tenantClass.allowIngressFrom) && matches(tenantClass.allowIngressFrom, labels))
    return 'allowIngressFrom';
  const egress = tenantClass.allowEgressTo.findIndex(
    (rule) => selects(rule.namespaceSelector) && matches(rule.namespaceSelector, labels),
  );
  return egress < 0 ? undefined : `allowEgressTo[${egress}].namespaceSelector`;
}

/**
 * The tenant name a template needs to make this namespace; '' when the template has no "{name}"
 * and is the namespace (every tenant of it gets that one name); undefined when it cannot make it,
 * or only for a name no tenant may have.
 */
export function tenantNameFor(template: string, namespace: string): string | undefined {
  const name = placeholderValue(template, NAME_PLACEHOLDER, namespace);
  return name === '' || (name !== undefined && isDns1123Label(name)) ? name : undefined;
}

/** How much of a template is fixed text: the more, the fewer names it can make. */
function fixedLength(template: string): number {
  return template.split(NAME_PLACEHOLDER).join('').length;
}

/**
 * Another class whose template makes this very namespace for another tenant, with a template at
 * least as specific (as much fixed text, or more): that class keeps the name, so a class with a
 * looser template (`{name}`) cannot take what a prefixed one (`tenant-{name}`) hands out. Two
 * classes with the same template never collide: one tenant name gives one namespace.
 */
function overlappingClass(
  tenant: string,
  tenantClass: Pick<ClassPolicy, 'name' | 'namespace'>,
  namespace: string,
  templates: readonly ClassTemplate[],
): string | undefined {
  const own = tenantClass.namespace.nameTemplate;
  for (const other of templates) {
    if (other.className === tenantClass.name || other.template === own) continue;
    const name = tenantNameFor(other.template, namespace);
    if (name === undefined || name === tenant || fixedLength(other.template) < fixedLength(own)) continue;
    const whom = name === '' ? 'every tenant of it' : `tenant ${name}`;
    return `is also what class ${other.className}'s namespace template ${JSON.stringify(other.template)} makes for ${whom}, and that template is at least as specific as ${JSON.stringify(own)}`;
  }
  return undefined;
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

/** The templates of the PerTenant classes among these TenantClasses, for NamespaceScope.classTemplates. */
export function classTemplates(classes: readonly TenantClass[]): ClassTemplate[] {
  return classes.flatMap((tc) => {
    const policy = policyOf(tc);
    return policy.mode === 'PerTenant'
      ? [{ className: policy.name, template: policy.namespace.nameTemplate }]
      : [];
  });
}
