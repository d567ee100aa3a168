// API paths for the few kinds landlord touches. A fixed table rather than discovery: landlord
// only ever manages these kinds, and a fixed table costs no requests.
import { GROUP, PLURAL, VERSION } from '../../api/tenant.js';
import { CLASS_KIND, CLASS_PLURAL } from '../../api/tenantclass.js';

interface KindInfo {
  prefix: string;
  plural: string;
  namespaced: boolean;
}

const KINDS: Record<string, KindInfo> = {
  'apps/v1/Deployment': { prefix: '/apis/apps/v1', plural: 'deployments', namespaced: true },
  'v1/ConfigMap': { prefix: '/api/v1', plural: 'configmaps', namespaced: true },
  // A PerTenant tenant's namespace and what the operator puts in it besides the children.
  'v1/Namespace': { prefix: '/api/v1', plural: 'namespaces', namespaced: false },
  'v1/ServiceAccount': { prefix: '/api/v1', plural: 'serviceaccounts', namespaced: true },
  'v1/ResourceQuota': { prefix: '/api/v1', plural: 'resourcequotas', namespaced: true },
  'v1/LimitRange': { prefix: '/api/v1', plural: 'limitranges', namespaced: true },
  'networking.k8s.io/v1/NetworkPolicy': {
    prefix: '/apis/networking.k8s.io/v1',
    plural: 'networkpolicies',
    namespaced: true,
  },
  // A TenantClass's secrets: copies in tenant namespaces, sources in the operator's source namespaces.
  'v1/Secret': { prefix: '/api/v1', plural: 'secrets', namespaced: true },
  // A class's externalSecret entries, where External Secrets Operator is installed.
  'external-secrets.io/v1/ExternalSecret': {
    prefix: '/apis/external-secrets.io/v1',
    plural: 'externalsecrets',
    namespaced: true,
  },
  'rbac.authorization.k8s.io/v1/RoleBinding': {
    prefix: '/apis/rbac.authorization.k8s.io/v1',
    plural: 'rolebindings',
    namespaced: true,
  },
  // A PerTenant class's exposure: the tenant's Service and its route (an Ingress or an HTTPRoute).
  'v1/Service': { prefix: '/api/v1', plural: 'services', namespaced: true },
  'networking.k8s.io/v1/Ingress': {
    prefix: '/apis/networking.k8s.io/v1',
    plural: 'ingresses',
    namespaced: true,
  },
  'gateway.networking.k8s.io/v1/HTTPRoute': {
    prefix: '/apis/gateway.networking.k8s.io/v1',
    plural: 'httproutes',
    namespaced: true,
  },
  // sync keeps each Tenant's applied revisions as ControllerRevisions in its own namespace.
  'apps/v1/ControllerRevision': { prefix: '/apis/apps/v1', plural: 'controllerrevisions', namespaced: true },
  'v1/Event': { prefix: '/api/v1', plural: 'events', namespaced: true },
  'coordination.k8s.io/v1/Lease': {
    prefix: '/apis/coordination.k8s.io/v1',
    plural: 'leases',
    namespaced: true,
  },
  [`${GROUP}/${VERSION}/Tenant`]: { prefix: `/apis/${GROUP}/${VERSION}`, plural: PLURAL, namespaced: false },
  [`${GROUP}/${VERSION}/${CLASS_KIND}`]: {
    prefix: `/apis/${GROUP}/${VERSION}`,
    plural: CLASS_PLURAL,
    namespaced: false,
  },
  'apiextensions.k8s.io/v1/CustomResourceDefinition': {
    prefix: '/apis/apiextensions.k8s.io/v1',
    plural: 'customresourcedefinitions',
    namespaced: false,
  },
};

export interface ObjectRef {
  apiVersion: string;
  kind: string;
  namespace?: string;
  name?: string;
  /** A subresource of the named object, such as "status". */
  subresource?: string;
}

function kindInfo(apiVersion: string, kind: string): KindInfo {
  const info = KINDS[`${apiVersion}/${kind}`];
  if (info === undefined) throw new Error(`landlord does not handle ${apiVersion} ${kind}`);
  return info;
}

/** The resource name in URLs ("deployments") of a kind landlord handles. */
export function pluralOf(apiVersion: string, kind: string): string {
  return kindInfo(apiVersion, kind).plural;
}

/**
 * The one way landlord builds API paths: the collection (no name; all namespaces when namespace is
 * absent), the object (with name), or its subresource. The namespace is ignored when cluster-scoped.
 */
export function apiPath(ref: ObjectRef): string {
  const info = kindInfo(ref.apiVersion, ref.kind);
  const ns =
    info.namespaced && ref.namespace !== undefined ? `/namespaces/${encodeURIComponent(ref.namespace)}` : '';
  const name = ref.name === undefined ? '' : `/${encodeURIComponent(ref.name)}`;
  const sub = ref.name === undefined || ref.subresource === undefined ? '' : `/${ref.subresource}`;
  return `${info.prefix}${ns}/${info.plural}${name}${sub}`;
}
