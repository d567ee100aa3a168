// The TenantClass CustomResourceDefinition, defined once here like the Tenant's (api/crd.ts);
// crds/tenantclasses.landlord.dev.yaml is this object rendered, and a golden test keeps the two
// identical. The schema follows TenantClassSpec field by field: what the API server can check (enums,
// integer bounds, one subject per RoleBinding) it checks at `kubectl apply`, so a class the operator
// could not read never gets stored. ResourceQuota and LimitRange specs are kept as written: the API
// server validates them when the operator applies them.
import { clusterCrd, resourceSchema, type Schema } from './crd.js';
import {
  CLASS_CRD_NAME,
  CLASS_KIND,
  CLASS_PLURAL,
  DATABASE_ENGINES,
  DEFAULT_CLASS_ANNOTATION,
  DEFAULT_DATABASE_NAME_TEMPLATE,
  DEFAULT_MAX_DEPLOYMENTS,
  MAX_DEPLOYMENTS_PER_TENANT,
  POD_SECURITY_LEVELS,
  resolvedClass,
} from './tenantclass.js';

/**
 * What a class leaves out, from the one place defaults live. The two the printer columns show are
 * also schema defaults, so `kubectl get tc` never shows an empty Mode or Pod Security.
 */
const DEFAULTS = resolvedClass('', 0);

const stringMap = (description: string): Schema => ({
  type: 'object',
  description,
  additionalProperties: { type: 'string' },
});

/** An object the API server validates in its own type when the operator applies it. */
const passThrough = (description: string): Schema => ({
  type: 'object',
  description,
  'x-kubernetes-preserve-unknown-fields': true,
});

const count = (description: string, maximum: number): Schema => ({
  type: 'integer',
  format: 'int32',
  minimum: 0,
  maximum,
  description,
});

/** A resource quantity as Kubernetes spells one in a manifest ("512Mi", "1G"). */
const quantity = (description: string): Schema => ({
  type: 'string',
  pattern: '^[0-9]+(\\.[0-9]+)?(Ki|Mi|Gi|Ti|Pi|Ei|k|M|G|T|P|E)?$',
  maxLength: 32,
  description,
});

const namespaceSchema: Schema = {
  type: 'object',
  default: {},
  properties: {
    mode: {
      type: 'string',
      enum: ['PerTenant', 'Shared'],
      default: DEFAULTS.mode,
      description:
        'PerTenant: the operator makes each tenant a namespace of its own; Shared: children go where their manifests say, in namespaces the operator may manage. Default: PerTenant.',
    },
    nameTemplate: {
      type: 'string',
      minLength: 1,
      maxLength: 63,
      description:
        "PerTenant: the tenant's namespace; {name} is replaced with the tenant's name, {id} with a random DNS-safe id (required with warmPool). Default: {name}.",
    },
    labels: stringMap('Added to the tenant namespace; {name} is replaced in values.'),
    annotations: stringMap('Added to the tenant namespace; {name} is replaced in values.'),
  },
};

const roleBindingSchema: Schema = {
  type: 'object',
  required: ['clusterRole'],
  properties: {
    clusterRole: { type: 'string', minLength: 1, maxLength: 253, description: 'The ClusterRole bound.' },
    group: { type: 'string', minLength: 1, maxLength: 253, description: '{name} is replaced.' },
    user: { type: 'string', minLength: 1, maxLength: 253, description: '{name} is replaced.' },
  },
  'x-kubernetes-validations': [
    { rule: 'has(self.group) != has(self.user)', message: 'exactly one of group and user must be set' },
  ],
};

/** A Secret's or namespace's name, as the API server accepts one (DNS-1123 subdomain). */
const DNS_SUBDOMAIN = '^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$';
/** The same, where "{name}" may stand for the tenant's name. */
const TEMPLATED_SUBDOMAIN = '^([a-z0-9.-]|\\{name\\})+$';

const secretSchema: Schema = {
  type: 'object',
  required: ['name'],
  properties: {
    name: {
      type: 'string',
      minLength: 1,
      maxLength: 253,
      pattern: DNS_SUBDOMAIN,
      description: "The Secret's name in the tenant namespace.",
    },
    from: {
      type: 'object',
      required: ['namespace', 'name'],
      description:
        'Copy this Secret (type and data). The namespace must be one the operator is installed to read (LANDLORD_SECRET_SOURCE_NAMESPACES).',
      properties: {
        namespace: {
          type: 'string',
          minLength: 1,
          maxLength: 63,
          pattern: '^[a-z0-9]([-a-z0-9]*[a-z0-9])?$',
        },
        name: {
          type: 'string',
          minLength: 1,
          maxLength: 253,
          pattern: TEMPLATED_SUBDOMAIN,
          description: "{name} is replaced with the tenant's name: one source per tenant.",
        },
      },
    },
    externalSecret: {
      type: 'object',
      required: ['storeRef', 'remoteKey'],
      description:
        'An external-secrets.io/v1 ExternalSecret in the tenant namespace, whose target is this Secret.',
      properties: {
        storeRef: {
          type: 'object',
          required: ['kind', 'name'],
          properties: {
            kind: { type: 'string', enum: ['SecretStore', 'ClusterSecretStore'] },
            name: { type: 'string', minLength: 1, maxLength: 253 },
          },
        },
        remoteKey: {
          type: 'string',
          minLength: 1,
          maxLength: 1024,
          description: "The key in the store; {name} is replaced with the tenant's name.",
        },
        refreshInterval: {
          type: 'string',
          pattern: '^([0-9]+(\\.[0-9]+)?(ns|us|ms|s|m|h))+$',
          maxLength: 32,
          description:
            'How often External Secrets Operator reads the store again (a Go duration). Default: 1h.',
        },
      },
    },
  },
  'x-kubernetes-validations': [
    {
      rule: 'has(self.from) != has(self.externalSecret)',
      message: 'exactly one of from and externalSecret must be set',
    },
  ],
};

const databaseSchema: Schema = {
  type: 'object',
  required: ['name', 'engine', 'server'],
  properties: {
    name: {
      type: 'string',
      minLength: 1,
      maxLength: 60,
      pattern: '^[a-z0-9]([-a-z0-9]*[a-z0-9])?$',
      description: 'Names the entry; the credentials are the Secret db-<name> in the tenant namespace.',
    },
    engine: {
      type: 'string',
      enum: [...DATABASE_ENGINES],
      description: 'postgres, or mysql (MySQL, MariaDB).',
    },
    server: {
      type: 'object',
      required: ['secretRef'],
      properties: {
        secretRef: {
          type: 'object',
          required: ['name'],
          properties: { name: { type: 'string', minLength: 1, maxLength: 253 } },
          description:
            "A Secret in landlord's own namespace with the server's admin connection: host, port, user, password.",
        },
      },
    },
    nameTemplate: {
      type: 'string',
      minLength: 1,
      maxLength: 63,
      default: DEFAULT_DATABASE_NAME_TEMPLATE,
      description: `The database's and its role's name; {name} is replaced with the tenant's name. Default: ${DEFAULT_DATABASE_NAME_TEMPLATE}.`,
    },
  },
};

const limitsSchema: Schema = {
  type: 'object',
  properties: {
    maxReplicas: count("The most replicas a tenant's Deployment may ask for. Default: 50.", 10_000),
    maxConfigMaps: count('The most ConfigMaps a tenant may have. Default: 50.', 1_000),
    maxDeployments: count(
      `The most Deployments a tenant's row may list (spec as an array or a v1 List). Default: ${DEFAULT_MAX_DEPLOYMENTS}.`,
      MAX_DEPLOYMENTS_PER_TENANT,
    ),
    maxRowBytes: count(
      "spec.deployment and spec.configMaps together, as JSON bytes. Default: 409600 (DynamoDB's item limit).",
      1_048_576,
    ),
    allowedPriorityClasses: {
      type: 'array',
      description: 'The priorityClassNames a pod template may use; none by default.',
      maxItems: 64,
      items: { type: 'string', minLength: 1, maxLength: 253 },
    },
    maxTerminationGracePeriodSeconds: count(
      'The longest terminationGracePeriodSeconds a pod template may ask for. Default: 300.',
      86_400,
    ),
    defaultEmptyDirSizeLimit: quantity(
      'Set as sizeLimit on every emptyDir volume that sets none. Default: 1Gi.',
    ),
    maxEmptyDirSizeLimit: quantity(
      'The largest emptyDir sizeLimit a pod template may ask for. Default: 8Gi.',
    ),
    allowEphemeralVolumes: {
      type: 'boolean',
      description:
        'Whether pod templates may have generic ephemeral volumes (a PersistentVolumeClaim per pod). Default: false.',
    },
  },
};

const egressRuleSchema: Schema = {
  type: 'object',
  properties: {
    namespaceSelector: passThrough(
      'A namespace label selector: every pod of the namespaces it picks (an empty one adds nothing: it would pick every namespace).',
    ),
    ipBlock: {
      type: 'object',
      required: ['cidr'],
      description:
        'Addresses outside the cluster. The cloud metadata endpoint (169.254.169.254, fd00:ec2::254) is always added to except.',
      properties: {
        cidr: { type: 'string', minLength: 1, maxLength: 64 },
        except: { type: 'array', maxItems: 64, items: { type: 'string', minLength: 1, maxLength: 64 } },
      },
    },
    ports: {
      type: 'array',
      maxItems: 64,
      description: 'The ports this entry opens; all when absent.',
      items: {
        type: 'object',
        properties: {
          protocol: { type: 'string', enum: ['TCP', 'UDP', 'SCTP'] },
          port: { 'x-kubernetes-int-or-string': true },
          endPort: { type: 'integer', format: 'int32', minimum: 1, maximum: 65_535 },
        },
      },
    },
  },
  'x-kubernetes-validations': [
    {
      rule: 'has(self.namespaceSelector) || has(self.ipBlock)',
      message: 'an entry needs a namespaceSelector, an ipBlock or both',
    },
  ],
};

/** A DNS name as Kubernetes checks one (RFC 1123 subdomain), lower case. */
const DNS_NAME_PATTERN = '^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$';

/**
 * Why the API server refuses a class's expose.tls: a private key shared by tenants would sit in every
 * tenant namespace, where each team can read it. Each names the way out.
 */
export const EXPOSE_TLS_MESSAGE = {
  ingressSharedKey:
    "with an Ingress, expose.tls.secretName is a Secret in every tenant namespace, which the tenant's team can read: terminate TLS at a shared Gateway instead (expose.gateway with tls: {}, the certificate in the Gateway's namespace), or set tls.perTenant: true and tls.secretName when each tenant namespace holds a certificate of its own (docs/exposure.md#tls)",
  perTenantAtGateway:
    "expose.tls.perTenant is for an Ingress: at a Gateway the listener's certificate stays in the Gateway's namespace (tls: {} makes the URL https)",
  sharedSource:
    "expose.tls.secretName is one of the class's secrets copied from a single source into every tenant namespace: a private key every tenant's team could read; give each tenant its own ({name} in from.name or externalSecret.remoteKey), or terminate TLS at a shared Gateway (expose.gateway, docs/exposure.md#tls)",
} as const;

const exposeSchema: Schema = {
  type: 'object',
  required: ['port', 'host'],
  description:
    'PerTenant: a ClusterIP Service (port 80 to `port`) and one route for each tenant, owned by its Tenant: an Ingress of ingressClassName, or an HTTPRoute attached to gateway (exactly one). A Shared class with expose is refused on its Tenants (ExposeNotAllowed).',
  properties: {
    port: {
      type: 'integer',
      format: 'int32',
      minimum: 1,
      maximum: 65_535,
      description: "The container port of the tenant's pods that the Service sends port 80 to.",
    },
    host: {
      type: 'string',
      minLength: 1,
      maxLength: 253,
      description:
        "The tenant's host; {name} is replaced with the tenant's name. It must give a DNS name under allowedDomains (else InvalidHost or HostNotAllowed on the class's Tenants).",
    },
    deployment: {
      type: 'string',
      minLength: 1,
      maxLength: 253,
      description:
        "Which of a tenant's Deployments the Service sends traffic to, by metadata.name; absent: the first. A tenant that has none of this name is refused (ExposeNotAllowed).",
    },
    ingressClassName: {
      type: 'string',
      minLength: 1,
      maxLength: 253,
      description: 'An Ingress (networking.k8s.io/v1) of this IngressClass.',
    },
    gateway: {
      type: 'object',
      required: ['namespace', 'name'],
      description: 'An HTTPRoute (gateway.networking.k8s.io/v1) attached to this Gateway.',
      properties: {
        namespace: { type: 'string', minLength: 1, maxLength: 63 },
        name: { type: 'string', minLength: 1, maxLength: 253 },
        sectionName: {
          type: 'string',
          minLength: 1,
          maxLength: 253,
          description: "The Gateway's listener; absent: every listener that admits the route.",
        },
      },
    },
    tls: {
      type: 'object',
      description:
        "The URL is https. HTTPRoute: the Gateway's listener terminates TLS with a certificate in the Gateway's namespace; `{}` is enough, and no tenant namespace holds a key. Ingress: secretName is a Secret in each tenant's own namespace, which its team can read, so perTenant: true must say it holds that tenant's own certificate (docs/exposure.md#tls).",
      properties: {
        secretName: {
          type: 'string',
          minLength: 1,
          maxLength: 253,
          description:
            'Ingress: the Secret in each tenant namespace the controller serves. HTTPRoute: not read.',
        },
        perTenant: {
          type: 'boolean',
          description:
            "Ingress only, and required there: true says secretName holds each tenant's own certificate, never one shared by tenants.",
        },
      },
    },
  },
  'x-kubernetes-validations': [
    {
      rule: 'has(self.ingressClassName) != has(self.gateway)',
      message: 'exactly one of ingressClassName and gateway must be set',
    },
    {
      rule: '!has(self.tls) || has(self.gateway) || (has(self.tls.secretName) && has(self.tls.perTenant) && self.tls.perTenant)',
      message: EXPOSE_TLS_MESSAGE.ingressSharedKey,
    },
    {
      rule: '!has(self.tls) || !has(self.gateway) || !has(self.tls.perTenant)',
      message: EXPOSE_TLS_MESSAGE.perTenantAtGateway,
    },
  ],
};

/**
 * An Ingress class whose TLS Secret is one of its own `secrets` copied from a single source (no
 * {name}): by construction the same private key in every tenant namespace, whatever perTenant says.
 */
const SHARED_TLS_SOURCE_RULE = [
  '!has(self.expose) || !has(self.expose.ingressClassName) || !has(self.expose.tls)',
  '|| !has(self.expose.tls.secretName) || !has(self.secrets)',
  '|| !self.secrets.exists(s, s.name == self.expose.tls.secretName && (has(s.from)',
  "? !s.from.name.contains('{name}') : !s.externalSecret.remoteKey.contains('{name}')))",
].join(' ');

const warmPoolSchema: Schema = {
  type: 'object',
  description:
    'PerTenant: namespaces made ahead of tenants, running `deployment` (or `deployments`); a new tenant of the class claims a Ready one (docs/warm-pool.md). The nameTemplate must use {id}.',
  properties: {
    size: count('Ready, unclaimed members kept at all times.', 1000),
    deployment: passThrough(
      "The apps/v1 Deployment a member runs before it is claimed; a row whose Deployment has the same name and pod template keeps the member's pods.",
    ),
    deployments: {
      type: 'array',
      maxItems: MAX_DEPLOYMENTS_PER_TENANT,
      description:
        "Instead of deployment, for a class whose rows list several services: the apps/v1 Deployments every member runs, each with its own name, checked as a row's list is (limits.maxDeployments). A row's Deployment of the same name and pod template as one of them keeps that one's pods.",
      items: passThrough('An apps/v1 Deployment manifest.'),
    },
    maxUnavailable: {
      type: 'integer',
      format: 'int32',
      minimum: 1,
      maximum: 1000,
      description: 'Unclaimed members replaced at once when the pool changes. Default: 1.',
    },
  },
};

const specSchema: Schema = {
  type: 'object',
  default: {},
  description: 'The policy for the tenants of this class; every field is optional and has a default.',
  properties: {
    namespace: namespaceSchema,
    podSecurity: {
      type: 'string',
      enum: [...POD_SECURITY_LEVELS],
      default: DEFAULTS.podSecurity,
      description: 'The Pod Security Standard every pod template must meet. Default: baseline.',
    },
    resourceQuota: passThrough('A ResourceQuotaSpec for the tenant namespace (PerTenant only).'),
    limitRange: passThrough('A LimitRangeSpec for the tenant namespace (PerTenant only).'),
    networkIsolation: {
      type: 'string',
      enum: ['Isolated', 'None'],
      description:
        'Isolated: ingress only from the same namespace and from allowIngressFrom, egress only to the same namespace, DNS and allowEgressTo (PerTenant). Default: Isolated.',
    },
    allowIngressFrom: passThrough('A namespace label selector allowed in when Isolated.'),
    allowEgressTo: {
      type: 'array',
      description:
        "Isolated: where the tenant's pods may connect besides their own namespace and DNS. Default: nowhere.",
      maxItems: 64,
      items: egressRuleSchema,
    },
    nodePool: {
      type: 'object',
      description: 'Forced onto every pod template; a row may not widen it.',
      properties: {
        nodeSelector: stringMap('Node labels every pod must select.'),
        tolerations: {
          type: 'array',
          items: passThrough('A toleration, as in a pod spec.'),
        },
      },
    },
    serviceAccount: {
      type: 'object',
      properties: {
        automountToken: {
          type: 'boolean',
          description: "Whether pods mount their ServiceAccount's token. Default: false.",
        },
      },
    },
    rbac: {
      type: 'array',
      description: 'RoleBindings in the tenant namespace (PerTenant): one group or user per ClusterRole.',
      maxItems: 64,
      items: roleBindingSchema,
    },
    secrets: {
      type: 'array',
      description:
        'Secrets every tenant gets in its namespace (PerTenant only): copied from a source namespace (from) or fetched by External Secrets Operator (externalSecret). A Shared class that sets them is refused on its Tenants (SecretsNotAllowed).',
      maxItems: 64,
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-list-map-keys': ['name'],
      items: secretSchema,
    },
    databases: {
      type: 'array',
      description:
        'A database and a role of its own for every tenant (PerTenant only), made on first reconcile, dropped only by a purge (docs/databases.md).',
      maxItems: 8,
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-list-map-keys': ['name'],
      items: databaseSchema,
    },
    limits: limitsSchema,
    allowedTables: {
      type: 'array',
      description:
        'The DynamoDB tables whose rows may use this class, by the table sync stamps on each Tenant (a row cannot set it); a Tenant of any other table, or of none, is refused with ClassNotAllowed. Default: any table.',
      maxItems: 256,
      items: { type: 'string', minLength: 1, maxLength: 1024 },
    },
    expose: exposeSchema,
    services: {
      type: 'object',
      description: "The Services the operator makes for each tenant: the exposed one and each Deployment's.",
      properties: {
        headless: {
          type: 'boolean',
          description:
            "Make them headless (clusterIP: None): no address from the cluster's Service range, and no wait on its one-at-a-time allocator; routes reach the pods through EndpointSlices, clients in the cluster reach them by name on the container's port. Changing it replaces every tenant's Services. Default: false.",
        },
      },
    },
    allowedDomains: {
      type: 'array',
      description:
        "The DNS domains a tenant's hosts may be in: the host itself or any name under it. expose.host must give a name under one of them. Default: none.",
      maxItems: 256,
      items: { type: 'string', minLength: 1, maxLength: 253, pattern: DNS_NAME_PATTERN },
    },
    warmPool: warmPoolSchema,
  },
  'x-kubernetes-validations': [{ rule: SHARED_TLS_SOURCE_RULE, message: EXPOSE_TLS_MESSAGE.sharedSource }],
};

export const TENANT_CLASS_CRD = clusterCrd(
  {
    name: CLASS_CRD_NAME,
    plural: CLASS_PLURAL,
    singular: 'tenantclass',
    kind: CLASS_KIND,
    shortNames: ['tc'],
  },
  {
    additionalPrinterColumns: [
      { name: 'Mode', type: 'string', jsonPath: '.spec.namespace.mode' },
      { name: 'Pod Security', type: 'string', jsonPath: '.spec.podSecurity' },
      {
        name: 'Default',
        type: 'string',
        // kubectl's JSONPath: the dots inside the annotation's key are escaped.
        jsonPath: `.metadata.annotations.${DEFAULT_CLASS_ANNOTATION.replaceAll('.', '\\.')}`,
      },
      { name: 'Warm', type: 'integer', jsonPath: '.status.warm' },
      { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
    ],
    // status.warm is written by the operator's pool controller; spec edits never touch it.
    subresources: { status: {} },
    schema: {
      openAPIV3Schema: resourceSchema(
        'A TenantClass: the platform policy for the tenants whose row names it (or, annotated landlord.dev/is-default-class: "true", for rows that name none).',
        specSchema,
        {
          type: 'object',
          properties: {
            warm: {
              type: 'integer',
              format: 'int32',
              minimum: 0,
              description: 'Warm pool members Ready and unclaimed, as the operator last counted them.',
            },
          },
        },
      ),
    },
  },
);
