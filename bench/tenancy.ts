// The benchmark's two tenancy modes. Shared: every tenant's children in the bench namespace, as
// the landlord scenario has always run. PerTenant: the default class `standard` shipped in
// config/classes (installed before sync and the operator start), so each tenant gets a namespace
// of its own with a ServiceAccount, quota, LimitRange, NetworkPolicy and RoleBinding; its baseline
// creates those same objects with client-node, made by the operator's own pure functions, so both
// sides write the same objects (a tenant of several Deployments: each one, and each one's Service).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { KubernetesObject, V1ConfigMap, V1Deployment } from '@kubernetes/client-node';
import { load } from 'js-yaml';
import { GROUP, VERSION, type Tenant } from '../api/tenant.js';
import {
  CLASS_API_VERSION,
  CLASS_PLURAL,
  policyOf,
  type ClassPolicy,
  type DatabaseEngine,
  type TenantClass,
} from '../api/tenantclass.js';
import { repoRoot } from '../harness/paths.js';
import type { KubeApi } from '../runtime/kube/api.js';
import { withOwnership, type DesiredChild } from '../operator/desired.js';
import { withClassFields } from '../operator/policy/class-fields.js';
import { tenantNamespaceName } from '../operator/namespaces/rules.js';
import { tenancyObjects } from '../operator/tenancy/namespace-objects.js';
import { exposureObjects, exposureOf, type Exposed } from '../operator/exposure/exposure.js';
import { withExposedPods } from '../operator/exposure/objects.js';
import { NO_SOURCES } from '../operator/secrets/sources.js';
import { wantedSecrets, type SecretScope } from '../operator/secrets/wanted.js';
import { workloadServices } from '../operator/workload/services.js';
import { configMap, services, type RowShape } from './rows.js';
import { BENCH_SECRETS } from './secrets.js';
import { benchDatabases } from './databases.js';

export type Tenancy = 'shared' | 'pertenant';

/** The namespace landlord runs in (landlordEnv's POD_NAMESPACE; sync keeps revisions there), never a tenant's. */
export const OPERATOR_NAMESPACE = 'landlord-system';

/** config/classes/standard.yaml, the default class a deployment installs. */
function standardClass(): TenantClass {
  const text = readFileSync(join(repoRoot, 'config', 'classes', 'standard.yaml'), 'utf8');
  return load(text) as TenantClass;
}

/** What the bench class adds to `standard`. */
interface ClassOptions {
  expose: boolean;
  secrets: boolean;
  /** The class's Services headless (services.headless). */
  headlessServices?: boolean;
  /** A database per tenant (the fullfeature scenario's full side), on databaseEngine's server. */
  databases?: boolean;
  databaseEngine?: DatabaseEngine;
}

/**
 * The class a PerTenant run installs: `standard`; with --expose the same class exposing every
 * tenant (a Service and an Ingress for {name}.apps.example.com), as issue 40's measurement asks;
 * with --secrets copying a shared Secret and one of the tenant's own into each namespace (issue 39);
 * with --headless-services its Services headless.
 */
export function benchClass(options: ClassOptions): TenantClass {
  const tc = standardClass();
  const expose = { port: 80, host: '{name}.apps.example.com', ingressClassName: 'nginx' };
  const exposed = options.expose ? { expose, allowedDomains: ['apps.example.com'] } : {};
  const secrets = options.secrets ? { secrets: [...BENCH_SECRETS] } : {};
  const engine = options.databaseEngine ?? 'postgres';
  const databases = options.databases === true ? { databases: benchDatabases(engine) } : {};
  const headless = options.headlessServices === true ? { services: { headless: true } } : {};
  return { ...tc, spec: { ...tc.spec, ...exposed, ...secrets, ...databases, ...headless } };
}

/**
 * Installs a class before landlord starts (not timed), at the version the bench asks for: the
 * shipped YAML may name an older served version (the schema is the same; conversion None).
 */
export async function installClass(api: KubeApi, tc: TenantClass): Promise<void> {
  const body = { ...tc, apiVersion: CLASS_API_VERSION };
  await api.request({ method: 'POST', path: `/apis/${GROUP}/${VERSION}/${CLASS_PLURAL}`, body });
}

/**
 * What sync and the operator need beyond the Shared run: children go in namespaces made as
 * tenants come, so the operator may not be limited to the bench namespace (empty: any namespace
 * but the system ones and its own, watched cluster-wide).
 */
export const tenancyEnv = (tenancy: Tenancy): Record<string, string> =>
  tenancy === 'pertenant' ? { LANDLORD_ALLOWED_NAMESPACES: '' } : {};

/** The tenant's namespace under the class. */
export function namespaceOf(tenant: string, policy: ClassPolicy): string {
  const scope = { operatorNamespace: OPERATOR_NAMESPACE, allowedNamespaces: [], reservedNamespaces: [] };
  const placed = tenantNamespaceName(tenant, policy, scope);
  if (!placed.ok) throw new Error(`bench tenant ${tenant}: namespace ${placed.namespace} ${placed.problem}`);
  return placed.namespace;
}

/**
 * What the operator applies for one tenant under the class, in its waves: the Namespace; the
 * ServiceAccount, quota, LimitRange, NetworkPolicy and RoleBindings (and, with the class's
 * secrets, their copies from `sources`; exposed, the Service and Ingress; for a row of several
 * Deployments, each one's Service); the row's Deployments (the first one exposed) and ConfigMap.
 * The database Secrets are not here: their passwords are made with the databases (databases.ts).
 */
export function perTenantWaves(
  tenant: Tenant,
  policy: ClassPolicy,
  shape: RowShape = { replicas: 1, services: 1 },
  sources: SecretScope = NO_SECRETS,
): KubernetesObject[][] {
  const name = tenant.metadata.name!;
  const namespace = namespaceOf(name, policy);
  const exposed = exposedOf(tenant, policy, namespace);
  const [ns, ...fences] = tenancyObjects(tenant, policy, namespace, exposed?.hosts ?? []);
  const secrets = secretCopies(tenant, policy, namespace, sources);
  const routes =
    exposed === undefined ? [] : exposureObjects(tenant, exposed, { namespace, services: policy.services });
  const apps = services(name, shape).map((d, i) => {
    const placed = withClassFields(inNamespace(d, namespace), policy);
    return exposed === undefined || i > 0 ? placed : withExposedPods(placed);
  });
  // Services are of the wave the exposure facet declares for the kind: with the fences.
  const perService = shape.services > 1 ? workloadServices(apps, namespace, policy.services) : [];
  const owned = perService.map((service) => withOwnership(service, tenant, 'Service'));
  const children = [
    ...apps.map((app) => withOwnership(app, tenant, 'Deployment')),
    withOwnership(inNamespace(configMap(name), namespace), tenant, 'ConfigMap'),
  ];
  const fenceWave = [...fences, ...secrets, ...routes, ...owned];
  return [[ns!], fenceWave, children].map((wave) => wave.map((d) => d.manifest));
}

const NO_SECRETS: SecretScope = { sourceNamespaces: [], sources: NO_SOURCES };

/** The class's secret copies, as the operator makes them; a source it would not find is a bench bug. */
function secretCopies(
  tenant: Tenant,
  policy: ClassPolicy,
  namespace: string,
  sources: SecretScope,
): DesiredChild[] {
  if (policy.secrets.length === 0) return [];
  const wanted = wantedSecrets(tenant, policy, namespace, sources);
  const [problem] = wanted.problems;
  if (problem !== undefined) throw new Error(`bench tenant ${tenant.metadata.name}: ${problem.message}`);
  return wanted.children;
}

function exposedOf(tenant: Tenant, policy: ClassPolicy, namespace: string): Exposed | undefined {
  const exposure = exposureOf(tenant, policy, { namespace });
  if (!exposure.ok) throw new Error(`bench tenant ${tenant.metadata.name}: ${exposure.refusal.message}`);
  return exposure.exposed;
}

function inNamespace<T extends V1Deployment | V1ConfigMap>(object: T, namespace: string): T {
  return { ...object, metadata: { ...object.metadata, namespace } };
}

/** The run's class as the operator resolves it. */
export const benchPolicy = (options: ClassOptions): ClassPolicy => policyOf(benchClass(options));
