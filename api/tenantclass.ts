// The TenantClass resource: the platform's policy for the tenants that choose it, written by
// platform admins with kubectl (like a StorageClass). A row picks a class by name; without one it
// gets the class annotated as the default, and with no TenantClass at all the built-in one.
//
// Two shapes live here: TenantClassSpec is what an admin writes (every field optional), and
// ClassPolicy is the same policy with every default filled in, which is all the operator reads.
// `resolvedClass` is the one place that turns the first into the second.
import type { V1LabelSelector, V1Toleration } from '@kubernetes/client-node';
import { deepFreeze } from '../util/deep-freeze.js';
import { GROUP, PREVIOUS_VERSION, VERSION } from './tenant.js';

export const CLASS_KIND = 'TenantClass';
export const CLASS_PLURAL = 'tenantclasses';
export const CLASS_CRD_NAME = `${CLASS_PLURAL}.${GROUP}`;
export const CLASS_API_VERSION = `${GROUP}/${VERSION}`;
/** Every apiVersion a TenantClass is served under, the stored one first. */
export const CLASS_API_VERSIONS = [CLASS_API_VERSION, `${GROUP}/${PREVIOUS_VERSION}`] as const;

/** On one TenantClass, value "true": the class of every row that names none. */
export const DEFAULT_CLASS_ANNOTATION = `${GROUP}/is-default-class`;

/** The name `status.class` reports for a Tenant under the built-in class. */
export const BUILT_IN_CLASS_NAME = 'built-in';

/** The Pod Security Standards levels, from the most to the least permissive. */
export const POD_SECURITY_LEVELS = ['privileged', 'baseline', 'restricted'] as const;
export type PodSecurityLevel = (typeof POD_SECURITY_LEVELS)[number];
const DEFAULT_POD_SECURITY: PodSecurityLevel = 'baseline';

/**
 * Shared: children live in namespaces other tenants use too, so a pod may reach nothing there but
 * what its own row makes. PerTenant: the operator makes the tenant a namespace of its own.
 */
type TenancyMode = 'Shared' | 'PerTenant';
type NetworkIsolation = 'Isolated' | 'None';

/** A port a rule of `allowEgressTo` opens, as in a NetworkPolicy (all ports when a rule has none). */
export interface EgressPort {
  protocol?: 'TCP' | 'UDP' | 'SCTP';
  port?: number | string;
  endPort?: number;
}

/**
 * Where an Isolated tenant's pods may connect besides their own namespace and DNS: the namespaces a
 * selector picks, and/or the addresses of a CIDR (less its `except`), on `ports` (all when absent).
 */
export interface EgressRule {
  namespaceSelector?: V1LabelSelector;
  ipBlock?: { cidr: string; except?: string[] };
  ports?: EgressPort[];
}

/** Where the tenant's pods may run: forced onto every pod template, never widened by a row. */
interface NodePool {
  nodeSelector: Readonly<Record<string, string>>;
  tolerations: readonly V1Toleration[];
}

/** The default of limits.maxDeployments: how many Deployments one row may list. */
export const DEFAULT_MAX_DEPLOYMENTS = 5;
/** The most any class may allow, and the Tenant schema's cap on spec.deployments. */
export const MAX_DEPLOYMENTS_PER_TENANT = 100;

export interface ClassLimits {
  maxReplicas: number;
  maxConfigMaps: number;
  /** The most Deployments a row may list (spec.deployments); a row of one object always passes. */
  maxDeployments: number;
  /** spec.deployment(s) and spec.configMaps together, as JSON bytes. */
  maxRowBytes: number;
  /** priorityClassName may only name one of these; none by default. */
  allowedPriorityClasses: readonly string[];
  /**
   * The longest terminationGracePeriodSeconds a pod may ask for: a pod on its way out keeps its
   * node, its quota and its namespace's deletion waiting that long.
   */
  maxTerminationGracePeriodSeconds: number;
  /** Set as sizeLimit on every emptyDir volume that has none (a quantity). */
  defaultEmptyDirSizeLimit: string;
  /** The largest emptyDir sizeLimit a pod may ask for (a quantity). */
  maxEmptyDirSizeLimit: string;
  /** Whether pods may have generic ephemeral volumes (a PersistentVolumeClaim made per pod). */
  allowEphemeralVolumes: boolean;
}

/** A RoleBinding in the tenant's namespace (PerTenant): one subject bound to one ClusterRole. */
export interface ClassRoleBinding {
  /** A group or a user (exactly one); "{name}" is replaced with the tenant's name. */
  group?: string;
  user?: string;
  clusterRole: string;
}

/**
 * A Secret every tenant of a PerTenant class gets in its namespace, named `name` there. Exactly one
 * source: `from` copies a Secret of a namespace the operator is installed to read (its `name` may
 * hold "{name}", the tenant's name: one source per tenant); `externalSecret` has External Secrets
 * Operator fetch it, from the store and remote key given ("{name}" is replaced there too).
 */
export interface ClassSecret {
  name: string;
  from?: { namespace: string; name: string };
  externalSecret?: ClassExternalSecret;
}

interface ClassExternalSecret {
  storeRef: { kind: 'SecretStore' | 'ClusterSecretStore'; name: string };
  remoteKey: string;
  /** How often ESO reads the store again (a Go duration); default 1h. */
  refreshInterval?: string;
}

/** How often an ExternalSecret is refreshed when its entry says nothing: ESO's own default. */
const DEFAULT_REFRESH_INTERVAL = '1h';

/**
 * The namespace part of a class. Labels, annotations and the template take "{name}"; the template
 * may take "{id}" instead, and a class with a warm pool must (its members are made before any name).
 */
interface ClassNamespace {
  mode: TenancyMode;
  nameTemplate: string;
  labels: Readonly<Record<string, string>>;
  annotations: Readonly<Record<string, string>>;
}

/**
 * ResourceQuota and LimitRange specs pass through to the API server as written, which validates
 * them; landlord only reads them as JSON, so they are kept as plain objects.
 */
type JsonObject = { [key: string]: unknown };

/** Where an exposed tenant's route attaches when it is an HTTPRoute: a Gateway API Gateway. */
export interface ExposeGateway {
  namespace: string;
  name: string;
  /** The Gateway's listener to attach to; absent: every listener that admits the route. */
  sectionName?: string;
}

/**
 * PerTenant: reach each tenant through a ClusterIP Service and one route (an Ingress of
 * `ingressClassName`, or an HTTPRoute attached to `gateway`; exactly one of the two) for its host.
 */
export interface ClassExpose {
  /** The container port the Service sends port 80 to. */
  port: number;
  /**
   * Which of a tenant's Deployments the Service selects, by name; absent: the first (the only one
   * of a row of one object).
   */
  deployment?: string;
  /** The tenant's own host; "{name}" is replaced with the tenant's name. */
  host: string;
  ingressClassName?: string;
  gateway?: ExposeGateway;
  /** The URL is https; who holds the certificate depends on the route's kind (ExposeTls). */
  tls?: ExposeTls;
}

/**
 * TLS for a class's routes. At a Gateway, the listener terminates TLS with a certificate in the
 * Gateway's own namespace: `{}` is all a class says, and no tenant namespace holds a key. With an
 * Ingress, `secretName` is a Secret in each tenant's own namespace, which its team can read, so
 * `perTenant: true` must say it holds that tenant's own certificate; a key shared by tenants there
 * is every tenant's to take (the CRD refuses an Ingress class's tls without it, docs/exposure.md#tls).
 */
interface ExposeTls {
  /** Ingress: the Secret, in each tenant namespace, the controller serves. Gateway: not read. */
  secretName?: string;
  /** Ingress only, and required there: the Secret is the tenant's own certificate. */
  perTenant?: boolean;
}

/** The database engines a class's `databases` may name. */
export const DATABASE_ENGINES = ['postgres', 'mysql'] as const;
export type DatabaseEngine = (typeof DATABASE_ENGINES)[number];

/**
 * A database and a role of its own for every tenant of a PerTenant class, on a platform server
 * whose admin connection is a Secret in landlord's own namespace (host, port, user, password); the
 * credentials land in the tenant namespace as Secret `db-<name>` (docs/databases.md).
 */
export interface ClassDatabase {
  name: string;
  engine: DatabaseEngine;
  server: { secretRef: { name: string } };
  /** The database's (and its role's) name; "{name}" is replaced with the tenant's name. */
  nameTemplate: string;
}

/** How a class's database is named when its entry says nothing. */
export const DEFAULT_DATABASE_NAME_TEMPLATE = 't_{name}';

/** A class with every default filled in: all the operator reads. */
export interface ClassPolicy {
  /** The TenantClass's name, or BUILT_IN_CLASS_NAME. */
  name: string;
  /** The TenantClass's metadata.generation (0 for the built-in one). */
  generation: number;
  /** namespace.mode, repeated at the top because most checks only ask this. */
  mode: TenancyMode;
  namespace: ClassNamespace;
  podSecurity: PodSecurityLevel;
  /** A ResourceQuotaSpec; PerTenant only, none when `hard` is empty. */
  resourceQuota: JsonObject;
  /** A LimitRangeSpec; PerTenant only, none when `limits` is empty. */
  limitRange: JsonObject;
  networkIsolation: NetworkIsolation;
  /** A namespace selector allowed in when Isolated (e.g. the ingress controller's namespace). */
  allowIngressFrom: V1LabelSelector;
  /** Isolated: where pods may connect besides their own namespace and DNS; nowhere by default. */
  allowEgressTo: readonly EgressRule[];
  nodePool: NodePool;
  /** Whether pods mount a ServiceAccount token; landlord sets the pod template's field to this. */
  serviceAccount: { automountToken: boolean };
  rbac: readonly ClassRoleBinding[];
  /** Secrets in the tenant namespace (PerTenant only); none by default. */
  secrets: readonly ClassSecret[];
  /** A database per entry for each tenant (PerTenant only); none by default. */
  databases: readonly ClassDatabase[];
  limits: ClassLimits;
  /**
   * The DynamoDB tables whose rows may use the class (by the table sync stamps on the Tenant, which
   * a row cannot set); undefined: any table.
   */
  allowedTables?: readonly string[];
  /** PerTenant: the Service and route each tenant gets; undefined: none. */
  expose?: ClassExpose;
  /** How the Services landlord makes for a tenant are addressed (the exposed one, each workload's). */
  services: ClassServices;
  /** The DNS domains a tenant's hosts may be in (the templated host included); none by default. */
  allowedDomains: readonly string[];
  /** PerTenant: ready, unclaimed namespaces a new tenant of the class claims (docs/warm-pool.md). */
  warmPool?: WarmPool;
}

/**
 * The Services landlord makes for a tenant. `headless`: each is made with `clusterIP: None`, so it
 * takes no address from the cluster's Service range: the cluster allocates ClusterIPs one at a time
 * (docs/performance-notes/service-creates.md) from a range of ~65,000 on a /16, which tens of
 * thousands of tenants with several Services each would exhaust. A route's controller reaches the
 * pods through the Service's EndpointSlices either way; a client in the cluster resolves the
 * Service's name to its ready pods' addresses and connects to the container's own port.
 */
export interface ClassServices {
  headless: boolean;
}

/**
 * A class's warm pool: `size` members, each a namespace named by the "{id}" template holding the
 * class's tenant-independent objects and `deployment` (or `deployments`), running before any
 * tenant claims it.
 */
interface WarmPool {
  size: number;
  /** An apps/v1 Deployment manifest, checked and placed as a row's would be. */
  deployment: JsonObject;
  /**
   * Several apps/v1 Deployments, for a class whose rows list several services (issue 58): each
   * member runs all of them, checked as a row's list is. Set instead of `deployment`.
   */
  deployments?: JsonObject[];
  /** Unclaimed members replaced at once when the pool's spec changes. */
  maxUnavailable: number;
}

/** What an admin writes: every field optional, defaults as in ClassPolicy. */
export interface TenantClassSpec {
  namespace?: Partial<ClassNamespace>;
  podSecurity?: PodSecurityLevel;
  resourceQuota?: JsonObject;
  limitRange?: JsonObject;
  networkIsolation?: NetworkIsolation;
  allowIngressFrom?: V1LabelSelector;
  allowEgressTo?: EgressRule[];
  nodePool?: Partial<NodePool>;
  serviceAccount?: { automountToken?: boolean };
  rbac?: ClassRoleBinding[];
  secrets?: ClassSecret[];
  databases?: (Omit<ClassDatabase, 'nameTemplate'> & { nameTemplate?: string })[];
  limits?: Partial<ClassLimits>;
  allowedTables?: string[];
  expose?: ClassExpose;
  services?: Partial<ClassServices>;
  allowedDomains?: string[];
  warmPool?: Partial<WarmPool>;
}

export interface TenantClass {
  apiVersion: typeof CLASS_API_VERSION;
  kind: typeof CLASS_KIND;
  metadata: {
    name?: string;
    uid?: string;
    generation?: number;
    annotations?: Record<string, string>;
    [key: string]: unknown;
  };
  spec?: TenantClassSpec;
  /** Written by the operator's pool controller only. */
  status?: { warm?: number };
}

/** DynamoDB's item limit: no row the table can hold is refused for its size alone. */
const DYNAMODB_ITEM_BYTES = 400 * 1024;

/** The built-in class: Shared namespaces at the given Pod Security level, with every hardening. */
export function builtInClass(podSecurity: PodSecurityLevel = DEFAULT_POD_SECURITY): ClassPolicy {
  return resolvedClass(BUILT_IN_CLASS_NAME, 0, { podSecurity, namespace: { mode: 'Shared' } });
}

/** What a class leaves out. Each section merges separately, so a class may set one field of it. */
const DEFAULTS = {
  namespace: { mode: 'PerTenant', nameTemplate: '{name}', labels: {}, annotations: {} } as ClassNamespace,
  nodePool: { nodeSelector: {}, tolerations: [] } as NodePool,
  serviceAccount: { automountToken: false },
  services: { headless: false } as ClassServices,
  limits: {
    maxReplicas: 50,
    maxConfigMaps: 50,
    maxDeployments: DEFAULT_MAX_DEPLOYMENTS,
    maxRowBytes: DYNAMODB_ITEM_BYTES,
    allowedPriorityClasses: [],
    maxTerminationGracePeriodSeconds: 300,
    defaultEmptyDirSizeLimit: '1Gi',
    maxEmptyDirSizeLimit: '8Gi',
    allowEphemeralVolumes: false,
  } as ClassLimits,
};

/**
 * Each cached TenantClass's policy, made once: the operator resolves its Tenant's class on every
 * reconcile, and filling in the defaults (a deep copy of the spec) was 2.6 % of its CPU in a cold
 * start. A changed class comes from the watch as a new object, which gets a policy of its own.
 * Frozen, as every reader shares it.
 */
const policies = new WeakMap<TenantClass, ClassPolicy>();

/** The class as the operator reads it: every default filled in. */
export function policyOf(tc: TenantClass): ClassPolicy {
  let policy = policies.get(tc);
  if (policy === undefined) {
    policy = deepFreeze(resolvedClass(tc.metadata.name ?? '', tc.metadata.generation ?? 0, tc.spec ?? {}));
    policies.set(tc, policy);
  }
  return policy;
}

/** A class as written, with every default filled in. Never shares objects with `spec`. */
export function resolvedClass(name: string, generation: number, spec: TenantClassSpec = {}): ClassPolicy {
  const s = structuredClone(spec);
  const namespace = { ...DEFAULTS.namespace, ...s.namespace };
  return {
    name,
    generation,
    mode: namespace.mode,
    namespace,
    podSecurity: s.podSecurity ?? DEFAULT_POD_SECURITY,
    resourceQuota: s.resourceQuota ?? {},
    limitRange: s.limitRange ?? {},
    ...networkOf(s),
    services: { ...DEFAULTS.services, ...s.services },
    nodePool: { ...DEFAULTS.nodePool, ...s.nodePool },
    serviceAccount: { ...DEFAULTS.serviceAccount, ...s.serviceAccount },
    rbac: s.rbac ?? [],
    secrets: (s.secrets ?? []).map(withSecretDefaults),
    databases: (s.databases ?? []).map((d) => ({
      ...d,
      nameTemplate: d.nameTemplate ?? DEFAULT_DATABASE_NAME_TEMPLATE,
    })),
    limits: { ...DEFAULTS.limits, ...s.limits },
    ...(s.allowedTables === undefined ? {} : { allowedTables: s.allowedTables }),
    ...(s.warmPool === undefined ? {} : { warmPool: warmPoolOf(s.warmPool) }),
  };
}

/** Who may reach the tenant's pods and where they may go, and how the tenant is exposed. */
function networkOf(
  s: TenantClassSpec,
): Pick<
  ClassPolicy,
  'networkIsolation' | 'allowIngressFrom' | 'allowEgressTo' | 'expose' | 'allowedDomains'
> {
  return {
    networkIsolation: s.networkIsolation ?? 'Isolated',
    allowIngressFrom: s.allowIngressFrom ?? {},
    allowEgressTo: s.allowEgressTo ?? [],
    ...(s.expose === undefined ? {} : { expose: s.expose }),
    allowedDomains: s.allowedDomains ?? [],
  };
}

function withSecretDefaults(entry: ClassSecret): ClassSecret {
  const external = entry.externalSecret;
  if (external === undefined) return entry;
  const refreshInterval = external.refreshInterval ?? DEFAULT_REFRESH_INTERVAL;
  return { ...entry, externalSecret: { ...external, refreshInterval } };
}

function warmPoolOf(pool: Partial<WarmPool>): WarmPool {
  return {
    size: pool.size ?? 0,
    deployment: pool.deployment ?? {},
    ...(pool.deployments === undefined ? {} : { deployments: pool.deployments }),
    maxUnavailable: pool.maxUnavailable ?? 1,
  };
}

/** In a name template: a random DNS-safe id (a pool member's), or one derived from the Tenant's uid (cold). */
export const ID_PLACEHOLDER = '{id}';

/** "{id}" in a name template, replaced with the namespace's id. */
export function fillId(template: string, id: string): string {
  return template.split(ID_PLACEHOLDER).join(id);
}

/** In a class's template, label or annotation value: the tenant's name. */
export const NAME_PLACEHOLDER = '{name}';

/** "{name}" in a class's template, label or annotation value, replaced with the tenant's name. */
export function fillName(template: string, tenantName: string): string {
  return template.split(NAME_PLACEHOLDER).join(tenantName);
}

export function isDefaultClass(tc: Pick<TenantClass, 'metadata'>): boolean {
  return tc.metadata.annotations?.[DEFAULT_CLASS_ANNOTATION] === 'true';
}
