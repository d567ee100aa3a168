// The Tenant CustomResourceDefinition. Defined once here; crds/tenants.landlord.dev.yaml is this
// object rendered (a golden test keeps the two identical). runtime/kube/crd-install.ts installs it.
import { dump } from 'js-yaml';
import {
  CLASS_SOURCES,
  CONDITION,
  CRD_NAME,
  DEFAULT_STATE,
  GROUP,
  KIND,
  PLURAL,
  PREVIOUS_VERSION,
  PURGE_PHASES,
  TABLE_PURGE_PHASES,
  TENANT_STATES,
  VERSION,
} from './tenant.js';
import { BUILT_IN_CLASS_NAME, MAX_DEPLOYMENTS_PER_TENANT } from './tenantclass.js';

/** A DNS-1123 subdomain, as the API server's own name validation spells it (length checked apart). */
const DNS1123_SUBDOMAIN_PATTERN = '^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$';

/**
 * JSON schema as the API server spells it. client-node's Schema renames the
 * x-kubernetes-* and enum keys for its serializer, so it cannot describe the manifest directly.
 */
export type Schema = { [key: string]: unknown };

/**
 * The outer shape of a manifest; everything else is preserved as written and checked by the operator.
 * Atomic: sync writes a manifest whole, from its row, so server-side apply records it as one field
 * instead of one per field of the manifest. The Tenant's managedFields then stay the same size
 * however large the row's Deployment is, and every later write of the Tenant (each status write
 * decodes, checks and re-encodes them) costs the API server less.
 */
function manifestSchema(description: string): Schema {
  return {
    type: 'object',
    description,
    required: ['apiVersion', 'kind', 'metadata'],
    'x-kubernetes-preserve-unknown-fields': true,
    'x-kubernetes-map-type': 'atomic',
    properties: {
      apiVersion: { type: 'string', minLength: 1 },
      kind: { type: 'string', minLength: 1 },
      metadata: {
        type: 'object',
        required: ['name'],
        'x-kubernetes-preserve-unknown-fields': true,
        properties: {
          name: { type: 'string', minLength: 1, maxLength: 253 },
          namespace: { type: 'string', maxLength: 63 },
        },
      },
    },
  };
}

const conditionSchema: Schema = {
  type: 'object',
  required: ['type', 'status', 'lastTransitionTime', 'reason', 'message'],
  properties: {
    type: {
      type: 'string',
      maxLength: 316,
      pattern:
        '^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])$',
    },
    status: { type: 'string', enum: ['True', 'False', 'Unknown'] },
    observedGeneration: { type: 'integer', format: 'int64', minimum: 0 },
    lastTransitionTime: { type: 'string', format: 'date-time' },
    reason: {
      type: 'string',
      minLength: 1,
      maxLength: 1024,
      pattern: '^[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?$',
    },
    message: { type: 'string', maxLength: 32768 },
  },
};

const time = (description: string): Schema => ({ type: 'string', format: 'date-time', description });

/** status.purge: written by the purger only, under its own field manager. */
const purgeSchema: Schema = {
  type: 'object',
  description: "The purge of the tenant's data (state: purged), as the purger last reported it.",
  required: ['phase', 'scheduledAt', 'startsAt', 'tables'],
  properties: {
    phase: { type: 'string', enum: [...PURGE_PHASES] },
    scheduledAt: time('When the purger first saw the Tenant in state purged; the delay counts from here.'),
    startsAt: time('scheduledAt plus the purge delay: no data is deleted before this time.'),
    startedAt: time('When deleting began.'),
    finishedAt: time('When the purge completed, failed or was cancelled.'),
    observedGeneration: { type: 'integer', format: 'int64', minimum: 0 },
    uid: {
      type: 'string',
      description:
        'The uid of the Tenant the purge was scheduled for; a Tenant made again under its name starts afresh.',
    },
    tables: {
      type: 'array',
      description: 'One entry per data table, for the partition of the tenant in it.',
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-list-map-keys': ['table'],
      items: {
        type: 'object',
        required: ['table', 'phase', 'deleted'],
        properties: {
          table: { type: 'string', minLength: 1 },
          phase: { type: 'string', enum: [...TABLE_PURGE_PHASES] },
          deleted: { type: 'integer', format: 'int64', minimum: 0, description: 'Items deleted.' },
          startedAt: time('When this table was started.'),
          finishedAt: time('When this table was done or failed.'),
        },
      },
    },
    databases: {
      type: 'array',
      description:
        "The tenant's databases (its class's databases when the purge was scheduled), each dropped with its role.",
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-list-map-keys': ['name'],
      maxItems: 8,
      items: {
        type: 'object',
        required: ['name', 'engine', 'adminSecret', 'database', 'role', 'phase'],
        properties: {
          name: { type: 'string', minLength: 1, maxLength: 63 },
          engine: { type: 'string', enum: ['postgres', 'mysql'] },
          adminSecret: { type: 'string', minLength: 1, maxLength: 253 },
          database: { type: 'string', minLength: 1, maxLength: 64 },
          role: { type: 'string', minLength: 1, maxLength: 64 },
          phase: { type: 'string', enum: [...TABLE_PURGE_PHASES] },
          finishedAt: time('When the database and role were dropped, or the drop failed.'),
        },
      },
    },
  },
};

const statusSchema: Schema = {
  type: 'object',
  properties: {
    observedGeneration: {
      type: 'integer',
      format: 'int64',
      description: 'The generation the operator last acted on.',
    },
    conditions: {
      type: 'array',
      description: `${CONDITION.ready}, ${CONDITION.applied}, ${CONDITION.available}, ${CONDITION.degraded} (operator), ${CONDITION.synced} (sync) and ${CONDITION.purged} (purger).`,
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-list-map-keys': ['type'],
      items: conditionSchema,
    },
    replicas: { type: 'integer', format: 'int32', description: 'Desired replicas of the Deployment.' },
    readyReplicas: { type: 'integer', format: 'int32', description: 'Ready replicas of the Deployment.' },
    replicaSummary: { type: 'string', description: 'ready/desired, for kubectl get.' },
    deployment: { type: 'string', description: 'namespace/name of the owned Deployment.' },
    workloads: {
      type: 'array',
      description:
        'A tenant of several Deployments (spec.deployments): each one, in the spec order; absent for a tenant of one.',
      items: {
        type: 'object',
        required: ['name', 'replicas', 'readyReplicas', 'available'],
        properties: {
          name: { type: 'string', description: 'namespace/name of the Deployment.' },
          replicas: { type: 'integer', format: 'int32', description: 'Desired replicas.' },
          readyReplicas: { type: 'integer', format: 'int32', description: 'Ready replicas.' },
          available: {
            type: 'string',
            enum: ['True', 'False', 'Unknown'],
            description: "The Deployment's Available condition.",
          },
        },
      },
    },
    configMaps: {
      type: 'array',
      items: { type: 'string' },
      description: 'namespace/name of each owned ConfigMap.',
    },
    sync: {
      type: 'object',
      description: 'Where sync read this tenant from.',
      properties: {
        table: { type: 'string' },
        rowHash: { type: 'string' },
        lastChangedTime: { type: 'string', format: 'date-time' },
        revision: {
          type: 'integer',
          format: 'int64',
          minimum: 1,
          description:
            'The newest revision kept in landlord history (ControllerRevision <tenant>-<revision>).',
        },
        revisionHash: { type: 'string', description: 'The row hash that revision holds.' },
      },
    },
    state: {
      type: 'string',
      enum: [...TENANT_STATES],
      description: 'The lifecycle state the operator last brought the children to; absent: active.',
    },
    purge: purgeSchema,
    class: {
      type: 'string',
      description: `The TenantClass the operator last resolved for this Tenant (${BUILT_IN_CLASS_NAME}: no TenantClass applied).`,
    },
    classSource: {
      type: 'string',
      enum: [...CLASS_SOURCES],
      description:
        'Row: the row named the class; Default: it was given as the default. Only a Default class stays when the row names none.',
    },
    namespace: { type: 'string', description: "The namespace the tenant's children live in." },
    url: {
      type: 'string',
      description:
        'Where the tenant is reached, when its class exposes it: http(s)://<its templated host>; absent when its route is not kept (archived, purged).',
    },
  },
};

/** What a CRD version says besides its name and whether it is served, stored or deprecated. */
interface VersionBody {
  subresources: Schema;
  additionalPrinterColumns: readonly Schema[];
  schema: { openAPIV3Schema: Schema };
}

type ServedVersion<B> = B & {
  name: string;
  served: boolean;
  storage: boolean;
  deprecated?: boolean;
  deprecationWarning?: string;
};

/**
 * The versions a CRD serves, every one from the same body (ADR 0011): VERSION is stored, and
 * PREVIOUS_VERSION, deprecated, serves the very same schema and columns. Identical schemas are
 * what make the CRD's conversion `None` sound: an object stored under either version is valid
 * under the other as it is, so no webhook converts, and an operator rolled back to
 * PREVIOUS_VERSION reads what this one stored. A field added to the body lands in both.
 */
function servedVersions<B extends VersionBody>(kind: string, body: B): readonly ServedVersion<B>[] {
  const deprecationWarning = `${GROUP}/${PREVIOUS_VERSION} ${kind} is deprecated; use ${GROUP}/${VERSION} ${kind}, which has the same fields (docs/deploying.md, Upgrading)`;
  return [
    { name: VERSION, served: true, storage: true, ...structuredClone(body) },
    {
      name: PREVIOUS_VERSION,
      served: true,
      storage: false,
      deprecated: true,
      deprecationWarning,
      ...structuredClone(body),
    },
  ];
}

/** Both versions convert by changing apiVersion only: the API server does it, no webhook. */
const CONVERSION = { strategy: 'None' } as const;

/** How the API names a kind of landlord's; `name` is the CRD's own (`<plural>.<group>`). */
interface CrdNames {
  name: string;
  plural: string;
  singular: string;
  kind: string;
  shortNames: readonly string[];
}

/** A CustomResourceDefinition as landlord writes every one of its own. */
export type CustomResourceDefinition<B> = {
  apiVersion: 'apiextensions.k8s.io/v1';
  kind: 'CustomResourceDefinition';
  metadata: { name: string; labels: Record<string, string> };
  spec: {
    group: string;
    scope: 'Cluster';
    names: Omit<CrdNames, 'name'> & { listKind: string };
    conversion: typeof CONVERSION;
    versions: readonly ServedVersion<B>[];
  };
};

/**
 * A cluster-scoped CRD in landlord's group, serving `body` under every version (servedVersions).
 * The body is the caller's own object, so its keys render in the order the caller wrote them.
 */
export function clusterCrd<B extends VersionBody>(names: CrdNames, body: B): CustomResourceDefinition<B> {
  const { name, plural, singular, kind, shortNames } = names;
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name, labels: { 'app.kubernetes.io/name': 'landlord' } },
    spec: {
      group: GROUP,
      scope: 'Cluster',
      names: { plural, singular, kind, listKind: `${kind}List`, shortNames },
      conversion: CONVERSION,
      versions: servedVersions(kind, body),
    },
  };
}

/** The root of a resource's schema: the fields every object has, its spec and its status. */
export function resourceSchema(description: string, spec: Schema, status: Schema): Schema {
  return {
    type: 'object',
    description,
    properties: {
      apiVersion: { type: 'string' },
      kind: { type: 'string' },
      metadata: { type: 'object' },
      spec,
      status,
    },
  };
}

const condition = (type: string, field: 'status' | 'reason'): string =>
  `.status.conditions[?(@.type=="${type}")].${field}`;

export const TENANT_CRD = clusterCrd(
  { name: CRD_NAME, plural: PLURAL, singular: 'tenant', kind: KIND, shortNames: ['tn'] },
  {
    subresources: { status: {} },
    additionalPrinterColumns: [
      { name: 'Ready', type: 'string', jsonPath: condition(CONDITION.ready, 'status') },
      { name: 'Reason', type: 'string', jsonPath: condition(CONDITION.ready, 'reason') },
      { name: 'Replicas', type: 'string', jsonPath: '.status.replicaSummary' },
      { name: 'Synced', type: 'string', jsonPath: condition(CONDITION.synced, 'status') },
      { name: 'State', type: 'string', jsonPath: '.spec.state' },
      { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
      {
        name: 'Message',
        type: 'string',
        priority: 1,
        jsonPath: `.status.conditions[?(@.type=="${CONDITION.ready}")].message`,
      },
      { name: 'Purge', type: 'string', priority: 1, jsonPath: '.status.purge.phase' },
      { name: 'Class', type: 'string', priority: 1, jsonPath: '.status.class' },
      { name: 'Namespace', type: 'string', priority: 1, jsonPath: '.status.namespace' },
      { name: 'URL', type: 'string', priority: 1, jsonPath: '.status.url' },
      {
        name: 'Secrets',
        type: 'string',
        priority: 1,
        jsonPath: condition(CONDITION.secretsReady, 'status'),
      },
    ],
    schema: {
      openAPIV3Schema: resourceSchema(
        'A tenant: one Deployment and its ConfigMaps, owned and kept as specified by landlord.',
        {
          type: 'object',
          properties: {
            deployment: manifestSchema(
              'An apps/v1 Deployment manifest (a row whose spec is one object); absent when deployments is set.',
            ),
            deployments: {
              type: 'array',
              maxItems: MAX_DEPLOYMENTS_PER_TENANT,
              description:
                "apps/v1 Deployment manifests, each with its own name (a row whose spec is an array or a v1 List): several services of one tenant. Exactly one of deployment and deployments is set; the class's limits.maxDeployments caps how many.",
              items: manifestSchema('An apps/v1 Deployment manifest.'),
            },
            configMaps: { type: 'array', items: manifestSchema('A v1 ConfigMap manifest.') },
            class: {
              type: 'string',
              minLength: 1,
              maxLength: 253,
              pattern: DNS1123_SUBDOMAIN_PATTERN,
              description:
                "The TenantClass whose policy applies (from the row's class attribute); absent: the class annotated landlord.dev/is-default-class, or the built-in one.",
            },
            hosts: {
              type: 'array',
              maxItems: 32,
              items: { type: 'string', minLength: 1, maxLength: 253 },
              description:
                "From the row's hosts: custom domains the tenant's route also serves, each under its class's allowedDomains; a host is held by one Tenant cluster-wide, never one a class's expose.host gives another name; one held elsewhere is withheld alone (HostsReady=False), the tenant runs.",
            },
            // A default, so Tenants written before states existed read as active too.
            state: {
              type: 'string',
              enum: [...TENANT_STATES],
              default: DEFAULT_STATE,
              description:
                "active runs the tenant; suspended scales its Deployment to 0; archived removes its children and keeps the Tenant; purged does the same as archived, then the purger deletes the tenant's data after the purge delay.",
            },
          },
        },
        statusSchema,
      ),
    },
  },
);

/**
 * A CRD as YAML, headed by the file that defines it. js-yaml directly: client-node's dumpYaml
 * passes it through its typed model, which drops the x-kubernetes-* keys.
 */
export function crdYaml(crd: Schema = TENANT_CRD, source = 'api/crd.ts'): string {
  return `# Generated from ${source} by \`landlord crd\`; do not edit by hand.\n${dump(crd)}`;
}
