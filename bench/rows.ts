// The benchmark's tenants: each a Deployment of one replica (none with --no-pods) and one ConfigMap
// in the bench namespace, written as users write rows (seed format: JSON text in S attributes).
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import type { V1ConfigMap, V1Deployment } from '@kubernetes/client-node';
import { asService } from '../testing/deployments.js';

export const BENCH_NAMESPACE = 'bench';
export const FIRST_IMAGE = 'nginx:1.27';

export const tenantName = (index: number): string => `t-${String(index).padStart(5, '0')}`;
export const deploymentName = (tenant: string): string => `${tenant}-app`;

/**
 * Replicas of every bench Deployment: one, or none with --no-pods, which leaves the pod pipeline
 * (scheduler, kwok, the ReplicaSet controller) idle so that a run measures the part landlord controls.
 */
export const benchReplicas = (options: { pods: boolean }): number => (options.pods ? 1 : 0);

export function deployment(tenant: string, image = FIRST_IMAGE, replicas = 1): V1Deployment {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: deploymentName(tenant), namespace: BENCH_NAMESPACE },
    spec: {
      replicas,
      selector: { matchLabels: { app: tenant } },
      template: {
        metadata: { labels: { app: tenant } },
        spec: { containers: [{ name: 'app', image }] },
      },
    },
  };
}

/**
 * A tenant's Deployment as production rows write it: the bench's one container with what a real
 * service carries (environment, resources, probes, a mounted ConfigMap, a security context). The
 * request-cost tool's `--production` measures Tenant writes with it, since what a Tenant write costs
 * the API server follows the size of the Tenant and of its managedFields.
 */
export function productionDeployment(tenant: string, image = FIRST_IMAGE): V1Deployment {
  const minimal = deployment(tenant, image);
  const env = Array.from({ length: 12 }, (_, i) => ({ name: `SETTING_${i}`, value: `value-${i}` }));
  const probe = (path: string) => ({ httpGet: { path, port: 8080 }, periodSeconds: 10 });
  const container = {
    name: 'app',
    image,
    ports: [{ name: 'http', containerPort: 8080 }],
    env,
    resources: { requests: { cpu: '100m', memory: '128Mi' }, limits: { memory: '256Mi' } },
    readinessProbe: probe('/ready'),
    livenessProbe: probe('/healthz'),
    volumeMounts: [{ name: 'config', mountPath: '/etc/app' }],
    securityContext: { runAsNonRoot: true, allowPrivilegeEscalation: false, readOnlyRootFilesystem: true },
  };
  return {
    ...minimal,
    metadata: { ...minimal.metadata, labels: { app: tenant, tier: 'web' } },
    spec: {
      ...minimal.spec!,
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: 0 } },
      template: {
        metadata: { labels: { app: tenant }, annotations: { 'example.com/team': 'payments' } },
        spec: {
          containers: [container],
          volumes: [{ name: 'config', configMap: { name: `${tenant}-config` } }],
        },
      },
    },
  };
}

export function configMap(tenant: string): V1ConfigMap {
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: `${tenant}-config`, namespace: BENCH_NAMESPACE },
    data: { 'config.json': JSON.stringify({ tenant, key: 'value' }) },
  };
}

/** What every row of a run carries: each Deployment's replicas, and how many Deployments (services). */
export interface RowShape {
  replicas: number;
  services: number;
}

/** The port each service of a tenant of several declares, so that the operator gives it a Service. */
export const SERVICE_PORT = 8080;

/** The Deployment with its container declaring SERVICE_PORT. */
function withPort(d: V1Deployment): V1Deployment {
  const containers = d.spec!.template.spec!.containers.map((c) => ({
    ...c,
    ports: [{ containerPort: SERVICE_PORT }],
  }));
  const template = { ...d.spec!.template, spec: { ...d.spec!.template.spec!, containers } };
  return { ...d, spec: { ...d.spec!, template } };
}

/**
 * A tenant's Deployments: the first named as it always was, the others after it (`-app-2`...).
 * Several are a row's array form (docs/rows.md, "several services per tenant"), each declaring a
 * port, so each gets the Service a tenant of several has per Deployment; one stays as it was.
 */
export function services(tenant: string, shape: RowShape, image = FIRST_IMAGE): V1Deployment[] {
  return Array.from({ length: shape.services }, (_, i) => {
    const plain = deployment(tenant, image, shape.replicas);
    const d = shape.services === 1 ? plain : withPort(plain);
    if (i === 0) return d;
    return asService(d, `${deploymentName(tenant)}-${i + 1}`, { app: `${tenant}-${i + 1}` });
  });
}

/** The row's spec: one Deployment as rows have always held it, or an array of them. */
export function specText(tenant: string, shape: RowShape, image = FIRST_IMAGE): string {
  const list = services(tenant, shape, image);
  return JSON.stringify(list.length === 1 ? list[0] : list);
}

/** The row of one tenant, in DynamoDB's low-level form for BatchWriteItem. */
export function row(
  tenant: string,
  shape: RowShape = { replicas: 1, services: 1 },
): Record<string, AttributeValue> {
  return {
    name: { S: tenant },
    spec: { S: specText(tenant, shape) },
    customizations: { S: JSON.stringify([configMap(tenant)]) },
    deleted: { BOOL: false },
  };
}
