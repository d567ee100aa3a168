// JSON Schemas for the children's shape. They cover the fields landlord relies on (names, the pod
// template, every field the Pod Security checks read) and let everything else through for the API
// server to judge. Optional fields accept null, which Kubernetes reads as "not set".
//
// `hint` is an annotation keyword (see shape.ts): the human text for a failure of that schema.
import type { SchemaObject } from 'ajv';
import { DNS1123_LABEL_RULE, DNS1123_SUBDOMAIN_RULE } from '../../util/names.js';

export const FORMAT = { label: 'dns1123-label', subdomain: 'dns1123-subdomain' } as const;

function optional(type: string): string[] {
  return [type, 'null'];
}

function object(properties: Record<string, SchemaObject>, required: string[] = []): SchemaObject {
  return required.length === 0
    ? { type: optional('object'), properties }
    : { type: optional('object'), properties, required };
}

/** A list element: an object, never null (a null port or sysctl would reach the checks as null). */
function element(properties: Record<string, SchemaObject>, required: string[] = []): SchemaObject {
  return { ...object(properties, required), type: 'object' };
}

const text: SchemaObject = { type: optional('string') };
const flag: SchemaObject = { type: optional('boolean') };
const integer: SchemaObject = { type: optional('integer') };
const textList: SchemaObject = { type: optional('array'), items: { type: 'string' } };
const textMap: SchemaObject = { type: optional('object'), additionalProperties: { type: 'string' } };

const dnsLabel: SchemaObject = {
  type: 'string',
  format: FORMAT.label,
  hint: `must be a DNS-1123 label: ${DNS1123_LABEL_RULE}`,
};
const dnsSubdomain: SchemaObject = {
  type: 'string',
  format: FORMAT.subdomain,
  hint: `must be a DNS-1123 subdomain: ${DNS1123_SUBDOMAIN_RULE}`,
};

const objectMeta: SchemaObject = {
  type: 'object',
  required: ['name', 'namespace'],
  properties: {
    name: dnsSubdomain,
    namespace: dnsLabel,
    generateName: text,
    labels: textMap,
    annotations: textMap,
    finalizers: textList,
    ownerReferences: { type: optional('array') },
    managedFields: { type: optional('array') },
  },
};

const templateMeta = object({
  labels: textMap,
  annotations: textMap,
  finalizers: textList,
  ownerReferences: { type: optional('array') },
  managedFields: { type: optional('array') },
});

const labelSelector: SchemaObject = {
  type: 'object',
  hint: 'must set matchLabels or matchExpressions (not empty), so the Deployment knows which pods are its own',
  properties: {
    matchLabels: textMap,
    matchExpressions: {
      type: optional('array'),
      items: element({ key: { type: 'string' }, operator: { type: 'string' }, values: textList }, [
        'key',
        'operator',
      ]),
    },
  },
  anyOf: [
    { required: ['matchLabels'], properties: { matchLabels: { type: 'object', minProperties: 1 } } },
    { required: ['matchExpressions'], properties: { matchExpressions: { type: 'array', minItems: 1 } } },
  ],
};

const profile = object({ type: { type: 'string' }, localhostProfile: text }, ['type']);
const seLinuxOptions = object({ user: text, role: text, type: text, level: text });
const windowsOptions = object({ hostProcess: flag, gmsaCredentialSpecName: text, runAsUserName: text });

const podSecurityContext = object({
  runAsNonRoot: flag,
  runAsUser: integer,
  runAsGroup: integer,
  fsGroup: integer,
  supplementalGroups: { type: optional('array'), items: { type: 'integer' } },
  seLinuxOptions,
  seccompProfile: profile,
  appArmorProfile: profile,
  windowsOptions,
  sysctls: {
    type: optional('array'),
    items: element({ name: { type: 'string' }, value: { type: 'string' } }, ['name', 'value']),
  },
});

const containerSecurityContext = object({
  privileged: flag,
  allowPrivilegeEscalation: flag,
  runAsNonRoot: flag,
  runAsUser: integer,
  runAsGroup: integer,
  readOnlyRootFilesystem: flag,
  procMount: text,
  capabilities: object({ add: textList, drop: textList }),
  seLinuxOptions,
  seccompProfile: profile,
  appArmorProfile: profile,
  windowsOptions,
});

const hostTarget = object({ host: text });
const handler = object({ httpGet: hostTarget, tcpSocket: hostTarget });

const container: SchemaObject = {
  type: 'object',
  required: ['name', 'image'],
  properties: {
    name: dnsLabel,
    image: { type: 'string', minLength: 1 },
    ports: {
      type: optional('array'),
      items: element({ containerPort: integer, hostPort: integer }),
    },
    securityContext: containerSecurityContext,
    livenessProbe: handler,
    readinessProbe: handler,
    startupProbe: handler,
    lifecycle: object({ postStart: handler, preStop: handler }),
  },
};

// The container schema is referenced, not repeated: with ajv's inlineRefs off (shape.ts) it becomes
// one function of its own that the three container lists call. Inlined three times it made one
// validator so large that optimising it took ~10 MiB of compiler memory for a moment, which set the
// operator's peak resident memory at 1,000 tenants (docs/performance.md).
const containerRef: SchemaObject = { $ref: '#/$defs/container' };

const containerList: SchemaObject = { type: optional('array'), items: containerRef };

const volume: SchemaObject = {
  type: 'object',
  required: ['name'],
  properties: { name: dnsLabel },
};

const podSpec: SchemaObject = {
  type: 'object',
  required: ['containers'],
  properties: {
    containers: { type: 'array', minItems: 1, items: containerRef },
    initContainers: containerList,
    ephemeralContainers: containerList,
    volumes: { type: optional('array'), items: volume },
    hostNetwork: flag,
    hostPID: flag,
    hostIPC: flag,
    securityContext: podSecurityContext,
    os: object({ name: text }),
  },
};

export const DEPLOYMENT_SCHEMA: SchemaObject = {
  $defs: { container },
  type: 'object',
  required: ['apiVersion', 'kind', 'metadata', 'spec'],
  properties: {
    apiVersion: { type: 'string', const: 'apps/v1' },
    kind: { type: 'string', const: 'Deployment' },
    metadata: objectMeta,
    spec: {
      type: 'object',
      required: ['selector', 'template'],
      properties: {
        replicas: { type: optional('integer'), minimum: 0 },
        selector: labelSelector,
        template: {
          type: 'object',
          required: ['spec'],
          properties: { metadata: templateMeta, spec: podSpec },
        },
      },
    },
  },
};

const configMapData: SchemaObject = {
  type: optional('object'),
  additionalProperties: { type: 'string' },
  propertyNames: { maxLength: 253, pattern: '^[-._a-zA-Z0-9]+$' },
  hint: "keys must be at most 253 letters, digits, '-', '_' or '.'",
};

export const CONFIG_MAP_SCHEMA: SchemaObject = {
  type: 'object',
  required: ['apiVersion', 'kind', 'metadata'],
  properties: {
    apiVersion: { type: 'string', const: 'v1' },
    kind: { type: 'string', const: 'ConfigMap' },
    metadata: objectMeta,
    data: configMapData,
    binaryData: configMapData,
    immutable: flag,
  },
};
